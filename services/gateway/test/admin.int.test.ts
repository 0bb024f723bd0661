import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, operations, type Operation } from './support/routes.js';
import { freshIp, startTestGateway, type TestGateway } from './support/gateway.js';

const HASH = 'a-long-admin-hash-0123456789abcdef0123456789';
const FORBIDDEN = { code: 'forbidden', detail: 'forbidden' };
const DISABLED = { code: 'admin_disabled', detail: 'admin disabled' };

let gw: TestGateway;
let disabled: TestGateway;
let adminOps: Operation[];

beforeAll(async () => {
  gw = await startTestGateway({ ADMIN_HASH: HASH });
  disabled = await startTestGateway();
  adminOps = operations(gw.app).filter((op) => op.path.startsWith('/admin'));
});
afterAll(async () => {
  await gw?.close();
  await disabled?.close();
});

function call(
  target: TestGateway,
  op: Operation,
  opts: { header?: string; query?: string; body?: string } = {},
) {
  const url =
    fillPath(op.path) + (opts.query !== undefined ? `?hash=${encodeURIComponent(opts.query)}` : '');
  return target.app.inject({
    method: op.method as 'GET',
    url,
    headers: {
      ...(opts.header !== undefined ? { 'x-admin-hash': opts.header } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { payload: opts.body } : {}),
    remoteAddress: freshIp(),
  });
}

describe('the admin hash on every admin route', () => {
  it('covers the routes of the operations area', () => {
    expect(adminOps.map((o) => o.key)).toEqual(
      expect.arrayContaining([
        'GET /admin/verify',
        'GET /admin/feedback',
        'GET /admin/feedback/stats',
        'GET /admin/providers',
        'PUT /admin/providers/{provider_id}',
        'POST /admin/migrate/preauth',
        'GET /admin/migrate/stats',
        'POST /admin/migrate/reverse-claim',
        'GET /admin/cost/global',
        'GET /admin/cost/tenant/{tenant_id}',
      ]),
    );
    for (const op of adminOps) expect(op.security, op.key).toContain('adminHash');
  });

  it('answers 403 admin disabled when no hash is configured, whatever is presented', async () => {
    for (const op of operations(disabled.app).filter((o) => o.path.startsWith('/admin'))) {
      for (const opts of [{}, { header: HASH }, { query: HASH }, { header: 'x', body: '{' }]) {
        const res = await call(disabled, op, opts);
        expect([op.key, res.statusCode], JSON.stringify(opts)).toEqual([op.key, 403]);
        expect(res.json()).toEqual(DISABLED);
      }
    }
  });

  it('answers 403 forbidden for a missing, wrong or wrong-length hash, in the header or the query', async () => {
    const wrongSameLength = HASH.slice(0, -1) + (HASH.endsWith('x') ? 'y' : 'x');
    const cases = [
      {},
      { header: '' },
      { header: wrongSameLength },
      { header: HASH.slice(0, 8) },
      { header: HASH + HASH },
      { query: wrongSameLength },
      { query: 'short' },
      { query: '' },
      { header: 'é'.repeat(HASH.length) },
      // The header is read first: a right query does not rescue a wrong header.
      { header: wrongSameLength, query: HASH },
      // Before the body is read: a caller without the hash learns nothing from a broken body.
      { body: '{"not json' },
    ];
    for (const op of adminOps) {
      for (const opts of cases) {
        const res = await call(gw, op, opts);
        expect([op.key, JSON.stringify(opts), res.statusCode]).toEqual([
          op.key,
          JSON.stringify(opts),
          403,
        ]);
        expect(res.json()).toEqual(FORBIDDEN);
      }
    }
  });

  it('lets the right hash through, from the header or from the query when the header is absent', async () => {
    for (const op of adminOps) {
      for (const opts of [{ header: HASH }, { query: HASH }, { header: HASH, query: 'wrong' }]) {
        const res = await call(gw, op, opts);
        expect(res.statusCode, `${op.key} ${JSON.stringify(opts)}`).not.toBe(403);
        expect(res.statusCode, `${op.key} ${JSON.stringify(opts)}`).not.toBe(500);
      }
    }
  });

  it('answers GET /admin/verify { ok: true } for the right hash', async () => {
    const res = await gw.app.inject({
      method: 'GET',
      url: '/admin/verify',
      headers: { 'x-admin-hash': HASH },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const viaQuery = await gw.app.inject({ method: 'GET', url: `/admin/verify?hash=${HASH}` });
    expect(viaQuery.json()).toEqual({ ok: true });
  });

  it('guards unknown admin paths too: 403 without the hash, 404 with it', async () => {
    const without = await gw.app.inject({ method: 'GET', url: '/admin/nothing-here' });
    expect([without.statusCode, without.json()]).toEqual([403, FORBIDDEN]);
    const withHash = await gw.app.inject({
      method: 'GET',
      url: '/admin/nothing-here',
      headers: { 'x-admin-hash': HASH },
    });
    expect(withHash.statusCode).toBe(404);
  });

  it('answers 503 (never 500) when the admin service is not running', async () => {
    const res = await gw.app.inject({
      method: 'GET',
      url: '/admin/migrate/stats',
      headers: { 'x-admin-hash': HASH },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'service_unavailable',
      detail: 'the admin service is unavailable',
    });
  });

  it('answers 422 for a provider id outside its alphabet and 404 for a malformed tenant id', async () => {
    const bad = await gw.app.inject({
      method: 'PUT',
      url: '/admin/providers/Not%20Valid',
      headers: { 'x-admin-hash': HASH },
      payload: {
        tenant_id: '6f1c1c8e-0000-4000-8000-000000000001',
        provider: 'openai',
        model: 'm',
      },
    });
    expect(bad.statusCode).toBe(422);
    const tenant = await gw.app.inject({
      method: 'GET',
      url: '/admin/cost/tenant/nope',
      headers: { 'x-admin-hash': HASH },
    });
    expect(tenant.statusCode).toBe(404);
  });
});
