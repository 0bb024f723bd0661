import { systemClock, type Clock } from '@reports/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { importSPKI, jwtVerify, type CryptoKey } from 'jose';
import { z } from 'zod';
import { AppError, ErrorBody, TokenResponse } from '@reports/contracts';
import { LIMITS } from '../limits/rateLimit.js';
import type { Issuer } from './issuer.js';

/** Longest lifetime (exp - iat) of a partner token the exchange accepts (spec: 15 minutes). */
export const PARTNER_JWT_MAX_LIFETIME_SECONDS = 15 * 60;
/** Clock difference between the partner and us that is forgiven. */
const CLOCK_TOLERANCE_SECONDS = 30;

export const PartnerExchangeBody = z.object({ jwt: z.string().min(1).max(8192) });

export interface PartnerJwtSettings {
  publicKeyPem: string;
  audience: string;
  issuer: string;
  /** The time `exp`, `nbf` and `iat` are checked against. Default the system clock. */
  clock?: Clock;
}

export interface PartnerVerifier {
  verify(jwt: string): Promise<{ issuer: string; subject: string; email: string | null }>;
}

/** PEM text from the environment: real newlines, or `\n` escapes as one line. Pure. */
export function pemFromEnv(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

/**
 * RS256 with the configured public key, audience and issuer; exp, iat, sub, aud and iss
 * required; at most 15 minutes between iat and exp. Every failure is the same 401.
 */
export async function createPartnerVerifier(
  settings: PartnerJwtSettings,
): Promise<PartnerVerifier> {
  let key: CryptoKey;
  try {
    key = await importSPKI(pemFromEnv(settings.publicKeyPem).trim(), 'RS256');
  } catch (error) {
    throw new Error(
      `PARTNER_JWT_PUBLIC_KEY: not an RSA public key in PEM (SPKI) form (${String(error)})`,
    );
  }
  const invalid = () => new AppError('unauthorized', 'invalid partner token');
  const clock = settings.clock ?? systemClock;
  return {
    async verify(jwt) {
      let payload;
      try {
        ({ payload } = await jwtVerify(jwt, key, {
          algorithms: ['RS256'],
          audience: settings.audience,
          issuer: settings.issuer,
          requiredClaims: ['exp', 'iat', 'sub', 'aud', 'iss'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: clock.now(),
        }));
      } catch {
        throw invalid();
      }
      const { exp, iat, sub, iss } = payload;
      if (typeof exp !== 'number' || typeof iat !== 'number' || !sub || !iss) throw invalid();
      if (exp - iat > PARTNER_JWT_MAX_LIFETIME_SECONDS) throw invalid();
      if (iat > clock.nowMs() / 1000 + CLOCK_TOLERANCE_SECONDS) throw invalid();
      const email = typeof payload.email === 'string' && payload.email ? payload.email : null;
      return { issuer: iss, subject: sub, email };
    },
  };
}

/**
 * `POST /auth/partner-exchange`: a partner application's signed token for a session of
 * ours (docs/adr/101). 503 `partner_jwt_disabled` when no key is configured or the
 * built-in issuer (which mints the session) is off.
 */
export function registerPartnerExchangeRoute(
  parent: FastifyInstance,
  verifier: PartnerVerifier | null,
  issuer: Issuer | undefined,
): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/auth/partner-exchange',
    {
      config: { rateLimit: LIMITS.partnerExchange },
      schema: {
        tags: ['auth'],
        summary: "Exchange a partner application's RS256 token for an access and a refresh token",
        body: PartnerExchangeBody,
        response: { 200: TokenResponse, 401: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!verifier || !issuer) throw new AppError('partner_jwt_disabled');
      const identity = await verifier.verify(request.body.jwt);
      const tokens = await issuer.partnerSession(identity);
      return reply.header('cache-control', 'no-store').send(tokens);
    },
  );
}
