import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { z } from 'zod';
import type { WebConfig } from './config.js';
import { createGatewayClient, GatewayError, type GatewayClient } from './gateway.js';
import {
  ACCESS_COOKIE,
  needsRefresh,
  REFRESH_COOKIE,
  REFRESH_COOKIE_MAX_AGE,
  secureCookies,
  type TokenPair,
} from './session.js';

export interface WebAppOptions {
  config: WebConfig;
  /** Directory of the built client (index.html, embed.html, assets/). */
  staticDir: string;
  gateway?: GatewayClient;
  /**
   * The wall clock session expiry is judged by; the shape of the backend's `Clock`
   * (docs/adr/125-one-clock.md). The web server depends on no backend package, so its default
   * is its own system clock.
   */
  clock?: { nowSeconds(): number };
}

const systemClock = { nowSeconds: () => Math.floor(Date.now() / 1000) };

/** What a page gets from the server, as JSON in `<script id="boot">`. */
export interface Boot {
  gatewayUrl: string;
  session: { accessToken: string; expiresAt: number | null; email: string | null } | null;
  embedOrigins?: string[];
}

interface SessionState {
  accessToken: string;
  email: string | null;
}

const ConfirmQuery = z.object({
  token_hash: z.string().min(1).max(512),
  type: z.literal('magiclink'),
});

/** JSON that can sit inside a `<script>` element. Pure. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

function jwtEmail(token: string): string | null {
  try {
    const claims = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as { email?: unknown };
    return typeof claims.email === 'string' ? claims.email : null;
  } catch {
    return null;
  }
}

export async function buildWebApp(options: WebAppOptions): Promise<FastifyInstance> {
  const { config, staticDir } = options;
  const gateway = options.gateway ?? createGatewayClient(config.GATEWAY_URL);
  const publicGateway = config.GATEWAY_PUBLIC_URL ?? config.GATEWAY_URL;
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.cookie'] },
    trustProxy: 'loopback',
  });
  await app.register(cookie);
  // The sign-out form posts an empty urlencoded body; nothing else posts forms here.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  );

  const [appHtml, embedHtml] = await Promise.all([
    readFile(path.join(staticDir, 'index.html'), 'utf8'),
    readFile(path.join(staticDir, 'embed.html'), 'utf8'),
  ]);
  await app.register(fastifyStatic, {
    root: path.join(staticDir, 'assets'),
    prefix: '/assets/',
    index: false,
    wildcard: true,
    immutable: true,
    maxAge: '365d',
  });

  const gatewayOrigin = new URL(publicGateway).origin;
  const csp = (frameAncestors: string): string =>
    [
      "default-src 'self'",
      `connect-src 'self' ${gatewayOrigin}`,
      "img-src 'self' data: blob: http: https:",
      "style-src 'self' 'unsafe-inline'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      `frame-ancestors ${frameAncestors}`,
    ].join('; ');

  function page(reply: FastifyReply, html: string, boot: Boot, frameAncestors = "'none'") {
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', csp(frameAncestors))
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .send(
        html.replace(
          '<script id="boot" type="application/json"></script>',
          `<script id="boot" type="application/json">${scriptJson(boot)}</script>`,
        ),
      );
  }

  function setSession(request: FastifyRequest, reply: FastifyReply, tokens: TokenPair): void {
    const secure = secureCookies(request.hostname, config.COOKIE_SECURE);
    const base = { httpOnly: true, secure, sameSite: 'lax' as const, path: '/' };
    reply.setCookie(ACCESS_COOKIE, tokens.access_token, { ...base, maxAge: tokens.expires_in });
    reply.setCookie(REFRESH_COOKIE, tokens.refresh_token, {
      ...base,
      maxAge: REFRESH_COOKIE_MAX_AGE,
    });
  }

  function clearSession(reply: FastifyReply): void {
    reply.clearCookie(ACCESS_COOKIE, { path: '/' });
    reply.clearCookie(REFRESH_COOKIE, { path: '/' });
  }

  /**
   * The session of this request, refreshed passively when the access token is missing
   * or about to expire (the refresh token rotates). Null when there is none.
   */
  async function session(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<SessionState | null> {
    const access = request.cookies[ACCESS_COOKIE];
    const refresh = request.cookies[REFRESH_COOKIE];
    const now = (options.clock ?? systemClock).nowSeconds();
    if (access && !needsRefresh(access, now))
      return { accessToken: access, email: jwtEmail(access) };
    if (!refresh) return null;
    try {
      const tokens = await gateway.refresh(refresh);
      setSession(request, reply, tokens);
      return { accessToken: tokens.access_token, email: tokens.user.email };
    } catch (error) {
      if (error instanceof GatewayError && error.status === 401) {
        clearSession(reply);
        return null;
      }
      request.log.warn({ err: error }, 'session refresh failed');
      // The gateway is unreachable: a still valid access token keeps working.
      if (access && !needsRefresh(access, now - 120 + 1)) {
        return { accessToken: access, email: jwtEmail(access) };
      }
      return null;
    }
  }

  const boot = (state: SessionState | null): Boot => ({
    gatewayUrl: publicGateway,
    session: state
      ? {
          accessToken: state.accessToken,
          expiresAt: (() => {
            try {
              const claims = JSON.parse(
                Buffer.from(state.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8'),
              ) as { exp?: unknown };
              return typeof claims.exp === 'number' ? claims.exp : null;
            } catch {
              return null;
            }
          })(),
          email: state.email,
        }
      : null,
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => ({ status: 'ok' }));

  app.get('/login', async (request, reply) => {
    const state = await session(request, reply);
    if (state) return reply.redirect('/', 303);
    return page(reply, appHtml, boot(null));
  });

  // The sign-in link lands here: verify it on the server, set the cookies, and move on
  // to a URL without the token.
  app.get('/auth/confirm', async (request, reply) => {
    reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
    const parsed = ConfirmQuery.safeParse(request.query);
    if (!parsed.success) return reply.redirect('/login?error=link_invalid', 303);
    try {
      const tokens = await gateway.confirm(parsed.data.token_hash);
      setSession(request, reply, tokens);
      return reply.redirect('/', 303);
    } catch (error) {
      if (error instanceof GatewayError && error.status === 401)
        return reply.redirect('/login?error=link_invalid', 303);
      request.log.error({ err: error }, 'sign-in confirmation failed');
      return reply.redirect('/login?error=unavailable', 303);
    }
  });

  // The browser's way to a fresh access token (its own one expired mid-page).
  app.post('/auth/session', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const state = await session(request, reply);
    if (!state) return reply.status(401).send({ code: 'unauthorized', detail: 'signed out' });
    return boot(state).session;
  });

  app.post('/auth/signout', async (_request, reply) => {
    clearSession(reply);
    return reply.redirect('/login', 303);
  });

  const appPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const state = await session(request, reply);
    if (!state) return reply.redirect('/login', 303);
    return page(reply, appHtml, boot(state));
  };
  app.get('/', appPage);
  app.get('/reports/:id', appPage);

  // Embed mode: the token arrives by postMessage, never through the server or a URL.
  app.get('/embed/reports/:id', async (_request, reply) => {
    const ancestors = config.EMBED_ALLOWED_ORIGINS;
    return page(
      reply,
      embedHtml,
      { gatewayUrl: publicGateway, session: null, embedOrigins: ancestors },
      ancestors.length > 0 ? ancestors.join(' ') : "'none'",
    );
  });

  return app;
}

/** The operations port: `/healthz` and `/readyz` for the probes. */
export async function buildOpsApp(): Promise<FastifyInstance> {
  const ops = Fastify({ logger: false });
  ops.get('/healthz', async () => ({ status: 'ok' }));
  ops.get('/readyz', async () => ({ status: 'ok' }));
  return ops;
}
