import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { startTestGateway, type TestGateway } from './support/gateway.js';

/**
 * The effective tenant rule with an external identity provider (ADR 031, 097):
 * the token's `active_tenant_id` scopes every route, and a tenant other than the
 * caller's personal one needs a membership row: otherwise nothing in it exists
 * for the caller (404), on every route.
 */
const ISSUER = 'https://idp.example.test/auth/v1';

let jwks: Server;
let key: { privateKey: CryptoKey; publicKey: CryptoKey };
let gw: TestGateway;

beforeAll(async () => {
  key = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  jwks = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  gw = await startTestGateway({
    AUTH_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
    AUTH_ISSUER: ISSUER,
  });
});
afterAll(async () => {
  await gw?.close();
  await new Promise((r) => jwks?.close(r));
});

function token(claims: { sub: string; personal: string; active?: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    personal_tenant_id: claims.personal,
    ...(claims.active ? { active_tenant_id: claims.active } : {}),
    email: `${claims.sub.slice(0, 8)}@example.com`,
    role: 'authenticated',
  })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setSubject(claims.sub)
    .setAudience('authenticated')
    .setIssuer(ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(key.privateKey);
}

async function teamReport(): Promise<{ tenant: string; report: string }> {
  const tenant = randomUUID();
  const report = randomUUID();
  await gw.db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 'team', 'team')`, [
    tenant,
  ]);
  await gw.db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key, status)
     VALUES ($1, $2, 't.html', 'text/html', 'html', 1, $3, 'tenants/x/reports/y/original/source.html', 'ready')`,
    [report, tenant, 'd'.repeat(64)],
  );
  return { tenant, report };
}

/** A user with a personal tenant, member of `tenant`. */
async function member(tenant: string): Promise<{ user: string; personal: string }> {
  const user = randomUUID();
  const personal = randomUUID();
  await gw.db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 'p', 'personal')`, [
    personal,
  ]);
  await gw.db.pool.query(
    `INSERT INTO user_profiles (id, email, display_name, personal_tenant_id) VALUES ($1, NULL, 'member', $2)`,
    [user, personal],
  );
  await gw.db.pool.query(`INSERT INTO memberships (tenant_id, user_id) VALUES ($1, $2)`, [
    tenant,
    user,
  ]);
  return { user, personal };
}

function as(t: string, method: 'GET' | 'DELETE', url: string) {
  return gw.app.inject({ method, url, headers: { authorization: `Bearer ${t}` } });
}

describe('the effective tenant of a token', () => {
  it('reads the active tenant’s reports for a member, and only them', async () => {
    const { tenant, report } = await teamReport();
    const { user, personal } = await member(tenant);
    const active = await token({ sub: user, personal, active: tenant });
    expect((await as(active, 'GET', `/reports/${report}`)).statusCode).toBe(200);
    expect(
      (await as(active, 'GET', '/reports')).json<Array<{ id: string }>>().map((r) => r.id),
    ).toEqual([report]);

    // Without active_tenant_id the personal tenant is the scope: the team's report does not exist.
    const personalOnly = await token({ sub: user, personal });
    expect((await as(personalOnly, 'GET', `/reports/${report}`)).statusCode).toBe(404);
    expect((await as(personalOnly, 'GET', '/reports')).json()).toEqual([]);
  });

  it('serves nothing of a tenant the caller is not a member of, however validly signed the token naming it', async () => {
    const { tenant, report } = await teamReport();
    const t = await token({ sub: randomUUID(), personal: randomUUID(), active: tenant });
    for (const url of [`/reports/${report}`, '/reports', `/ingest/${report}/status`, '/me']) {
      const res = await as(t, 'GET', url);
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.json()).toMatchObject({ code: 'not_found' });
      expect(res.body).not.toContain(report);
    }
  });

  it('deletes in a team tenant only for a member: otherwise the report does not exist for the caller', async () => {
    const { tenant, report } = await teamReport();
    const user = randomUUID();
    const t = await token({ sub: user, personal: randomUUID(), active: tenant });
    const refused = await as(t, 'DELETE', `/ingest/${report}`);
    expect(refused.statusCode).toBe(404);
    expect((await gw.db.pool.query('SELECT 1 FROM reports WHERE id = $1', [report])).rowCount).toBe(
      1,
    );

    const personal = randomUUID();
    await gw.db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 'p', 'personal')`, [
      personal,
    ]);
    await gw.db.pool.query(
      `INSERT INTO user_profiles (id, email, display_name, personal_tenant_id) VALUES ($1, NULL, 'member', $2)`,
      [user, personal],
    );
    await gw.db.pool.query(`INSERT INTO memberships (tenant_id, user_id) VALUES ($1, $2)`, [
      tenant,
      user,
    ]);
    const member = await token({ sub: user, personal, active: tenant });
    expect((await as(member, 'DELETE', `/ingest/${report}`)).statusCode).toBe(200);
  });
});
