import { z } from 'zod';

export const ACCESS_COOKIE = 'web_at';
export const REFRESH_COOKIE = 'web_rt';
/** Refreshed when it has less than this left, so a page never starts with a dying token. */
export const REFRESH_MARGIN_SECONDS = 120;
export const REFRESH_COOKIE_MAX_AGE = 30 * 24 * 3600;

export const TokenPair = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().int(),
  user: z.object({
    id: z.string(),
    email: z.string().nullable(),
    display_name: z.string(),
  }),
});
export type TokenPair = z.infer<typeof TokenPair>;

/** `exp` of a JWT, unverified (the gateway verifies; this only decides when to refresh). Pure. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (claims && typeof claims === 'object' && 'exp' in claims && typeof claims.exp === 'number')
      return claims.exp;
  } catch {
    // not a JWT
  }
  return null;
}

/** True when the token is missing, unreadable or expires within the margin. Pure. */
export function needsRefresh(token: string | undefined, nowSeconds: number): boolean {
  if (!token) return true;
  const exp = tokenExpiry(token);
  return exp === null || exp - nowSeconds < REFRESH_MARGIN_SECONDS;
}

/** Secure cookies everywhere except a loopback host (local use over plain HTTP). Pure. */
export function secureCookies(hostname: string, forced: '1' | '0' | undefined): boolean {
  if (forced !== undefined) return forced === '1';
  const host = hostname.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return !['localhost', '127.0.0.1', '::1'].includes(host);
}
