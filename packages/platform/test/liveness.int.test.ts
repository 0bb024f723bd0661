import { afterEach, describe, expect, it } from 'vitest';
import { startNatsServer, type TestNatsServer } from '../../test-support/src/nats.js';
import { awaitNatsConnected, connectNats, isNatsConnected, type Nats } from '../src/index.js';

let server: TestNatsServer | undefined;
let nats: Nats | undefined;
afterEach(async () => {
  await nats?.nc.close();
  await server?.stop();
  nats = undefined;
  server = undefined;
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('NATS liveness', () => {
  it('knows the connection is down, refuses after the grace, and waits for a reconnect within it', async () => {
    server = await startNatsServer();
    nats = await connectNats(server.url, 'liveness-test');
    expect(isNatsConnected(nats.nc)).toBe(true);
    await awaitNatsConnected(nats.nc, 'the test service');

    await server.halt('SIGKILL');
    await until(() => !isNatsConnected(nats!.nc));
    await expect(awaitNatsConnected(nats.nc, 'the test service', 200)).rejects.toMatchObject({
      code: 'service_unavailable',
      detail: 'the test service is unavailable: no connection to the message bus',
    });

    // A reconnect that comes within the grace lets the caller through.
    const waiting = awaitNatsConnected(nats.nc, 'the test service', 30_000);
    await server.restart();
    await waiting;
    expect(isNatsConnected(nats.nc)).toBe(true);
  });

  it('reports a closed connection as down', async () => {
    server = await startNatsServer();
    nats = await connectNats(server.url, 'liveness-test');
    await nats.nc.close();
    expect(isNatsConnected(nats.nc)).toBe(false);
    await expect(awaitNatsConnected(nats.nc, 'x')).rejects.toMatchObject({
      code: 'service_unavailable',
    });
  });
});
