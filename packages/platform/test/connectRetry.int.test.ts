import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startNatsServer, type TestNatsServer } from '../../test-support/src/nats.js';
import { connectNatsWithRetry, ensureStream, type Nats } from '../src/index.js';

let server: TestNatsServer | undefined;
let nats: Nats | undefined;
afterAll(async () => {
  await nats?.nc.close();
  await server?.stop();
});

describe('connecting to NATS at start-up', () => {
  it('waits for a NATS server that is down, retrying with backoff, and provisions once it is up', async () => {
    const port = await freePort();
    const retries: Array<{ attempt: number; delay_ms: number; err: string }> = [];
    let connected = false;
    const connecting = connectNatsWithRetry(
      `nats://127.0.0.1:${port}`,
      'retry-test',
      (n) =>
        ensureStream(n.jsm, {
          name: 'RETRY',
          subjects: ['retry.>'],
          replicas: 1,
          duplicateWindowMs: 60_000,
        }),
      { initialDelayMs: 100, maxDelayMs: 400, onRetry: (info) => retries.push(info) },
    ).then((n) => {
      connected = true;
      return n;
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(connected).toBe(false);
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(retries[0]?.err).toMatch(/refused|connect/i);
    expect(retries.map((r) => r.delay_ms).slice(0, 4)).toEqual([100, 200, 400, 400]);

    server = await startNatsServer({ port });
    nats = await connecting;
    expect(connected).toBe(true);
    expect((await nats.jsm.streams.info('RETRY')).config.subjects).toEqual(['retry.>']);
  });
});
