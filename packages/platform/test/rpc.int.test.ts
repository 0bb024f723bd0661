import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { z } from 'zod';
import { AppError, rpcOperation } from '@reports/contracts';
import { startNatsServer, type TestNatsServer } from '../../test-support/src/nats.js';
import { connectNats, requestRpc, serveRpc, type Nats } from '../src/index.js';

const logger = pino({ level: 'silent' });
const Echo = rpcOperation(
  'test.echo',
  z.object({ text: z.string(), fail: z.enum(['none', 'coded', 'crash']).default('none') }),
  z.object({ echoed: z.string(), served_by: z.string() }),
);
const Slow = rpcOperation('test.slow', z.object({}), z.object({ ok: z.boolean() }));

let server: TestNatsServer;
let nats: Nats;

beforeAll(async () => {
  server = await startNatsServer();
  nats = await connectNats(server.url, 'rpc-test');
});
afterAll(async () => {
  await nats?.nc.close();
  await server?.stop();
});

function serveEcho(name: string) {
  return serveRpc(nats.nc, Echo, { queue: 'echo', logger }, async (req) => {
    if (req.fail === 'coded') throw new AppError('conflict', 'already there');
    if (req.fail === 'crash') throw new Error('database password is hunter2');
    return { echoed: req.text, served_by: name };
  });
}

describe('request/reply over NATS', () => {
  it('answers with the checked result', async () => {
    const srv = serveEcho('a');
    await nats.nc.flush();
    await expect(requestRpc(nats.nc, Echo, { text: 'hi' })).resolves.toEqual({
      echoed: 'hi',
      served_by: 'a',
    });
    await srv.stop();
  });

  it('carries a catalogue error back as the same AppError', async () => {
    const srv = serveEcho('a');
    await nats.nc.flush();
    const error = await requestRpc(nats.nc, Echo, { text: 'x', fail: 'coded' }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'conflict', status: 409, detail: 'already there' });
    await srv.stop();
  });

  it('answers internal without any detail of an unexpected error', async () => {
    const srv = serveEcho('a');
    await nats.nc.flush();
    const error = await requestRpc(nats.nc, Echo, { text: 'x', fail: 'crash' }).catch((e) => e);
    expect(error).toMatchObject({ code: 'internal', detail: 'internal server error' });
    expect(JSON.stringify(error)).not.toContain('hunter2');
    await srv.stop();
  });

  it('answers validation_failed for a request that does not match the schema', async () => {
    const srv = serveEcho('a');
    await nats.nc.flush();
    const error = await requestRpc(nats.nc, Echo, { text: 5 } as never).catch((e) => e);
    expect(error).toMatchObject({ code: 'validation_failed', status: 422 });
    await srv.stop();
  });

  it('words the validation_failed detail from the schema when the server asks to', async () => {
    const srv = serveRpc(
      nats.nc,
      Echo,
      {
        queue: 'echo',
        logger,
        invalidDetail: (error) => `bad echo: ${error?.issues[0]?.path.join('.') ?? 'not JSON'}`,
      },
      async (req) => ({ echoed: req.text, served_by: 'worded' }),
    );
    await nats.nc.flush();
    const error = await requestRpc(nats.nc, Echo, { text: 5 } as never).catch((e) => e);
    expect(error).toMatchObject({ code: 'validation_failed', detail: 'bad echo: text' });
    await srv.stop();
  });

  it('shares requests between the replicas of a queue group', async () => {
    const a = serveEcho('a');
    const b = serveEcho('b');
    await nats.nc.flush();
    const seen = new Set<string>();
    for (let i = 0; i < 60 && seen.size < 2; i++) {
      seen.add((await requestRpc(nats.nc, Echo, { text: String(i) })).served_by);
    }
    expect(seen).toEqual(new Set(['a', 'b']));
    await Promise.all([a.stop(), b.stop()]);
  });

  it('answers 503 service_unavailable when nobody serves the subject', async () => {
    const error = await requestRpc(nats.nc, Echo, { text: 'x' }, { service: 'echo' }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      detail: 'the echo service is unavailable',
    });
  });

  it('answers 503 service_unavailable when the service does not answer in time', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const srv = serveRpc(nats.nc, Slow, { queue: 'slow', logger }, async () => {
      await held;
      return { ok: true };
    });
    await nats.nc.flush();
    const error = await requestRpc(nats.nc, Slow, {}, { service: 'slow', timeoutMs: 300 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({
      code: 'service_unavailable',
      detail: 'the slow service did not answer',
    });
    release();
    await srv.stop();
  });

  it('finishes the requests in hand before stop() returns', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let finished = false;
    let arrived!: () => void;
    const inHand = new Promise<void>((r) => (arrived = r));
    const srv = serveRpc(nats.nc, Slow, { queue: 'slow2', logger }, async () => {
      arrived();
      await held;
      finished = true;
      return { ok: true };
    });
    await nats.nc.flush();
    const pending = requestRpc(nats.nc, Slow, {}, { service: 'slow' });
    await inHand;
    const stopping = srv.stop();
    release();
    await stopping;
    expect(finished).toBe(true);
    await expect(pending).resolves.toEqual({ ok: true });
  });
});
