import type { FastifyRequest } from 'fastify';
import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { AppError, isAppError, type DocumentKind } from '@reports/contracts';
import { MIME_BY_KIND, checkUploadKind } from '@reports/documents';
import { originalKey, textProblem, type Config, type ObjectStore } from '@reports/platform';

/** Spec: max file size 50 MB. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Limits of an upload form (one file part, a few text fields). */
export const UPLOAD_FORM_LIMITS = {
  files: 1,
  fields: 10,
  fieldSize: 64 * 1024,
  parts: 20,
} as const;
const SNIFF_BYTES = 8192;
/** Kinds read through OCR; also what partner attachments may be (spec: PDF or image). */
export const OCR_KINDS: ReadonlySet<DocumentKind> = new Set(['pdf', 'png', 'jpeg', 'webp']);

export interface StoredUpload {
  kind: DocumentKind;
  contentType: string;
  filename: string;
  sizeBytes: number;
  sha256: string;
  objectKey: string;
}

/**
 * A filename safe to show and store as a label: no directories, no control or
 * bidi characters, at most 255 characters. The object key never uses it.
 */
export function cleanFilename(raw: string | undefined, kind: DocumentKind): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? `upload.${kind}` : cleaned;
}

/** Reads until `n` bytes (or the end) are in hand, leaving the stream open for the rest. */
async function readHead(stream: Readable, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    const buf = chunk as Buffer;
    chunks.push(buf);
    size += buf.length;
    if (size >= n) break;
  }
  return Buffer.concat(chunks);
}

/** The checks that need only the first bytes: empty (400), type (415), OCR (503). */
function checkHead(
  head: Buffer,
  file: MultipartFile,
  config: Config,
  allowedKinds?: ReadonlySet<DocumentKind>,
): DocumentKind {
  if (head.length === 0) throw new AppError('empty_file');
  const check = checkUploadKind(head, file.mimetype, file.filename);
  if (!check.ok)
    throw new AppError('unsupported_media_type', `unsupported media type: ${check.reason}`);
  if (allowedKinds && !allowedKinds.has(check.kind))
    throw new AppError(
      'unsupported_media_type',
      `unsupported media type: ${check.kind} is not accepted here (${[...allowedKinds].join(', ')})`,
    );
  if (config.OCR_PROVIDER === 'mistral' && !config.MISTRAL_API_KEY && OCR_KINDS.has(check.kind)) {
    throw new AppError(
      'ocr_unavailable',
      'OCR provider is not configured: set MISTRAL_API_KEY or OCR_PROVIDER=local',
    );
  }
  return check.kind;
}

/**
 * Checks and streams one uploaded file into the object store: type by magic
 * bytes (415), empty (400), OCR availability (503), 50 MB cap while streaming
 * (413, nothing left behind). Memory stays at one chunk whatever the size.
 */
export async function storeUpload(
  file: MultipartFile,
  opts: {
    objectStore: ObjectStore;
    config: Config;
    keyPrefix: string;
    /** Kinds this endpoint takes (all of them when absent); others answer 415. */
    allowedKinds?: ReadonlySet<DocumentKind>;
  },
): Promise<StoredUpload> {
  const source = file.file;
  let tooLarge = false;
  source.once('limit', () => {
    tooLarge = true;
  });
  let head: Buffer;
  try {
    head = await readHead(source, SNIFF_BYTES);
  } catch (error) {
    // The request broke off inside the file part (no closing boundary).
    throw multipartError(error);
  }
  let sniffed: DocumentKind;
  try {
    sniffed = checkHead(head, file, opts.config, opts.allowedKinds);
  } catch (error) {
    // Drain what is left so the request ends and the connection is freed.
    source.resume();
    throw error;
  }

  const hash = createHash('sha256');
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > MAX_UPLOAD_BYTES || tooLarge) {
        done(new AppError('file_too_large'));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      // Busboy ends the file stream quietly at the limit; refuse what was cut short.
      done(tooLarge || source.truncated ? new AppError('file_too_large') : null);
    },
  });
  // The request stream breaking off (no closing boundary, a broken part) is a malformed body.
  let sourceError: unknown = null;
  source.on('error', (error) => {
    sourceError = multipartError(error);
    counted.destroy(sourceError as Error);
  });
  counted.write(head);
  source.pipe(counted);

  const objectKey = originalKey(opts.keyPrefix, sniffed);
  const contentType = MIME_BY_KIND[sniffed];
  try {
    await opts.objectStore.put(objectKey, counted, { contentType });
  } catch (error) {
    // Nothing half-written stays behind.
    await opts.objectStore.delete(objectKey).catch(() => undefined);
    throw sourceError ?? error;
  }
  if (size === 0) throw new AppError('empty_file');
  return {
    kind: sniffed,
    contentType,
    filename: cleanFilename(file.filename, sniffed),
    sizeBytes: size,
    sha256: hash.digest('hex'),
    objectKey,
  };
}

export function newReportId(): string {
  return randomUUID();
}

/** Detail of a 400 for a multipart limit hit, by @fastify/multipart error code. */
const FORM_LIMITS: Record<string, string> = {
  FST_FILES_LIMIT: 'malformed upload: send exactly one file part, named "file"',
  FST_FIELDS_LIMIT: `malformed upload: at most ${UPLOAD_FORM_LIMITS.fields} text fields`,
  FST_PARTS_LIMIT: `malformed upload: at most ${UPLOAD_FORM_LIMITS.parts} parts`,
};

/**
 * A multipart body that cannot be read (no or a wrong boundary, no closing
 * boundary, a broken part header, a limit of the form) is the caller's mistake:
 * 400 `bad_request` saying what is wrong. Catalogue errors (413, 415) and
 * anything with a status of its own pass through.
 */
export function multipartError(error: unknown): unknown {
  if (isAppError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && FORM_LIMITS[code])
    return new AppError('bad_request', FORM_LIMITS[code]);
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status !== 500) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AppError('bad_request', `malformed multipart body: ${message}`, { cause: error });
}

/**
 * Reads a multipart upload form: exactly one file part, named `file`, goes to
 * `store` (while the request streams), text fields are collected and must be
 * storable text. 415 when the body is not multipart, 400 for a malformed body,
 * a second file part or a field that cannot be stored, 400 `missing_file` when no
 * file part came. Whatever refuses the form after the file was stored hands it
 * to `discard` first: a refused upload leaves nothing behind (docs/adr/096).
 */
export async function readUploadForm<T>(
  request: FastifyRequest,
  store: (file: MultipartFile) => Promise<T>,
  discard: (stored: T) => Promise<void>,
): Promise<{ upload: T; fields: Record<string, unknown> }> {
  if (!request.isMultipart()) {
    throw new AppError(
      'unsupported_media_type',
      'unsupported media type: send multipart/form-data',
    );
  }
  let stored: { value: T } | null = null;
  const fields: Record<string, unknown> = {};
  try {
    let parts: AsyncIterator<Multipart>;
    try {
      parts = request.parts()[Symbol.asyncIterator]();
    } catch (error) {
      throw multipartError(error);
    }
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (error) {
        throw multipartError(error);
      }
      if (next.done) break;
      const part = next.value;
      const nameProblem = textProblem(part.fieldname);
      if (nameProblem) {
        if (part.type === 'file') part.file.resume();
        throw new AppError('bad_request', `a multipart field name ${nameProblem}`);
      }
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || stored) {
          part.file.resume();
          throw new AppError('bad_request', FORM_LIMITS.FST_FILES_LIMIT);
        }
        stored = { value: await store(part) };
      } else {
        if (typeof part.value === 'string') {
          const problem = textProblem(part.value);
          if (problem) throw new AppError('bad_request', `${part.fieldname}: text ${problem}`);
        }
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (stored) await discard(stored.value).catch(() => undefined);
    throw error;
  }
  if (!stored) throw new AppError('missing_file');
  return { upload: stored.value, fields };
}
