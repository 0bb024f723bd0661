import { fileURLToPath } from 'node:url';
import { LocalDirectoryObjectStore } from './localDirectory.js';
import type { ObjectStore } from './objectStore.js';
import { S3ObjectStore } from './s3.js';

export {
  DEFAULT_CONTENT_TYPE,
  InvalidObjectKeyError,
  MAX_OBJECT_KEY_BYTES,
  ObjectNotFoundError,
  ObjectTooLargeError,
  compareObjectKeys,
  validateObjectKey,
  validateObjectPrefix,
} from './objectStore.js';
export type { ObjectBody, ObjectInfo, ObjectStore } from './objectStore.js';
export * from './keys.js';
export { LocalDirectoryObjectStore } from './localDirectory.js';
export { S3ObjectStore } from './s3.js';
export type { S3ObjectStoreOptions } from './s3.js';

/** Where objects live; mirrors the OBJECT_STORE_URL and S3_* settings. */
export interface ObjectStoreConfig {
  /** `file:///absolute/dir` for the local directory backend, `s3://bucket` for S3. */
  url: string;
  /** S3 endpoint such as `http://127.0.0.1:9000`; AWS when absent. */
  s3Endpoint?: string;
  s3AccessKey?: string;
  s3SecretKey?: string;
  s3Region?: string;
}

// S3's bucket naming rules, minus the rarer ones (no IP-address-like names, no `..`).
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Builds the object store named by `config.url`. Throws, naming OBJECT_STORE_URL, when the URL is
 * malformed or its scheme is not supported. Does no I/O: call `ensureReady()` at startup.
 */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  let url: URL;
  try {
    url = new URL(config.url);
  } catch (err) {
    throw new Error(`OBJECT_STORE_URL is not a valid URL: ${JSON.stringify(config.url)}`, {
      cause: err,
    });
  }

  switch (url.protocol) {
    case 'file:': {
      let root: string;
      try {
        root = fileURLToPath(url);
      } catch (err) {
        throw new Error(
          `OBJECT_STORE_URL must be file:///absolute/path, got ${JSON.stringify(config.url)}`,
          { cause: err },
        );
      }
      return new LocalDirectoryObjectStore(root);
    }
    case 's3:': {
      const bucket = url.hostname;
      if (
        !BUCKET_NAME.test(bucket) ||
        bucket.includes('..') ||
        (url.pathname !== '' && url.pathname !== '/')
      ) {
        throw new Error(
          `OBJECT_STORE_URL must be s3://<bucket> with a valid S3 bucket name, got ${JSON.stringify(config.url)}`,
        );
      }
      return new S3ObjectStore({
        bucket,
        endpoint: config.s3Endpoint,
        accessKey: config.s3AccessKey,
        secretKey: config.s3SecretKey,
        region: config.s3Region,
      });
    }
    default:
      throw new Error(
        `OBJECT_STORE_URL has unsupported scheme ${JSON.stringify(url.protocol)}; use file:///absolute/dir or s3://bucket`,
      );
  }
}
