import { systemClock, type Clock } from '@reports/platform';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { AppError } from '@reports/contracts';
import { userFromClaims } from './claims.js';
import type { AuthUser } from './types.js';

/** Signature algorithms accepted on access tokens (spec: JWT bearer, point 3). */
export const ACCEPTED_ALGORITHMS = ['RS256', 'ES256'];
/** Remote signing keys are kept this long (spec: Limits, key cache). */
export const JWKS_CACHE_MAX_AGE_MS = 3_600_000;
/** Least time between two fetches of the remote key set (an unknown `kid` triggers one). */
export const JWKS_COOLDOWN_MS = 30_000;
/** Longer tokens are refused before any parsing. */
const MAX_TOKEN_LENGTH = 16 * 1024;

export interface TokenVerifierOptions {
  /** A remote JWKS URL (fetched and cached), or a key-set function (the built-in issuer's keys). */
  jwks: string | URL | JWTVerifyGetKey;
  /** Expected `iss`; unchecked when absent. */
  issuer?: string | undefined;
  /** Expected `aud`. */
  audience: string;
  /** Longest lifetime accepted (AUTH_MAX_TOKEN_LIFETIME_SECONDS). */
  maxLifetimeSeconds?: number;
  /** The time `exp`, `nbf` and `iat` are checked against. Default the system clock. */
  clock?: Clock;
}

export interface TokenVerifier {
  /** The caller the token speaks for; throws AppError('unauthorized') on any failure. */
  verify(token: string): Promise<AuthUser>;
}

/** Detail of a 401 caused by the key set being unreachable rather than by the token. */
export const KEYS_UNAVAILABLE = 'signing keys unavailable';

/** Short, key-free reason for a failed verification. */
function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'token expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'invalid token audience';
    if (error.claim === 'iss') return 'invalid token issuer';
    return 'invalid token claims';
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return 'unsupported token algorithm';
  }
  if (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return 'unknown signing key';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'invalid token signature';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return KEYS_UNAVAILABLE;
  // Outside jose's own errors only the key fetch fails (network, HTTP status).
  if (!(error instanceof errors.JOSEError)) return KEYS_UNAVAILABLE;
  return 'invalid token';
}

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const clock = options.clock ?? systemClock;
  const keys: JWTVerifyGetKey =
    typeof options.jwks === 'function'
      ? options.jwks
      : createRemoteJWKSet(new URL(options.jwks), {
          cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
          cooldownDuration: JWKS_COOLDOWN_MS,
        });
  return {
    async verify(token) {
      if (token.length === 0) throw new AppError('unauthorized', 'token missing');
      if (token.length > MAX_TOKEN_LENGTH) throw new AppError('unauthorized', 'invalid token');
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          algorithms: ACCEPTED_ALGORITHMS,
          audience: options.audience,
          ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
          requiredClaims: ['exp', 'iat', 'sub'],
          currentDate: clock.now(),
        }));
      } catch (error) {
        throw new AppError('unauthorized', reason(error), { cause: error });
      }
      return userFromClaims(payload, token, clock.nowSeconds(), options.maxLifetimeSeconds);
    },
  };
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header; 401 'token missing' for anything else. */
export function bearerToken(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value === undefined ? null : BEARER.exec(value);
  if (!match?.[1]) throw new AppError('unauthorized', 'token missing');
  return match[1];
}
