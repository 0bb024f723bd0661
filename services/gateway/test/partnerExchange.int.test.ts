import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { freshIp, startTestGateway, type TestGateway } from './support/gateway.js';

const AUDIENCE = 'reports-partner-exchange';
const ISSUER = 'https://partner.example.test';

let privateKey: CryptoKey;
let otherKey: CryptoKey;
let gw: TestGateway;
let disabled: TestGateway;

interface Claims {
  sub?: string;
  email?: string;
  aud?: string;
  iss?: string;
  iat?: number;
  exp?: number;
}

/** A partner token; every claim can be replaced or left out (undefined). */
async function partnerJwt(
  overrides: Partial<Claims> & { omit?: Array<keyof Claims>; key?: CryptoKey; alg?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Claims = {
    sub: 'partner-user-1',
    email: 'buyer@partner.example.test',
    aud: AUDIENCE,
    iss: ISSUER,
    iat: now,
    exp: now + 600,
    ...overrides,
  };
  for (const k of overrides.omit ?? []) delete claims[k];
  const { omit: _o, key: _k, alg: _a, ...rest } = claims as Claims & Record<string, unknown>;
  return new SignJWT(rest as Record<string, unknown>)
    .setProtectedHeader({ alg: overrides.alg ?? 'RS256' })
    .sign(overrides.key ?? privateKey);
}

async function exchange(target: TestGateway, jwt: unknown) {
  return target.app.inject({
    method: 'POST',
    url: '/auth/partner-exchange',
    payload: { jwt },
    remoteAddress: freshIp(),
  });
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const pem = await exportSPKI(pair.publicKey);
  gw = await startTestGateway({
    // One line with \n escapes, as an environment variable often carries a PEM.
    PARTNER_JWT_PUBLIC_KEY: pem.replace(/\n/g, '\\n'),
    PARTNER_JWT_AUDIENCE: AUDIENCE,
    PARTNER_JWT_ISSUER: ISSUER,
  });
  disabled = await startTestGateway();
});

afterAll(async () => {
  await gw?.close();
  await disabled?.close();
});

describe('POST /auth/partner-exchange', () => {
  it('exchanges a valid partner token for a token pair that the API accepts', async () => {
    const res = await exchange(gw, await partnerJwt());
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access_token: string; refresh_token: string; user: { id: string } }>();
    expect(body.access_token).toMatch(/^ey/);
    expect(body.refresh_token.length).toBeGreaterThan(16);
    const me = await gw.app.inject({
      method: 'GET',
      url: '/me',
      headers: { authorization: `Bearer ${body.access_token}` },
      remoteAddress: freshIp(),
    });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ id: string; display_name: string }>()).toMatchObject({
      id: body.user.id,
      display_name: 'buyer',
    });
    const refreshed = await gw.app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { refresh_token: body.refresh_token },
      remoteAddress: freshIp(),
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('finds the same user for the same partner subject and a new one, with its own personal tenant, for another', async () => {
    const a1 = (await exchange(gw, await partnerJwt({ sub: 'subject-a' }))).json<{
      user: { id: string; personal_tenant_id: string };
    }>();
    const a2 = (await exchange(gw, await partnerJwt({ sub: 'subject-a' }))).json<{
      user: { id: string; personal_tenant_id: string };
    }>();
    const b = (await exchange(gw, await partnerJwt({ sub: 'subject-b' }))).json<{
      user: { id: string; personal_tenant_id: string };
    }>();
    expect(a2.user.id).toBe(a1.user.id);
    expect(b.user.id).not.toBe(a1.user.id);
    expect(b.user.personal_tenant_id).not.toBe(a1.user.personal_tenant_id);
    const { rows } = await gw.db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM partner_identities WHERE subject = 'subject-a'`,
    );
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it('never takes over the account of a user whose email the partner token names', async () => {
    const own = await gw.signIn('owner@example.test');
    const res = await exchange(
      gw,
      await partnerJwt({ sub: 'attacker', email: 'owner@example.test' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: { id: string } }>().user.id).not.toBe(own.user.id);
  });

  it('answers 401 for every bad token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      await partnerJwt({ key: otherKey }),
      await partnerJwt({ aud: 'someone-else' }),
      await partnerJwt({ iss: 'https://evil.example.test' }),
      await partnerJwt({ iat: now - 3600, exp: now - 1800 }),
      await partnerJwt({ iat: now, exp: now + 16 * 60 }),
      await partnerJwt({ iat: now + 3600, exp: now + 3700 }),
      await partnerJwt({ omit: ['exp'] }),
      await partnerJwt({ omit: ['iat'] }),
      await partnerJwt({ omit: ['sub'] }),
      await partnerJwt({ omit: ['aud'] }),
      await partnerJwt({ omit: ['iss'] }),
      'not.a.jwt',
      'garbage',
    ];
    // HS256 signed with the public key's text: the classic algorithm confusion.
    const hs = await new SignJWT({ sub: 'x', aud: AUDIENCE, iss: ISSUER })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('secret-secret-secret-secret-secret'));
    bad.push(hs);
    for (const jwt of bad) {
      const res = await exchange(gw, jwt);
      expect(res.statusCode, jwt).toBe(401);
      expect(res.json<{ detail: string }>().detail).toBe('invalid partner token');
    }
  });

  it('answers 422 for a body without a token', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/auth/partner-exchange',
      payload: {},
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(422);
  });

  it('answers 503 partner_jwt_disabled when no public key is configured', async () => {
    const res = await exchange(disabled, await partnerJwt());
    expect(res.statusCode).toBe(503);
    expect(res.json<{ code: string }>().code).toBe('partner_jwt_disabled');
  });

  it('refuses to start with a key but without audience and issuer, naming the variables', async () => {
    const pem = await exportSPKI((await generateKeyPair('RS256', { extractable: true })).publicKey);
    await expect(startTestGateway({ PARTNER_JWT_PUBLIC_KEY: pem })).rejects.toThrow(
      /PARTNER_JWT_AUDIENCE/,
    );
  });
});
