import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/observability/logging.js';
import { startTestGateway, type TestGateway } from './support/gateway.js';

const HASH = 'LOGGED-NOWHERE-admin-hash-0123456789';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ ADMIN_HASH: HASH });
});
afterAll(async () => {
  await gw?.close();
});

describe('secrets in request URLs', () => {
  it('never writes an admin hash given as ?hash= to the log, right or wrong', async () => {
    await gw.app.inject({ method: 'GET', url: `/admin/verify?hash=${HASH}` });
    await gw.app.inject({
      method: 'GET',
      url: `/admin/cost/global?days=7&hash=${HASH.slice(0, -1)}X`,
    });
    const text = JSON.stringify(gw.logs);
    expect(text).not.toContain(HASH.slice(0, 20));
    const lines = gw.logs.filter((l) => l.msg === 'incoming request');
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual(
      expect.arrayContaining([
        '/admin/verify?hash=%5Bredacted%5D',
        '/admin/cost/global?days=7&hash=%5Bredacted%5D',
      ]),
    );
  });

  it('redacts the admin hash, one-time sign-in tokens and link signatures, and leaves other URLs alone', () => {
    expect(redactUrl('/auth/confirm?token_hash=abc&type=magiclink')).toBe(
      '/auth/confirm?token_hash=%5Bredacted%5D&type=magiclink',
    );
    expect(redactUrl('/files/tenants/x/a.png?expires=1&sig=deadbeef')).toBe(
      '/files/tenants/x/a.png?expires=1&sig=%5Bredacted%5D',
    );
    expect(redactUrl('/reports?limit=5')).toBe('/reports?limit=5');
    expect(redactUrl('/health')).toBe('/health');
  });
});
