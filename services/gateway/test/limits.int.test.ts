import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from '@reports/test-support';
import { fillPath, operations } from './support/routes.js';
import { freshIp, startTestGateway, type TestGateway } from './support/gateway.js';

const ADMIN_HASH = 'limits-admin-hash-0123456789abcdef';

/**
 * The spec's table (Limits) per route; every other route, the admin area
 * included, has the default of 60 per minute (ADR 033). Uploads other than
 * POST /ingest (the legacy synchronous one, attachment uploads) have the upload
 * limit, each its own budget; the partner routes and the magic link have the
 * limits their features chose (not in the spec).
 */
const SPECIFIC: Record<string, { max: number; windowSeconds: number }> = {
  'POST /ingest': { max: 20, windowSeconds: 3600 },
  'POST /reports': { max: 20, windowSeconds: 3600 },
  'POST /ingest/{report_id}/uploads': { max: 20, windowSeconds: 3600 },
  'POST /reports/{report_id}/attachments/system': { max: 120, windowSeconds: 60 },
  'GET /reports/{report_id}/attachments/{attachment_id}/status': { max: 600, windowSeconds: 60 },
  'POST /retrieve': { max: 60, windowSeconds: 60 },
  'POST /chat': { max: 30, windowSeconds: 60 },
  'GET /me': { max: 60, windowSeconds: 60 },
  'GET /models': { max: 60, windowSeconds: 60 },
  'POST /migrate/claim': { max: 5, windowSeconds: 60 },
  'POST /auth/magic-link': { max: 5, windowSeconds: 60 },
  'POST /auth/partner-exchange': { max: 30, windowSeconds: 60 },
  // Not in the spec: signed figure/file links, loaded by the dozen per page (the files feature's choice).
  'GET /files/{*}': { max: 600, windowSeconds: 60 },
};
const DEFAULT = { max: 60, windowSeconds: 60 };
/** Probes and docs are not limited: a load balancer polls /health. */
const UNLIMITED = new Set(['GET /health']);

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ ADMIN_HASH });
});
afterAll(async () => {
  await gw?.close();
});

describe('rate limits per route', () => {
  it('gives every route the spec’s limit, counted before authentication', async () => {
    const seen: string[] = [];
    for (const op of operations(gw.app)) {
      const res = await gw.app.inject({
        method: op.method as 'GET',
        url: fillPath(op.path),
        remoteAddress: freshIp(),
      });
      expect(res.statusCode, op.key).not.toBe(500);
      if (UNLIMITED.has(op.key)) {
        expect(res.headers['x-ratelimit-limit'], op.key).toBeUndefined();
        continue;
      }
      const want = SPECIFIC[op.key] ?? DEFAULT;
      expect(Number(res.headers['x-ratelimit-limit']), op.key).toBe(want.max);
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset, op.key).toBeGreaterThan(want.windowSeconds / 2);
      expect(reset, op.key).toBeLessThanOrEqual(want.windowSeconds);
      seen.push(op.key);
    }
    expect(seen).toContain('POST /migrate/claim');
    expect(seen).toContain('GET /admin/verify');
  });

  it('answers the sixth claim of a minute 429 with Retry-After, even unauthenticated', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await gw.app.inject({ method: 'POST', url: '/migrate/claim', remoteAddress: ip });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json()).toMatchObject({ code: 'rate_limited' });
    // Another client still has its budget.
    const other = await gw.app.inject({
      method: 'POST',
      url: '/migrate/claim',
      remoteAddress: freshIp(),
    });
    expect(other.statusCode).toBe(401);
  });

  it('limits guesses of the admin hash like any call', async () => {
    const ip = freshIp();
    let res;
    for (let i = 0; i < 61; i++) {
      res = await gw.app.inject({
        method: 'GET',
        url: '/admin/verify',
        headers: { 'x-admin-hash': `guess-${i}` },
        remoteAddress: ip,
      });
      if (i < 60) expect(res.statusCode).toBe(403);
    }
    expect(res!.statusCode).toBe(429);
    expect(res!.headers['retry-after']).toBeDefined();
  });

  it('believes X-Forwarded-For only from a trusted proxy (loopback by default)', async () => {
    const spoofer = '10.200.0.1';
    for (let i = 0; i < 5; i++) {
      await gw.app.inject({
        method: 'POST',
        url: '/migrate/claim',
        headers: { 'x-forwarded-for': `10.201.0.${i}` },
        remoteAddress: spoofer,
      });
    }
    // Five different forwarded addresses from an untrusted peer are still one client.
    const sixth = await gw.app.inject({
      method: 'POST',
      url: '/migrate/claim',
      headers: { 'x-forwarded-for': '10.201.0.99' },
      remoteAddress: spoofer,
    });
    expect(sixth.statusCode).toBe(429);
    // Behind the trusted proxy each forwarded client counts alone.
    const viaProxy = await gw.app.inject({
      method: 'POST',
      url: '/migrate/claim',
      headers: { 'x-forwarded-for': '10.202.0.1' },
      remoteAddress: '127.0.0.1',
    });
    expect(viaProxy.statusCode).toBe(401);
  });
});

describe('limits shared by several gateway replicas (RATE_LIMIT_REDIS_URL)', () => {
  let redis: TestRedisServer;
  let a: TestGateway;
  let b: TestGateway;

  beforeAll(async () => {
    redis = await startRedisServer();
    a = await startTestGateway({ RATE_LIMIT_REDIS_URL: redis.url });
    b = await startTestGateway({ RATE_LIMIT_REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('spends one budget per client across replicas', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const gateway = i % 2 === 0 ? a : b;
      const res = await gateway.app.inject({
        method: 'POST',
        url: '/migrate/claim',
        remoteAddress: ip,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const defaultRoute = await b.app.inject({
      method: 'GET',
      url: `/reports/${randomUUID()}`,
      remoteAddress: ip,
    });
    expect(defaultRoute.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('lets requests through, unlimited, while Redis is down, and never answers 500', async () => {
    await redis.stop();
    const ip = freshIp();
    for (let i = 0; i < 8; i++) {
      const res = await a.app.inject({ method: 'POST', url: '/migrate/claim', remoteAddress: ip });
      expect(res.statusCode).toBe(401);
    }
  });
});
