import { createHmac, timingSafeEqual } from 'node:crypto';
import { TENANT_DATA_PREFIX } from '@reports/platform';

/** Only objects under this prefix (tenant data) are ever served by a signed link. */
export const SERVABLE_PREFIX = TENANT_DATA_PREFIX;

/**
 * The signature of a local file link: lowercase hex HMAC-SHA256, with the
 * gateway's file key, of `<object key>\n<expiry as unix seconds>`. The newline
 * cannot occur in a valid key, so no two (key, expiry) pairs sign alike. Pure.
 */
export function fileSignature(secret: Buffer, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('hex');
}

/** The object key as a URL path: each segment percent-encoded, slashes kept. */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** `<base>/files/<key>?expires=<unix s>&sig=<hex>`. Pure. */
export function localFileUrl(base: string, secret: Buffer, key: string, expires: number): string {
  const url = new URL(`files/${encodeKeyPath(key)}`, base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('sig', fileSignature(secret, key, expires));
  return url.toString();
}

export type FileLinkCheck = 'ok' | 'expired' | 'invalid';

/**
 * Checks a presented link: `expires` must be unix seconds not yet past, `sig`
 * 64 hex digits equal (constant-time) to the signature of key and expiry.
 * The signature is checked before the expiry, so an expired link tells an
 * attacker nothing about a forged one. Pure.
 */
export function checkFileLink(
  secret: Buffer,
  key: string,
  expires: unknown,
  sig: unknown,
  nowSeconds: number,
): FileLinkCheck {
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return 'invalid';
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/i.test(sig)) return 'invalid';
  const expected = Buffer.from(fileSignature(secret, key, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'invalid';
  return Number(expires) < nowSeconds ? 'expired' : 'ok';
}
