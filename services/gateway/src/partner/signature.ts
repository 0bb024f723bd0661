import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA-256 of a canonical string with the partner secret (spec, HMAC rule 2). */
export function partnerSignature(secret: string, canonical: string): string {
  return createHmac('sha256', secret).update(canonical, 'utf8').digest('hex');
}

/**
 * The 32 bytes of a presented `X-Partner-Signature`, or null when it is not a
 * SHA-256 in lowercase hex, as the interface writes it (missing, repeated, wrong
 * length, not hex, upper-case hex digits).
 */
export function parsePartnerSignature(header: unknown): Buffer | null {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return null;
  return Buffer.from(header, 'hex');
}

/**
 * Whether the presented signature is the canonical string's: a constant-time
 * comparison of two 32-byte digests (spec, HMAC rule 3). A malformed
 * signature never matches.
 */
export function partnerSignatureMatches(
  secret: string,
  canonical: string,
  presented: unknown,
): boolean {
  const bytes = parsePartnerSignature(presented);
  if (!bytes) return false;
  return timingSafeEqual(Buffer.from(partnerSignature(secret, canonical), 'hex'), bytes);
}
