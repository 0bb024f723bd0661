import type { Readable } from 'node:stream';

/** What the store knows about a stored object. */
export interface ObjectInfo {
  /** Size in bytes. */
  size: number;
  /**
   * MIME type recorded at `put` time (`application/octet-stream` when none was given), or null
   * when the backend has no record of one (e.g. an object written by another tool).
   */
  contentType: string | null;
}

/** Anything `put` accepts as an object body. */
export type ObjectBody = Buffer | NodeJS.ReadableStream | Readable;

/**
 * Blob storage for report originals and derived artefacts, behind one contract so that local
 * development (a directory) and deployments (S3-compatible storage) behave the same. Every key
 * argument is checked with {@link validateObjectKey} before any I/O.
 */
export interface ObjectStore {
  /** Which backend this is, for logs and /health output. */
  readonly kind: 'local' | 's3';

  /** Creates the bucket or directory if missing, so services can call it at startup. Idempotent. */
  ensureReady(): Promise<void>;

  /** Cheap liveness check for /health; throws when the storage is unreachable or not set up. */
  ping(): Promise<void>;

  /**
   * Capability: a URL a browser can GET the object from directly for `ttlSeconds`, when the
   * backend can sign one (S3). Absent where it cannot (the local directory): callers then serve
   * the object themselves.
   */
  presignedGetUrl?(key: string, ttlSeconds: number): Promise<string>;

  /**
   * Stores bytes or a stream of unknown length under `key`, replacing any previous object.
   * Atomic: readers see either the previous object or the complete new one, never a partial
   * object. If the stream errors, nothing is left under the key (a previous object stays
   * intact) and `put` rejects with that error.
   */
  put(key: string, body: ObjectBody, opts?: { contentType?: string }): Promise<ObjectInfo>;

  /**
   * Opens the object for streaming; the caller must consume or destroy the stream.
   * Rejects with {@link ObjectNotFoundError} when the key is absent.
   */
  get(key: string): Promise<Readable>;

  /**
   * Reads the whole object into memory. Rejects with {@link ObjectNotFoundError} when absent, and
   * with {@link ObjectTooLargeError} as soon as more than `maxBytes` have arrived (it stops reading
   * instead of buffering the rest), so callers can bound memory on untrusted uploads.
   */
  getBuffer(key: string, opts?: { maxBytes?: number }): Promise<Buffer>;

  /** Size and content type, or null when the key is absent. */
  stat(key: string): Promise<ObjectInfo | null>;

  /** Removes the object. Idempotent: deleting an absent key succeeds. */
  delete(key: string): Promise<void>;

  /**
   * All keys starting with `prefix` (a plain string prefix, as in S3, not a directory match), sorted
   * by their UTF-8 bytes. An empty prefix lists everything. Internal files (temp files, metadata
   * sidecars) are never returned.
   */
  list(prefix: string): Promise<string[]>;
}

/** The key does not exist in the store. */
export class ObjectNotFoundError extends Error {
  override readonly name = 'ObjectNotFoundError';
  constructor(
    readonly key: string,
    options?: ErrorOptions,
  ) {
    super(`object not found: ${JSON.stringify(key)}`, options);
  }
}

/** The object (or upload) is larger than the caller or the backend allows. */
export class ObjectTooLargeError extends Error {
  override readonly name = 'ObjectTooLargeError';
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`object ${JSON.stringify(key)} is larger than ${maxBytes} bytes`);
  }
}

/** The key (or list prefix) breaks the key rules; see {@link validateObjectKey}. */
export class InvalidObjectKeyError extends Error {
  override readonly name = 'InvalidObjectKeyError';
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`invalid object key ${JSON.stringify(key)}: ${reason}`);
  }
}

/** S3's limit on key length, in UTF-8 bytes. */
export const MAX_OBJECT_KEY_BYTES = 1024;

/** The content type recorded when `put` is given none (what HTTP assumes for unknown bytes). */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

// \p{Cc}: C0 controls (incl. NUL), DEL and C1 controls. \p{Cs} (with the u flag) only matches lone
// surrogates, i.e. strings that cannot be encoded as UTF-8.
const FORBIDDEN_CHAR = /[\p{Cc}\p{Cs}\\]/u;

function check(key: string, allowPrefixForms: boolean): void {
  if (typeof key !== 'string') {
    throw new InvalidObjectKeyError(String(key), 'must be a string');
  }
  if (key === '') {
    if (allowPrefixForms) return;
    throw new InvalidObjectKeyError(key, 'must not be empty');
  }
  if (Buffer.byteLength(key, 'utf8') > MAX_OBJECT_KEY_BYTES) {
    throw new InvalidObjectKeyError(key, `must be at most ${MAX_OBJECT_KEY_BYTES} bytes of UTF-8`);
  }
  const bad = FORBIDDEN_CHAR.exec(key);
  if (bad) {
    const char = bad[0];
    const what =
      char === '\\'
        ? 'a backslash'
        : `the character U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new InvalidObjectKeyError(key, `must not contain ${what}`);
  }
  if (key.startsWith('/')) {
    throw new InvalidObjectKeyError(key, 'must not start with "/"');
  }
  if (key.includes('//')) {
    throw new InvalidObjectKeyError(key, 'must not contain "//"');
  }
  if (key.endsWith('/') && !allowPrefixForms) {
    throw new InvalidObjectKeyError(key, 'must not end with "/"');
  }
  for (const segment of key.split('/')) {
    if (segment === '.' || segment === '..') {
      throw new InvalidObjectKeyError(key, `must not contain a "${segment}" path segment`);
    }
  }
}

/**
 * Throws {@link InvalidObjectKeyError} unless `key` is a safe object key: non-empty, at most 1024
 * UTF-8 bytes, no leading or trailing `/`, no `//`, no `.` or `..` segment, no backslash, no
 * control characters (NUL included) and no unpaired surrogates. The rules keep keys portable
 * between S3 and a filesystem, and make path traversal impossible in the local backend.
 */
export function validateObjectKey(key: string): void {
  check(key, false);
}

/**
 * Like {@link validateObjectKey}, for `list` prefixes: the empty prefix (list everything) and a
 * trailing `/` (list a "folder") are allowed.
 */
export function validateObjectPrefix(prefix: string): void {
  check(prefix, true);
}

/** Orders keys by their UTF-8 bytes, which is the order S3 lists them in. */
export function compareObjectKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Reads a stream into one Buffer, giving up with {@link ObjectTooLargeError} (and destroying the
 * stream, so no more data is fetched) as soon as more than `maxBytes` have arrived.
 */
export async function readStreamToBuffer(
  stream: Readable,
  key: string,
  maxBytes?: number,
): Promise<Buffer> {
  const limit = maxBytes ?? Number.POSITIVE_INFINITY;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += buf.length;
      if (total > limit) {
        throw new ObjectTooLargeError(key, limit);
      }
      chunks.push(buf);
    }
  } finally {
    // Leaving a for-await loop early destroys the stream already; this also covers other exits.
    if (!stream.destroyed) stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

/** The `code` of a Node or SDK error, when it has a string one. */
export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}
