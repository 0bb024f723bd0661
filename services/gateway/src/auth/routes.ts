import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConfirmQuery,
  ErrorBody,
  MagicLinkAccepted,
  MagicLinkRequest,
  RefreshRequest,
  TokenResponse,
} from '@reports/contracts';
import { AppError } from '@reports/contracts';
import type { Issuer } from './issuer.js';
import type { SignInMailer } from './mailer.js';
import { LIMITS } from '../limits/rateLimit.js';

/**
 * A public JWK as served on /auth/jwks.json. Only these members are listed, and
 * the serializer drops every other one, so a private member can never be sent.
 */
export const PublicJwk = z.object({
  kty: z.string(),
  kid: z.string(),
  alg: z.string().optional(),
  use: z.string().optional(),
  crv: z.string().optional(),
  x: z.string().optional(),
  y: z.string().optional(),
  n: z.string().optional(),
  e: z.string().optional(),
});
export const JwksResponse = z.object({ keys: z.array(PublicJwk) });

const TAGS = ['auth'];

/** Routes of the built-in issuer (local use): magic-link sign-in, refresh, public keys. */
export function registerIssuerRoutes(
  parent: FastifyInstance,
  issuer: Issuer,
  mailer: SignInMailer | null = null,
): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/auth/magic-link',
    {
      config: { rateLimit: LIMITS.magicLink },
      schema: {
        tags: TAGS,
        summary:
          'Request a one-time sign-in link (built-in issuer; sent by mail when SMTP_URL is set, else written to the log)',
        body: MagicLinkRequest,
        response: { 202: MagicLinkAccepted, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const link = await issuer.createMagicLink(email);
      if (mailer) {
        try {
          await mailer.send(email, link);
        } catch (error) {
          request.log.error({ err: error }, 'sign-in mail could not be sent');
          throw new AppError(
            'service_unavailable',
            'the sign-in mail could not be sent; try again later',
          );
        }
        request.log.info(`sign-in link mailed to ${email}`);
      } else {
        request.log.info({ magic_link: link }, `magic link for ${email}`);
      }
      return reply.status(202).send({ sent: true });
    },
  );

  app.get(
    '/auth/confirm',
    {
      schema: {
        tags: TAGS,
        summary: 'Consume a sign-in link and receive an access and a refresh token',
        querystring: ConfirmQuery,
        response: { 200: TokenResponse, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const tokens = await issuer.confirm(request.query.token_hash);
      return reply.header('cache-control', 'no-store').send(tokens);
    },
  );

  app.post(
    '/auth/token',
    {
      schema: {
        tags: TAGS,
        summary: 'Exchange a refresh token for a new token pair (the old refresh token is revoked)',
        body: RefreshRequest,
        response: { 200: TokenResponse, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const tokens = await issuer.refresh(request.body.refresh_token);
      return reply.header('cache-control', 'no-store').send(tokens);
    },
  );

  app.get(
    '/auth/jwks.json',
    {
      schema: {
        tags: TAGS,
        summary: 'Public keys of the built-in issuer',
        response: { 200: JwksResponse },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(issuer.jwks()),
  );
}
