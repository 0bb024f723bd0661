import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import type { BucketItem } from 'minio';
import {
  DEFAULT_CONTENT_TYPE,
  ObjectNotFoundError,
  ObjectTooLargeError,
  compareObjectKeys,
  errorCode,
  readStreamToBuffer,
  validateObjectKey,
  validateObjectPrefix,
} from './objectStore.js';
import type { ObjectBody, ObjectInfo, ObjectStore } from './objectStore.js';

/** S3's minimum size of every multipart part but the last. */
export const MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;
/** S3's maximum number of parts in one multipart upload. */
const MAX_PARTS = 10_000;

export interface S3ObjectStoreOptions {
  bucket: string;
  /** e.g. `http://127.0.0.1:9000`; defaults to AWS (`https://s3.amazonaws.com`). */
  endpoint?: string;
  accessKey?: string;
  secretKey?: string;
  region?: string;
  /**
   * Size of the parts a stream is cut into (and the most `put` buffers in memory); streams up to
   * this size go up in one PUT. At least 5 MiB; defaults to 5 MiB, which caps a streamed object at
   * 10,000 parts, about 48.8 GiB.
   */
  partSizeBytes?: number;
}

/** GET answers a missing key with NoSuchKey; HEAD has no body, so minio reports NotFound. */
function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

/**
 * Cuts a stream into parts of exactly `partSize` bytes (the last may be shorter). Errors of the
 * source surface from `next()` unchanged; ending iteration early destroys a `Readable` source.
 */
async function* cutIntoParts(
  body: NodeJS.ReadableStream | Readable,
  partSize: number,
): AsyncGenerator<Buffer, void, undefined> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of body) {
    let buf: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    while (pendingBytes + buf.length >= partSize) {
      const take = partSize - pendingBytes;
      pending.push(buf.subarray(0, take));
      yield Buffer.concat(pending, partSize);
      pending = [];
      pendingBytes = 0;
      buf = buf.subarray(take);
    }
    if (buf.length > 0) {
      pending.push(buf);
      pendingBytes += buf.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/**
 * Object store over an S3-compatible service (AWS S3, MinIO, s3rver) through the `minio` client,
 * with path-style addressing so that local endpoints work without DNS tricks.
 *
 * Streams are uploaded by this class rather than by `Client.putObject`: with a stream of unknown
 * length minio 8 buffers parts of ~550 MB, first lists in-progress uploads (which s3rver does not
 * implement), and hangs if the source stream errors. Here a stream that fits in one part goes up in
 * a single PUT, a longer one as a multipart upload that is completed only after the source ended
 * cleanly, so readers never see a partial object.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly bucket: string;
  private readonly region: string;
  private readonly partSize: number;
  private readonly client: Client;

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.region = options.region ?? 'us-east-1';
    this.partSize = options.partSizeBytes ?? MIN_PART_SIZE_BYTES;
    if (!Number.isInteger(this.partSize) || this.partSize < MIN_PART_SIZE_BYTES) {
      throw new Error(`S3 part size must be an integer of at least ${MIN_PART_SIZE_BYTES} bytes`);
    }
    const endpoint = new URL(options.endpoint ?? 'https://s3.amazonaws.com');
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
      throw new Error(
        `S3 endpoint must be an http(s) URL, got ${JSON.stringify(options.endpoint)}`,
      );
    }
    this.client = new Client({
      // URL keeps IPv6 literals bracketed; minio wants the bare address.
      endPoint: endpoint.hostname.replace(/^\[(.*)\]$/, '$1'),
      ...(endpoint.port === '' ? {} : { port: Number(endpoint.port) }),
      useSSL: endpoint.protocol === 'https:',
      ...(options.accessKey === undefined ? {} : { accessKey: options.accessKey }),
      ...(options.secretKey === undefined ? {} : { secretKey: options.secretKey }),
      region: this.region,
      pathStyle: true,
    });
  }

  async ensureReady(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      // Another process may have created it between the check and the create.
      if (await this.client.bucketExists(this.bucket)) return;
      throw err;
    }
  }

  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) {
      throw new Error(`S3 bucket ${JSON.stringify(this.bucket)} does not exist`);
    }
  }

  async put(key: string, body: ObjectBody, opts?: { contentType?: string }): Promise<ObjectInfo> {
    validateObjectKey(key);
    const contentType = opts?.contentType ?? DEFAULT_CONTENT_TYPE;
    const headers = { 'Content-Type': contentType };
    if (Buffer.isBuffer(body)) {
      await this.client.putObject(this.bucket, key, body, body.length, headers);
      return { size: body.length, contentType };
    }

    const parts = cutIntoParts(body, this.partSize);
    try {
      const first = await parts.next();
      const firstPart = first.done ? Buffer.alloc(0) : first.value;
      const second = first.done ? first : await parts.next();
      if (second.done) {
        await this.client.putObject(this.bucket, key, firstPart, firstPart.length, headers);
        return { size: firstPart.length, contentType };
      }

      const uploadId = await this.client.initiateNewMultipartUpload(this.bucket, key, headers);
      try {
        const etags: { part: number; etag: string }[] = [];
        let size = 0;
        const upload = async (part: Buffer): Promise<void> => {
          const partNumber = etags.length + 1;
          if (partNumber > MAX_PARTS) throw new ObjectTooLargeError(key, MAX_PARTS * this.partSize);
          etags.push({
            part: partNumber,
            etag: await this.uploadPart(key, uploadId, partNumber, part),
          });
          size += part.length;
        };
        await upload(firstPart);
        await upload(second.value);
        for await (const part of parts) await upload(part);
        await this.client.completeMultipartUpload(this.bucket, key, uploadId, etags);
        return { size, contentType };
      } catch (err) {
        await this.abortQuietly(key, uploadId);
        throw err;
      }
    } finally {
      // Stops (and destroys) the source if we bailed out before reading it to the end.
      await parts.return(undefined);
    }
  }

  async get(key: string): Promise<Readable> {
    validateObjectKey(key);
    try {
      return await this.client.getObject(this.bucket, key);
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(key, { cause: err });
      throw err;
    }
  }

  async getBuffer(key: string, opts?: { maxBytes?: number }): Promise<Buffer> {
    // Streams with a running count rather than trusting Content-Length, and stops the download as
    // soon as the limit is passed.
    return readStreamToBuffer(await this.get(key), key, opts?.maxBytes);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    validateObjectKey(key);
    try {
      const st = await this.client.statObject(this.bucket, key);
      const contentType: unknown = st.metaData['content-type'];
      return { size: st.size, contentType: typeof contentType === 'string' ? contentType : null };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    validateObjectKey(key);
    try {
      // S3 answers 204 for absent keys too; the catch covers servers that say NoSuchKey.
      await this.client.removeObject(this.bucket, key);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    validateObjectPrefix(prefix);
    const keys: string[] = [];
    const items = this.client.listObjectsV2(this.bucket, prefix, true) as AsyncIterable<BucketItem>;
    for await (const item of items) {
      if (item.name !== undefined) keys.push(item.name);
    }
    return keys.sort(compareObjectKeys);
  }

  /**
   * A presigned GET URL for `key`, valid for `ttlSeconds` (1 s up to S3's 7 days). No request is
   * made. S3 only: the local backend has no URL of its own, so the gateway signs links to itself
   * for it instead (docs/adr/018).
   */
  async presignedGetUrl(key: string, ttlSeconds: number): Promise<string> {
    validateObjectKey(key);
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > 604_800) {
      throw new RangeError(`presigned URL lifetime must be 1 to 604800 seconds, got ${ttlSeconds}`);
    }
    return this.client.presignedGetObject(this.bucket, key, ttlSeconds);
  }

  /** UploadPart; minio 8 has no public method for it, so this mirrors what its own uploader sends. */
  private async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    part: Buffer,
  ): Promise<string> {
    const response = await this.client.makeRequestAsyncOmit(
      {
        method: 'PUT',
        bucketName: this.bucket,
        objectName: key,
        query: new URLSearchParams({ partNumber: String(partNumber), uploadId }).toString(),
        headers: {
          'Content-Length': part.length,
          'Content-MD5': createHash('md5').update(part).digest('base64'),
        },
      },
      part,
    );
    const etag = response.headers.etag;
    if (!etag)
      throw new Error(`S3 returned no ETag for part ${partNumber} of ${JSON.stringify(key)}`);
    return etag.replace(/^"|"$/g, '');
  }

  /**
   * Best effort: the upload was never completed, so nothing is visible under the key either way.
   * Parts of an upload whose abort fails (s3rver does not implement abort at all) stay billable
   * until a bucket lifecycle rule (AbortIncompleteMultipartUpload) reclaims them.
   */
  private async abortQuietly(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.abortMultipartUpload(this.bucket, key, uploadId);
    } catch {
      // ignored, see above
    }
  }
}
