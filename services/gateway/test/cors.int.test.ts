import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@reports/platform';
import { startTestGateway, type TestGateway } from './support/gateway.js';

const ALLOWED = 'https://app.example.test';
const ALSO_ALLOWED = 'https://admin.example.test';
const REFUSED = 'https://evil.example.test';

let gw: TestGateway;
let closed: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ CORS_ORIGINS: `${ALLOWED}, ${ALSO_ALLOWED}` });
  closed = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  await closed?.close();
});

function preflight(target: TestGateway, origin: string, method: string, url = '/reports') {
  return target.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type, x-admin-hash',
    },
  });
}

describe('CORS from the CORS_ORIGINS allowlist', () => {
  it('answers a preflight of an allowed origin with that origin, every method the API uses, and its headers', async () => {
    for (const origin of [ALLOWED, ALSO_ALLOWED]) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await preflight(gw, origin, method);
        expect(res.statusCode).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(String(res.headers['access-control-allow-methods'])).toContain(method);
        expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain(
          'authorization',
        );
        expect(String(res.headers.vary)).toContain('Origin');
      }
    }
  });

  it('gives a refused origin no Access-Control-Allow-Origin, on preflights and on requests', async () => {
    for (const origin of [
      REFUSED,
      'null',
      `${ALLOWED}.evil.test`,
      ALLOWED.replace('https', 'http'),
    ]) {
      const pre = await preflight(gw, origin, 'DELETE');
      expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined();
      const res = await gw.app.inject({ method: 'GET', url: '/health', headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('names the allowed origin on ordinary answers, errors and 429s included, and exposes the headers clients read', async () => {
    const ok = await gw.app.inject({ method: 'GET', url: '/health', headers: { origin: ALLOWED } });
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    const unauthorized = await gw.app.inject({
      method: 'GET',
      url: '/reports',
      headers: { origin: ALLOWED },
    });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['access-control-allow-origin']).toBe(ALLOWED);
    const exposed = String(unauthorized.headers['access-control-expose-headers']);
    for (const h of [
      'X-Conversation-Id',
      'X-LLM-Model',
      'X-Chat-Mode',
      'X-Retrieval-Log-Id',
      'Retry-After',
    ])
      expect(exposed).toContain(h);
  });

  it('never answers a wildcard', async () => {
    for (const origin of [ALLOWED, REFUSED, '*']) {
      for (const target of [gw, closed]) {
        const pre = await preflight(target, origin, 'GET');
        const res = await target.app.inject({ method: 'GET', url: '/health', headers: { origin } });
        expect(pre.headers['access-control-allow-origin']).not.toBe('*');
        expect(res.headers['access-control-allow-origin']).not.toBe('*');
      }
    }
  });

  it('allows no origin at all when CORS_ORIGINS is empty', async () => {
    const pre = await preflight(closed, ALLOWED, 'GET');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await closed.app.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: ALLOWED },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a wildcard in CORS_ORIGINS at start-up, naming the variable', () => {
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: `${ALLOWED},*` })).toThrow(/CORS_ORIGINS/);
  });
});
