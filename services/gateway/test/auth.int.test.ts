import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type LightMyRequestResponse,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { pino, type Logger } from 'pino';
import { loadConfig, manualClock, systemClock, type Clock, type Config } from '@reports/platform';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { registerErrorHandling } from '../src/errors/errorHandler.js';
import { authPlugin } from '../src/auth/plugin.js';
import { loadIssuerKeys } from '../src/auth/keys.js';
import { secretDigest } from '../src/auth/issuer.js';
import { currentUser } from '../src/auth/types.js';

const PUBLIC_URL = 'http://gateway.test';
const EXTERNAL_ISSUER = 'https://idp.example.test/auth/v1';

/** The app the way buildApp assembles it, reduced to what auth needs. */
async function makeApp(
  db: TestDatabase,
  config: Config,
  logger: Logger = pino({ level: 'silent' }),
  clock: Clock = systemClock,
): Promise<FastifyInstance> {
  // pino's Logger is narrower than FastifyBaseLogger; widen it so the instance is a plain FastifyInstance.
  const loggerInstance: FastifyBaseLogger = logger;
  const app = Fastify({ loggerInstance }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await app.register(rateLimit, {
    global: true,
    max: 60,
    timeWindow: '1 minute',
    keyGenerator: (r) => r.ip,
  });
  await app.register(authPlugin, { config, pool: db.pool, publicUrl: PUBLIC_URL, clock });
  // Routes of other plugins use the decorator both ways.
  app.get('/test/whoami', { preHandler: app.authenticate }, async (request) => {
    const { claims: _claims, access_token: _token, ...user } = currentUser(request);
    return user;
  });
  app.get('/test/on-request', { onRequest: app.authenticate }, async (request) => ({
    id: currentUser(request).id,
  }));
  await app.ready();
  return app;
}

function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

function expect401(response: LightMyRequestResponse, detail?: string): void {
  expect(response.statusCode).toBe(401);
  const body = response.json<{ code: string; detail: string }>();
  expect(body.code).toBe('unauthorized');
  expect(typeof body.detail).toBe('string');
  if (detail !== undefined) expect(body.detail).toBe(detail);
}

describe('JWT verification against an external identity provider (remote JWKS)', () => {
  let db: TestDatabase;
  let server: Server;
  let jwksRequests = 0;
  let jwksUrl: string;
  let app: FastifyInstance;
  let rsa: { privateKey: CryptoKey; publicKey: CryptoKey };
  let ec: { privateKey: CryptoKey; publicKey: CryptoKey };
  let stranger: { privateKey: CryptoKey; publicKey: CryptoKey };
  let config: Config;

  const now = () => Math.floor(Date.now() / 1000);

  interface Claims {
    [claim: string]: unknown;
  }

  function claims(overrides: Claims = {}): Claims {
    const all: Claims = {
      sub: randomUUID(),
      aud: 'authenticated',
      iss: EXTERNAL_ISSUER,
      iat: now(),
      exp: now() + 3600,
      email: 'grace@example.com',
      role: 'authenticated',
      personal_tenant_id: randomUUID(),
      ...overrides,
    };
    for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
    return all;
  }

  function sign(payload: Claims, alg: 'RS256' | 'ES256' = 'RS256', kid?: string): Promise<string> {
    const key = alg === 'RS256' ? rsa.privateKey : ec.privateKey;
    return new SignJWT(payload)
      .setProtectedHeader({ alg, kid: kid ?? (alg === 'RS256' ? 'rsa-1' : 'ec-1'), typ: 'JWT' })
      .sign(key);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    rsa = await generateKeyPair('RS256', { extractable: true });
    ec = await generateKeyPair('ES256');
    stranger = await generateKeyPair('RS256');
    const keys: JWK[] = [
      { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
    ];
    server = createServer((request, response) => {
      if (request.url === '/jwks.json') {
        jwksRequests += 1;
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ keys }));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    config = loadConfig({ AUTH_JWKS_URL: jwksUrl, AUTH_ISSUER: EXTERNAL_ISSUER });
    app = await makeApp(db, config);
  });

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server?.close(resolve));
    await db?.drop();
  });

  it('accepts a valid RS256 token and /me answers from its claims', async () => {
    const c = claims();
    const response = await app.inject({
      method: 'GET',
      url: '/me',
      headers: bearer(await sign(c, 'RS256')),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: c.sub,
      email: 'grace@example.com',
      personal_tenant_id: c.personal_tenant_id,
      active_tenant_id: c.personal_tenant_id,
      display_name: 'grace',
    });
  });

  /**
   * Makes the token's user a member of `tenant` (a tenant named in `active_tenant_id` that the
   * caller does not belong to is outside their scope: 404).
   */
  async function joinTenant(user: string, personalTenant: string, tenant: string): Promise<void> {
    await db.pool.query(
      `INSERT INTO tenants (id, name, kind) VALUES ($1, 'p', 'personal'), ($2, 't', 'team')`,
      [personalTenant, tenant],
    );
    await db.pool.query(
      `INSERT INTO user_profiles (id, email, display_name, personal_tenant_id, active_tenant_id)
       VALUES ($1, NULL, 'user', $2, $3)`,
      [user, personalTenant, tenant],
    );
    await db.pool.query(`INSERT INTO memberships (tenant_id, user_id) VALUES ($1, $2)`, [
      tenant,
      user,
    ]);
  }

  it('accepts a valid ES256 token and /me answers from its claims', async () => {
    const c = claims({ active_tenant_id: randomUUID(), email: undefined });
    const response = await app.inject({
      method: 'GET',
      url: '/me',
      headers: bearer(await sign(c, 'ES256')),
    });
    expect(response.statusCode).toBe(404);
    await joinTenant(c.sub as string, c.personal_tenant_id as string, c.active_tenant_id as string);
    const member = await app.inject({
      method: 'GET',
      url: '/me',
      headers: bearer(await sign(c, 'ES256')),
    });
    expect(member.statusCode).toBe(200);
    expect(member.json()).toEqual({
      id: c.sub,
      email: null,
      personal_tenant_id: c.personal_tenant_id,
      active_tenant_id: c.active_tenant_id,
      display_name: 'user',
    });
  });

  it('answers /me from user_profiles when the user exists there', async () => {
    const tenant = randomUUID();
    const user = randomUUID();
    await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 'x', 'personal')`, [
      tenant,
    ]);
    await db.pool.query(
      `INSERT INTO user_profiles (id, email, display_name, personal_tenant_id) VALUES ($1, 'stored@example.com', 'Stored Name', $2)`,
      [user, tenant],
    );
    const token = await sign(
      claims({ sub: user, personal_tenant_id: tenant, email: 'claimed@example.com' }),
    );
    const response = await app.inject({ method: 'GET', url: '/me', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user,
      email: 'stored@example.com',
      personal_tenant_id: tenant,
      active_tenant_id: tenant,
      display_name: 'Stored Name',
    });
  });

  it('uses active_tenant_id as the effective tenant and falls back to personal_tenant_id when it is absent', async () => {
    const personal = randomUUID();
    const active = randomUUID();
    const sub = randomUUID();
    await joinTenant(sub, personal, active);
    const withActive = await app.inject({
      method: 'GET',
      url: '/test/whoami',
      headers: bearer(
        await sign(claims({ sub, personal_tenant_id: personal, active_tenant_id: active })),
      ),
    });
    expect(withActive.statusCode).toBe(200);
    expect(withActive.json()).toMatchObject({
      tenant_id: active,
      personal_tenant_id: personal,
      active_tenant_id: active,
    });

    const without = await app.inject({
      method: 'GET',
      url: '/test/whoami',
      headers: bearer(await sign(claims({ sub, personal_tenant_id: personal }), 'ES256')),
    });
    expect(without.statusCode).toBe(200);
    expect(without.json()).toMatchObject({
      tenant_id: personal,
      personal_tenant_id: personal,
      active_tenant_id: null,
    });
  });

  it('sets request.user when used as an onRequest hook too', async () => {
    const c = claims();
    const ok = await app.inject({
      method: 'GET',
      url: '/test/on-request',
      headers: bearer(await sign(c)),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: c.sub });
    expect401(await app.inject({ method: 'GET', url: '/test/on-request' }), 'token missing');
  });

  it('answers 401 token missing without an Authorization header', async () => {
    expect401(await app.inject({ method: 'GET', url: '/me' }), 'token missing');
  });

  it('answers 401 token missing for a scheme other than Bearer', async () => {
    const token = await sign(claims());
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: { authorization: `Basic ${token}` } }),
      'token missing',
    );
    // The scheme itself is case-insensitive.
    const lower = await app.inject({
      method: 'GET',
      url: '/me',
      headers: { authorization: `bearer ${token}` },
    });
    expect(lower.statusCode).toBe(200);
  });

  it('answers 401 for an unsigned token (alg none)', async () => {
    const token = new UnsecuredJWT(claims()).encode();
    expect401(await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }));
  });

  it('answers 401 for an HS256 token signed with the RSA public key as the secret', async () => {
    const secret = new TextEncoder().encode(await exportSPKI(rsa.publicKey));
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' })
      .sign(secret);
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'unsupported token algorithm',
    );
  });

  it('answers 401 for a token whose kid is not in the key set', async () => {
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'RS256', kid: 'rotated-away' })
      .sign(stranger.privateKey);
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'unknown signing key',
    );
  });

  it('answers 401 for a token signed by another key under a known kid', async () => {
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'RS256', kid: 'rsa-1' })
      .sign(stranger.privateKey);
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'invalid token signature',
    );
  });

  it('answers 401 for a wrong audience', async () => {
    const token = await sign(claims({ aud: 'someone-else' }));
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'invalid token audience',
    );
  });

  it('answers 401 for a wrong issuer when AUTH_ISSUER is set', async () => {
    const token = await sign(claims({ iss: 'https://evil.example.test' }), 'ES256');
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'invalid token issuer',
    );
  });

  it('answers 401 token expired for an expired token', async () => {
    const token = await sign(claims({ iat: now() - 7200, exp: now() - 3600 }));
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'token expired',
    );
  });

  it('answers 401 for a token issued in the future', async () => {
    const token = await sign(claims({ iat: now() + 600, exp: now() + 4200 }));
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'token issued in the future',
    );
  });

  it('answers 401 for a token without sub', async () => {
    const token = await sign(claims({ sub: undefined }));
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'invalid token claims',
    );
  });

  it('answers 401 for a token without personal_tenant_id', async () => {
    const token = await sign(claims({ personal_tenant_id: undefined }), 'ES256');
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'invalid token claims',
    );
  });

  it('answers 401 for a token whose sub is not a uuid', async () => {
    const token = await sign(claims({ sub: 'user-42' }));
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(token) }),
      'invalid token claims',
    );
  });

  it('answers 401 for a tampered payload that keeps the original signature', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const token = await sign(claims(), alg);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const forged = { ...decodeJwt(token), personal_tenant_id: randomUUID() };
      expect(Buffer.from(payload, 'base64url').toString()).not.toBe(JSON.stringify(forged));
      const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
      expect401(
        await app.inject({ method: 'GET', url: '/me', headers: bearer(tampered) }),
        'invalid token signature',
      );
    }
  });

  it('fetches the JWKS once for many verifications (key cache)', async () => {
    const fresh = await makeApp(db, config);
    try {
      const before = jwksRequests;
      for (let i = 0; i < 25; i += 1) {
        const response = await fresh.inject({
          method: 'GET',
          url: '/test/whoami',
          headers: bearer(await sign(claims(), i % 2 === 0 ? 'RS256' : 'ES256')),
        });
        expect(response.statusCode).toBe(200);
      }
      expect(jwksRequests - before).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('answers 401 (never 500) when the JWKS cannot be fetched', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await makeApp(
      db,
      loadConfig({
        AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`,
        AUTH_ISSUER: EXTERNAL_ISSUER,
      }),
    );
    try {
      const response = await unreachable.inject({
        method: 'GET',
        url: '/me',
        headers: bearer(await sign(claims())),
      });
      expect401(response, 'signing keys unavailable');
    } finally {
      await unreachable.close();
    }
  });

  it('does not expose the built-in issuer routes when AUTH_JWKS_URL is set', async () => {
    const response = await app.inject({ method: 'GET', url: '/auth/jwks.json' });
    expect(response.statusCode).toBe(404);
    const link = await app.inject({
      method: 'POST',
      url: '/auth/magic-link',
      payload: { email: 'a@example.com' },
    });
    expect(link.statusCode).toBe(404);
  });
});

describe('built-in issuer (magic link, ES256, refresh rotation)', () => {
  let db: TestDatabase;
  let app: FastifyInstance;
  const logLines: string[] = [];
  let client = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    app = await makeApp(db, loadConfig({}), pino({ level: 'info' }, sink));
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  /** Each sign-in from its own address, so the 5/minute limit on magic links never interferes. */
  function nextAddress(): string {
    client += 1;
    return `10.20.${Math.floor(client / 250)}.${(client % 250) + 1}`;
  }

  /** Requests a link for `email` and returns the path of the link the log shows. */
  async function requestLink(email: string): Promise<string> {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/magic-link',
      payload: { email },
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ sent: true });
    const wanted = `magic link for ${email.toLowerCase()}`;
    const line = logLines
      .map((l) => JSON.parse(l) as { msg?: string; magic_link?: string; level: number })
      .findLast((entry) => entry.msg === wanted);
    expect(line?.level).toBe(30);
    expect(line?.magic_link).toMatch(
      /^http:\/\/gateway\.test\/auth\/confirm\?token_hash=[A-Za-z0-9_-]{43}&type=magiclink$/,
    );
    const url = new URL(line!.magic_link!);
    return `${url.pathname}${url.search}`;
  }

  interface Tokens {
    access_token: string;
    refresh_token: string;
    token_type: string;
    expires_in: number;
    user: {
      id: string;
      email: string;
      personal_tenant_id: string;
      active_tenant_id: string;
      display_name: string;
    };
  }

  async function signIn(email: string): Promise<Tokens> {
    const response = await app.inject({ method: 'GET', url: await requestLink(email) });
    expect(response.statusCode).toBe(200);
    return response.json<Tokens>();
  }

  async function countRows(sql: string, params: unknown[]): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${sql}`,
      params,
    );
    return rows[0]!.n;
  }

  it('signs in end to end: the logged link confirms into an ES256 token pair and /me answers the new profile', async () => {
    const tokens = await signIn('Ada.Lovelace@Example.com');
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.user).toMatchObject({
      email: 'ada.lovelace@example.com',
      display_name: 'ada.lovelace',
    });
    expect(tokens.user.active_tenant_id).toBe(tokens.user.personal_tenant_id);

    const header = decodeProtectedHeader(tokens.access_token);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toEqual(expect.any(String));
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      sub: tokens.user.id,
      aud: 'authenticated',
      iss: `${PUBLIC_URL}/auth`,
      email: 'ada.lovelace@example.com',
      role: 'authenticated',
      personal_tenant_id: tokens.user.personal_tenant_id,
      active_tenant_id: tokens.user.personal_tenant_id,
    });
    expect(claims.exp! - claims.iat!).toBe(3600);

    const me = await app.inject({
      method: 'GET',
      url: '/me',
      headers: bearer(tokens.access_token),
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(tokens.user);
  });

  it('stores only digests of links and refresh tokens', async () => {
    const path = await requestLink('digest@example.com');
    const raw = new URL(path, PUBLIC_URL).searchParams.get('token_hash')!;
    expect(await countRows('auth_magic_links WHERE digest = $1', [raw])).toBe(0);
    expect(await countRows('auth_magic_links WHERE digest = $1', [secretDigest(raw)])).toBe(1);
    const tokens = (await app.inject({ method: 'GET', url: path })).json<Tokens>();
    expect(await countRows('auth_refresh_tokens WHERE digest = $1', [tokens.refresh_token])).toBe(
      0,
    );
    expect(
      await countRows('auth_refresh_tokens WHERE digest = $1', [
        secretDigest(tokens.refresh_token),
      ]),
    ).toBe(1);
  });

  it('creates exactly one personal tenant and one owner membership on first sign-in', async () => {
    const tenantsBefore = await countRows('tenants', []);
    const membershipsBefore = await countRows('memberships', []);
    const { user } = await signIn('bob@example.com');
    expect(await countRows('tenants', [])).toBe(tenantsBefore + 1);
    expect(await countRows('memberships', [])).toBe(membershipsBefore + 1);
    expect(
      await countRows(`tenants WHERE id = $1 AND kind = 'personal' AND name = 'bob@example.com'`, [
        user.personal_tenant_id,
      ]),
    ).toBe(1);
    expect(
      await countRows(`memberships WHERE tenant_id = $1 AND user_id = $2 AND role = 'owner'`, [
        user.personal_tenant_id,
        user.id,
      ]),
    ).toBe(1);
    expect(await countRows(`user_profiles WHERE id = $1 AND display_name = 'bob'`, [user.id])).toBe(
      1,
    );
  });

  it('creates no tenant or membership on a second sign-in with the same email', async () => {
    const first = await signIn('carol@example.com');
    const tenants = await countRows('tenants', []);
    const memberships = await countRows('memberships', []);
    const profiles = await countRows('user_profiles', []);
    const second = await signIn('CAROL@example.com');
    expect(second.user).toEqual(first.user);
    expect(await countRows('tenants', [])).toBe(tenants);
    expect(await countRows('memberships', [])).toBe(memberships);
    expect(await countRows('user_profiles', [])).toBe(profiles);
  });

  it('rotates the refresh token: the new pair works and the old refresh token then answers 401', async () => {
    const first = await signIn('dave@example.com');
    const rotated = await app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { refresh_token: first.refresh_token },
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const second = rotated.json<Tokens>();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.user).toEqual(first.user);
    const me = await app.inject({
      method: 'GET',
      url: '/me',
      headers: bearer(second.access_token),
    });
    expect(me.statusCode).toBe(200);

    expect401(
      await app.inject({
        method: 'POST',
        url: '/auth/token',
        payload: { refresh_token: first.refresh_token },
      }),
      'invalid refresh token',
    );
    const third = await app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { refresh_token: second.refresh_token },
    });
    expect(third.statusCode).toBe(200);
  });

  it('answers 401 for an unknown or expired refresh token', async () => {
    expect401(
      await app.inject({
        method: 'POST',
        url: '/auth/token',
        payload: { refresh_token: 'x'.repeat(43) },
      }),
      'invalid refresh token',
    );
    const { user } = await signIn('erin@example.com');
    const stale = 'stale-refresh-token-0123456789abcdef';
    await db.pool.query(
      `INSERT INTO auth_refresh_tokens (digest, user_id, expires_at) VALUES ($1, $2, now() - interval '1 minute')`,
      [secretDigest(stale), user.id],
    );
    expect401(
      await app.inject({ method: 'POST', url: '/auth/token', payload: { refresh_token: stale } }),
      'invalid refresh token',
    );
  });

  it('answers 401 when a link is used a second time', async () => {
    const path = await requestLink('frank@example.com');
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    expect401(await app.inject({ method: 'GET', url: path }), 'invalid or expired link');
  });

  it('answers 401 for an expired link', async () => {
    const token = 'expired-link-token-0123456789abcdef';
    await db.pool.query(
      `INSERT INTO auth_magic_links (digest, email, expires_at) VALUES ($1, 'gina@example.com', now() - interval '1 second')`,
      [secretDigest(token)],
    );
    expect401(
      await app.inject({ method: 'GET', url: `/auth/confirm?token_hash=${token}&type=magiclink` }),
      'invalid or expired link',
    );
    expect(await countRows(`user_profiles WHERE email = 'gina@example.com'`, [])).toBe(0);
  });

  it('answers 401 for an unknown link', async () => {
    expect401(
      await app.inject({
        method: 'GET',
        url: `/auth/confirm?token_hash=${'a'.repeat(43)}&type=magiclink`,
      }),
      'invalid or expired link',
    );
  });

  it('answers 401 for its own token once expired, and for a token of another issuer', async () => {
    const { access_token } = await signIn('hana@example.com');
    const { kid } = decodeProtectedHeader(access_token);
    const { rows } = await db.pool.query<{ private_jwk: JWK }>(
      'SELECT private_jwk FROM auth_signing_keys WHERE kid = $1',
      [kid],
    );
    const { importJWK } = await import('jose');
    const key = await importJWK(rows[0]!.private_jwk, 'ES256');
    const base = decodeJwt(access_token);
    const t = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...base, iat: t - 7200, exp: t - 3600 })
      .setProtectedHeader({ alg: 'ES256', kid: kid! })
      .sign(key);
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(expired) }),
      'token expired',
    );
    const foreign = await new SignJWT({ ...base, iss: 'https://elsewhere.test' })
      .setProtectedHeader({ alg: 'ES256', kid: kid! })
      .sign(key);
    expect401(
      await app.inject({ method: 'GET', url: '/me', headers: bearer(foreign) }),
      'invalid token issuer',
    );
  });

  it('refuses its own token once the clock passes its expiry (an injected clock, no forged token)', async () => {
    const clock = manualClock(Date.now());
    const clocked = await makeApp(db, loadConfig({}), pino({ level: 'silent' }), clock);
    try {
      const link = await requestLink('clocked@example.com');
      const confirmed = await clocked.inject({ method: 'GET', url: link });
      expect(confirmed.statusCode).toBe(200);
      const { access_token, expires_in } = confirmed.json<Tokens>();
      clock.advance((expires_in - 1) * 1000);
      const before = await clocked.inject({
        method: 'GET',
        url: '/me',
        headers: bearer(access_token),
      });
      expect(before.statusCode).toBe(200);
      clock.advance(2000);
      expect401(
        await clocked.inject({ method: 'GET', url: '/me', headers: bearer(access_token) }),
        'token expired',
      );
    } finally {
      await clocked.close();
    }
  });

  it('serves /auth/jwks.json without any private key member, and its keys verify issued tokens', async () => {
    const response = await app.inject({ method: 'GET', url: '/auth/jwks.json' });
    expect(response.statusCode).toBe(200);
    const jwks = response.json<{ keys: JWK[] }>();
    expect(jwks.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of jwks.keys) {
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])
        expect(key).not.toHaveProperty(member);
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    }
    const { access_token } = await signIn('ivan@example.com');
    const verified = await jwtVerify(access_token, createLocalJWKSet(jwks), {
      audience: 'authenticated',
    });
    expect(verified.protectedHeader.kid).toBe(jwks.keys[0]!.kid);
  });

  it('limits magic-link requests to 5 per minute per client', async () => {
    const remoteAddress = '10.99.0.1';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/auth/magic-link',
        payload: { email: `limit${i}@example.com` },
        remoteAddress,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('answers 422 for a magic-link request without a valid email', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/magic-link',
      payload: { email: 'not-an-email' },
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('keeps one signing key across restarts and concurrent start-ups', async () => {
    const kids = new Set<string>();
    const fresh = await createTestDatabase();
    try {
      const loaded = await Promise.all([
        loadIssuerKeys(fresh.pool),
        loadIssuerKeys(fresh.pool),
        loadIssuerKeys(fresh.pool),
      ]);
      for (const keys of loaded) kids.add(keys.signing.kid);
      expect(kids.size).toBe(1);
      const { rows } = await fresh.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM auth_signing_keys',
      );
      expect(rows[0]!.n).toBe(1);
      expect((await loadIssuerKeys(fresh.pool)).signing.kid).toBe([...kids][0]);
    } finally {
      await fresh.drop();
    }
    const restarted = await makeApp(db, loadConfig({}));
    try {
      const before = (await app.inject({ method: 'GET', url: '/auth/jwks.json' })).json<{
        keys: JWK[];
      }>();
      const after = (await restarted.inject({ method: 'GET', url: '/auth/jwks.json' })).json<{
        keys: JWK[];
      }>();
      expect(after).toEqual(before);
    } finally {
      await restarted.close();
    }
  });
});
