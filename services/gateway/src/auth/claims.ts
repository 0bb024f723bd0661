import { systemClock } from '@reports/platform';
import { z } from 'zod';
import { AppError } from '@reports/contracts';
import type { AuthUser } from './types.js';

/** Tokens issued further ahead than this (clock skew allowance) are refused. */
export const MAX_FUTURE_IAT_SECONDS = 60;
/** AUTH_MAX_TOKEN_LIFETIME_SECONDS's default: one day. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;

/**
 * The claims the backend relies on (spec: JWT bearer, point 4). Other claims
 * are kept untouched in `AuthUser.claims`.
 */
export const AccessClaims = z.looseObject({
  sub: z.uuid(),
  iat: z.number(),
  exp: z.number(),
  personal_tenant_id: z.uuid(),
  active_tenant_id: z.uuid().nullish(),
  email: z.string().nullish(),
  role: z.string().min(1).default('authenticated'),
});
export type AccessClaims = z.infer<typeof AccessClaims>;

/**
 * Turns a signature-verified claim set into the caller. Throws 401 when a
 * claim the backend needs is missing or malformed, `iat` lies in the future, or
 * the token lives longer than `maxLifetimeSeconds`.
 */
export function userFromClaims(
  payload: Record<string, unknown>,
  token: string,
  now: number = systemClock.nowSeconds(),
  maxLifetimeSeconds: number = DEFAULT_MAX_TOKEN_LIFETIME_SECONDS,
): AuthUser {
  const parsed = AccessClaims.safeParse(payload);
  if (!parsed.success) throw new AppError('unauthorized', 'invalid token claims');
  const claims = parsed.data;
  if (claims.iat > now + MAX_FUTURE_IAT_SECONDS)
    throw new AppError('unauthorized', 'token issued in the future');
  // A token minted to live longer than the cap is refused whatever its signature (ADR 097).
  if (
    claims.exp - claims.iat > maxLifetimeSeconds ||
    claims.exp - now > maxLifetimeSeconds + MAX_FUTURE_IAT_SECONDS
  )
    throw new AppError('unauthorized', 'token lifetime too long');
  const active = claims.active_tenant_id ?? null;
  return {
    id: claims.sub,
    email: claims.email ?? null,
    access_token: token,
    tenant_id: active ?? claims.personal_tenant_id,
    personal_tenant_id: claims.personal_tenant_id,
    active_tenant_id: active,
    role: claims.role,
    claims: { ...payload },
  };
}
