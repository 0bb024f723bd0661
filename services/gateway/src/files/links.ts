import { randomBytes } from 'node:crypto';
import type { Clock, Config, Logger, ObjectStore } from '@reports/platform';
import { localFileUrl } from './signing.js';

/** An expiring link to a stored object, for a browser to fetch without credentials. */
export interface SignedLink {
  url: string;
  expiresAt: Date;
}

/**
 * Hands out expiring links to objects, never a public bucket: an S3 presigned
 * GET for the S3 backend, a link to the gateway's own `/files/...` route (HMAC
 * of key and expiry) for the local directory backend (docs/adr/018).
 */
export interface FileLinks {
  readonly secret: Buffer;
  signedUrl(key: string, ttlSeconds: number): Promise<SignedLink>;
}

/**
 * The file-link key: FILE_URL_SECRET, or a random one for this process (links
 * then die with the process, and replicas cannot check each other's links).
 */
export function fileUrlSecret(config: Config, logger: Logger): Buffer {
  if (config.FILE_URL_SECRET) return Buffer.from(config.FILE_URL_SECRET, 'utf8');
  logger.warn(
    'FILE_URL_SECRET is unset: file links are signed with a random per-process key; set it when running several gateways',
  );
  return randomBytes(32);
}

export function createFileLinks(opts: {
  objectStore: ObjectStore;
  /** Base URL people reach this gateway at (PUBLIC_URL). */
  publicUrl: string;
  secret: Buffer;
  clock: Clock;
}): FileLinks {
  const now = () => opts.clock.nowMs();
  return {
    secret: opts.secret,
    async signedUrl(key, ttlSeconds) {
      const expiresSeconds = Math.floor(now() / 1000) + ttlSeconds;
      const expiresAt = new Date(expiresSeconds * 1000);
      if (opts.objectStore.presignedGetUrl) {
        return { url: await opts.objectStore.presignedGetUrl(key, ttlSeconds), expiresAt };
      }
      return { url: localFileUrl(opts.publicUrl, opts.secret, key, expiresSeconds), expiresAt };
    },
  };
}
