import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit';
import { AppError, isAppError } from '@reports/contracts';
import { builtinIssuerEnabled, type Clock, type Config, type Pool } from '@reports/platform';
import { createIssuer, type Issuer } from './issuer.js';
import { loadIssuerKeys } from './keys.js';
import { registerMeRoute } from './me.js';
import { registerIssuerRoutes } from './routes.js';
import { createSmtpMailer } from './mailer.js';
import { createPartnerVerifier, registerPartnerExchangeRoute } from './partnerExchange.js';
import {
  bearerToken,
  createTokenVerifier,
  KEYS_UNAVAILABLE,
  type TokenVerifier,
} from './verifier.js';
import type {} from './types.js';
import { isTenantMember } from '../reports/store.js';

export interface AuthPluginOptions {
  config: Config;
  pool: Pool;
  /** Base URL people reach the gateway at (sign-in links, default issuer id). */
  publicUrl: string;
  clock: Clock;
}

/** `iss` of the built-in issuer's tokens unless AUTH_ISSUER names one. */
export function builtinIssuerId(config: Config, publicUrl: string): string {
  return config.AUTH_ISSUER ?? `${publicUrl.replace(/\/+$/, '')}/auth`;
}

async function auth(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  const { config, pool, clock } = options;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const audience = config.AUTH_AUDIENCE;

  let issuer: Issuer | undefined;
  if (builtinIssuerEnabled(config)) {
    issuer = createIssuer({
      pool,
      keys: await loadIssuerKeys(pool),
      audience,
      issuer: builtinIssuerId(config, publicUrl),
      publicUrl,
      siteUrl: config.AUTH_SITE_URL,
      clock,
    });
  }

  let verifier: TokenVerifier;
  if (config.AUTH_JWKS_URL !== undefined) {
    verifier = createTokenVerifier({
      jwks: config.AUTH_JWKS_URL,
      issuer: config.AUTH_ISSUER,
      audience,
      maxLifetimeSeconds: config.AUTH_MAX_TOKEN_LIFETIME_SECONDS,
      clock,
    });
  } else if (issuer) {
    // The issuer's own keys, in-process: no HTTP round trip to our own JWKS.
    verifier = createTokenVerifier({
      jwks: issuer.keys.keySet,
      issuer: builtinIssuerId(config, publicUrl),
      audience,
      maxLifetimeSeconds: config.AUTH_MAX_TOKEN_LIFETIME_SECONDS,
      clock,
    });
  } else {
    throw new Error(
      'AUTH_JWKS_URL: required when the built-in issuer is off (AUTH_BUILTIN_ISSUER=0)',
    );
  }

  app.decorateRequest('user', null);
  app.decorate('authenticate', async function authenticate(request: FastifyRequest): Promise<void> {
    // Already verified in this request (the bearer-first hook, then a route's own preHandler).
    if (request.user) return;
    try {
      const user = await verifier.verify(bearerToken(request.headers.authorization));
      // The effective tenant stays the token's (active, else personal), but a tenant the caller
      // is not a member of is outside their scope: nothing in it exists for them (ADR 097).
      if (!(await isTenantMember(pool, user))) throw new AppError('not_found', 'tenant not found');
      request.user = user;
    } catch (error) {
      // Not the caller's fault: worth an operator's attention.
      if (isAppError(error) && error.detail === KEYS_UNAVAILABLE) {
        request.log.warn({ err: error.cause }, 'JWT signing keys unavailable');
      }
      throw error;
    }
  });

  if (issuer) {
    const mailer = config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM) : null;
    if (mailer) app.addHook('onClose', async () => mailer.close());
    registerIssuerRoutes(app, issuer, mailer);
  }
  const partnerKey = config.PARTNER_JWT_PUBLIC_KEY;
  if (partnerKey && (!config.PARTNER_JWT_AUDIENCE || !config.PARTNER_JWT_ISSUER)) {
    throw new Error(
      'PARTNER_JWT_AUDIENCE, PARTNER_JWT_ISSUER: required when PARTNER_JWT_PUBLIC_KEY is set',
    );
  }
  const partnerVerifier =
    partnerKey && config.PARTNER_JWT_AUDIENCE && config.PARTNER_JWT_ISSUER
      ? await createPartnerVerifier({
          publicKeyPem: partnerKey,
          audience: config.PARTNER_JWT_AUDIENCE,
          issuer: config.PARTNER_JWT_ISSUER,
          clock,
        })
      : null;
  registerPartnerExchangeRoute(app, partnerVerifier, issuer);
  registerMeRoute(app, pool);
}

/**
 * JWT authentication: `request.user`, the `app.authenticate` preHandler,
 * GET /me, and (when enabled) the built-in magic-link issuer under /auth.
 */
export const authPlugin = fp(auth, { name: 'auth', fastify: '5.x' });
