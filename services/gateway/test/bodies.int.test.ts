import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, operations, type Operation } from './support/routes.js';
import {
  freshIp,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

const HASH = 'bodies-admin-hash-0123456789abcdef';

let gw: TestGateway;
let alice: TestSession;
let jsonOps: Operation[];

beforeAll(async () => {
  gw = await startTestGateway({ ADMIN_HASH: HASH });
  alice = await gw.signIn('alice@example.com');
  jsonOps = operations(gw.app).filter((op) => op.jsonBody);
});
afterAll(async () => {
  await gw?.close();
});

/** The credentials a route asks for, so that the body is what gets judged. */
function auth(op: Operation): Record<string, string> {
  if (op.security.includes('adminHash')) return { 'x-admin-hash': HASH };
  if (op.security.includes('bearerAuth')) return alice.headers();
  return {};
}

function send(op: Operation, payload: string | Buffer, contentType = 'application/json') {
  return gw.app.inject({
    method: op.method as 'POST',
    url: fillPath(op.path),
    headers: { ...auth(op), 'content-type': contentType },
    payload,
    remoteAddress: freshIp(),
  });
}

describe('request bodies on every JSON route', () => {
  it('finds the JSON routes', () => {
    expect(jsonOps.map((o) => o.key)).toEqual(
      expect.arrayContaining([
        'POST /auth/magic-link',
        'PUT /admin/providers/{provider_id}',
        'POST /admin/migrate/preauth',
        'POST /admin/migrate/reverse-claim',
      ]),
    );
  });

  it('answers 400 for a body that is not JSON', async () => {
    for (const op of jsonOps) {
      for (const payload of ['{"a":', 'not json', '{"a":1}}', '\u0000']) {
        const res = await send(op, payload);
        expect([op.key, payload, res.statusCode]).toEqual([op.key, payload, 400]);
        expect(res.json()).toMatchObject({ code: 'bad_request' });
      }
    }
  });

  it('answers 400 body_too_large for a body over 1 MiB', async () => {
    const big = Buffer.from(JSON.stringify({ query: 'x'.repeat(1024 * 1024 + 10) }));
    for (const op of jsonOps) {
      const res = await send(op, big);
      expect([op.key, res.statusCode]).toEqual([op.key, 400]);
      expect(res.json()).toEqual({
        code: 'body_too_large',
        detail: 'the request body is larger than 1 MiB',
      });
    }
  });

  it('answers 422 with the failing fields for JSON of the wrong shape or types', async () => {
    const wrong = [
      '[]',
      '"text"',
      '42',
      'null',
      '{}',
      JSON.stringify({
        email: 42,
        query: ['x'],
        top_k: 'many',
        scope: 'folder',
        tenant_id: 'not-a-uuid',
        provider: 'skynet',
        model: 7,
        refresh_token: false,
        message: {},
        report_id: 12,
      }),
    ];
    for (const op of jsonOps) {
      for (const payload of wrong) {
        const res = await send(op, payload);
        expect([op.key, payload.slice(0, 20), res.statusCode]).toEqual([
          op.key,
          payload.slice(0, 20),
          422,
        ]);
        expect(res.json()).toMatchObject({ code: 'validation_failed' });
      }
    }
  });

  it('answers 415 for another content type, and never 500', async () => {
    for (const op of jsonOps) {
      const res = await send(op, 'email=a@b.c', 'application/x-www-form-urlencoded');
      expect([op.key, res.statusCode]).toEqual([op.key, 415]);
    }
  });
});
