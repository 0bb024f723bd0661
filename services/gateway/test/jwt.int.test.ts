import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SignJWT,
  UnsecuredJWT,
  decodeJwt,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import { fillPath, operations, type Operation } from './support/routes.js';
import {
  freshIp,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

/**
 * The JWT security cases of the issue, on every route that takes a bearer
 * token (auth.int.test.ts checks the verifier itself on one route). Tokens are
 * signed with the built-in issuer's own key, read from its table, so that each
 * case differs from a valid token in exactly one way.
 */
let gw: TestGateway;
let alice: TestSession;
let jwtOps: Operation[];
let issuerKey: CryptoKey;
let kid: string;
let publicJwk: JWK;
let good: Record<string, unknown>;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  gw = await startTestGateway();
  alice = await gw.signIn('alice@example.com');
  jwtOps = operations(gw.app).filter((op) => op.security.includes('bearerAuth'));
  const { rows } = await gw.db.pool.query<{ kid: string; private_jwk: JWK; public_jwk: JWK }>(
    'SELECT kid, private_jwk, public_jwk FROM auth_signing_keys ORDER BY created_at LIMIT 1',
  );
  kid = rows[0]!.kid;
  publicJwk = rows[0]!.public_jwk;
  issuerKey = (await importJWK(rows[0]!.private_jwk, 'ES256')) as CryptoKey;
  good = decodeJwt(alice.token);
});
afterAll(async () => {
  await gw?.close();
});

function sign(
  claims: Record<string, unknown>,
  key: CryptoKey = issuerKey,
  keyId = kid,
): Promise<string> {
  const body = { ...claims };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return new SignJWT(body).setProtectedHeader({ alg: 'ES256', kid: keyId, typ: 'JWT' }).sign(key);
}

async function forged(): Promise<Array<[string, string]>> {
  const stranger = await generateKeyPair('ES256');
  const [header, payload, signature] = alice.token.split('.') as [string, string, string];
  const tampered = Buffer.from(
    JSON.stringify({ ...good, personal_tenant_id: randomUUID(), active_tenant_id: randomUUID() }),
  ).toString('base64url');
  const hsSecret = new TextEncoder().encode(JSON.stringify(publicJwk));
  return [
    ['alg none', new UnsecuredJWT(good).encode()],
    [
      'HS256 signed with the public key',
      await new SignJWT(good).setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' }).sign(hsSecret),
    ],
    ['unknown kid', await sign(good, stranger.privateKey, 'no-such-key')],
    ['known kid, another key', await sign(good, stranger.privateKey)],
    ['wrong aud', await sign({ ...good, aud: 'service_role' })],
    ['wrong iss', await sign({ ...good, iss: 'https://evil.example.test/auth' })],
    ['expired', await sign({ ...good, iat: now() - 7200, exp: now() - 3600 })],
    ['iat in the future', await sign({ ...good, iat: now() + 3600, exp: now() + 7200 })],
    ['no sub', await sign({ ...good, sub: undefined })],
    ['no personal_tenant_id', await sign({ ...good, personal_tenant_id: undefined })],
    ['no exp', await sign({ ...good, exp: undefined })],
    ['tampered payload', `${header}.${tampered}.${signature}`],
    ['truncated signature', `${header}.${payload}.${signature.slice(0, 20)}`],
    ['garbage', 'not.a.jwt'],
  ];
}

function call(op: Operation, token: string) {
  return gw.app.inject({
    method: op.method as 'GET',
    url: fillPath(op.path),
    headers: { authorization: `Bearer ${token}` },
    remoteAddress: freshIp(),
  });
}

describe('forged and broken tokens on every JWT route', () => {
  it('finds the JWT routes', () => {
    expect(jwtOps.map((o) => o.key)).toEqual(
      expect.arrayContaining([
        'GET /me',
        'GET /reports',
        'GET /reports/{report_id}',
        'POST /migrate/claim',
      ]),
    );
  });

  it('still accepts a token re-signed with the issuer key unchanged (the cases below differ only as named)', async () => {
    const res = await call(
      jwtOps.find((o) => o.key === 'GET /me')!,
      await sign(good),
    );
    expect(res.statusCode).toBe(200);
  });

  it('answers 401 for every case, on every route, and never 500', async () => {
    for (const [name, token] of await forged()) {
      for (const op of jwtOps) {
        const res = await call(op, token);
        expect([name, op.key, res.statusCode]).toEqual([name, op.key, 401]);
        expect(res.json()).toMatchObject({ code: 'unauthorized' });
      }
    }
  });
});
