import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startNatsServer, type TestNatsServer } from '../../test-support/src/nats.js';
import {
  connectNats,
  ensureDurableConsumer,
  ensureStream,
  startConsumer,
  type HandlerOutcome,
  type Nats,
} from '../src/index.js';

const logger = pino({ level: 'silent' });
let server: TestNatsServer;
let nats: Nats;

beforeAll(async () => {
  server = await startNatsServer();
  nats = await connectNats(server.url, 'consumer-test');
});
afterAll(async () => {
  await nats?.nc.close();
  await server?.stop();
});

let n = 0;
/** A stream and durable of their own, with `outcomes` answered in order per message. */
async function harness(script: (body: string, delivery: number) => HandlerOutcome, maxDeliver = 3) {
  n += 1;
  const stream = `T${n}`;
  const subject = `t${n}.>`;
  await ensureStream(nats.jsm, {
    name: stream,
    subjects: [subject],
    replicas: 1,
    duplicateWindowMs: 60_000,
  });
  await ensureDurableConsumer(nats.jsm, {
    stream,
    durable: 'worker',
    filterSubject: subject,
    ackWaitMs: 2000,
    maxDeliver: maxDeliver + 2,
    maxAckPending: 10,
  });
  const deliveries: Array<{ body: string; delivery: number }> = [];
  const gaveUp: Array<{ body: string; reason: string; delivery: number }> = [];
  const handle = await startConsumer<string>({
    js: nats.js,
    stream,
    durable: 'worker',
    decode: (msg) => {
      const body = msg.string();
      if (body === 'poison') throw new Error('cannot decode');
      return body;
    },
    async handle(body, ctx) {
      deliveries.push({ body, delivery: ctx.deliveryCount });
      return script(body, ctx.deliveryCount);
    },
    async onGiveUp(body, reason, ctx) {
      gaveUp.push({ body, reason, delivery: ctx.deliveryCount });
    },
    concurrency: 2,
    maxDeliver,
    ackWaitMs: 2000,
    timeoutMs: 5000,
    logger,
    backoffMs: () => 50,
  });
  const publish = (body: string, msgID?: string) =>
    nats.js.publish(`t${n}.x`, body, msgID ? { msgID } : {});
  const pending = async () => (await nats.jsm.consumers.info(stream, 'worker')).num_pending;
  const unacked = async () => (await nats.jsm.consumers.info(stream, 'worker')).num_ack_pending;
  return { handle, deliveries, gaveUp, publish, pending, unacked };
}

async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('consumer loop', () => {
  it('acks a message whose handler is done, and it is not delivered again', async () => {
    const h = await harness(() => ({ outcome: 'done' }));
    await h.publish('a');
    await eventually(() => h.deliveries.length === 1);
    await eventually(async () => (await h.unacked()) === 0);
    await new Promise((r) => setTimeout(r, 2500)); // longer than ack_wait
    expect(h.deliveries).toEqual([{ body: 'a', delivery: 1 }]);
    await h.handle.stop();
  });

  it('redelivers after a retry until the handler succeeds', async () => {
    const h = await harness(
      (_b, d) => (d < 3 ? { outcome: 'retry', reason: 'busy' } : { outcome: 'done' }),
      5,
    );
    await h.publish('b');
    await eventually(() => h.deliveries.length === 3);
    expect(h.deliveries.map((d) => d.delivery)).toEqual([1, 2, 3]);
    expect(h.gaveUp).toEqual([]);
    await h.handle.stop();
  });

  it('gives up after the last delivery and terminates the message', async () => {
    const h = await harness(() => ({ outcome: 'retry', reason: 'still broken' }), 3);
    await h.publish('c');
    await eventually(() => h.gaveUp.length === 1);
    expect(h.gaveUp[0]).toEqual({ body: 'c', reason: 'still broken', delivery: 3 });
    await new Promise((r) => setTimeout(r, 2500));
    expect(h.deliveries).toHaveLength(3);
    await h.handle.stop();
  });

  it('terminates at once when the handler says failed', async () => {
    const h = await harness(() => ({ outcome: 'failed', reason: 'corrupt' }));
    await h.publish('d');
    await eventually(() => h.gaveUp.length === 1);
    await new Promise((r) => setTimeout(r, 2500));
    expect(h.deliveries).toHaveLength(1);
    expect(h.gaveUp[0]?.reason).toBe('corrupt');
    await h.handle.stop();
  });

  it('treats a thrown error as a retry', async () => {
    const h = await harness((_b, d) => {
      if (d === 1) throw new Error('boom');
      return { outcome: 'done' };
    });
    await h.publish('e');
    await eventually(() => h.deliveries.length === 2);
    expect(h.gaveUp).toEqual([]);
    await h.handle.stop();
  });

  it('terminates a poison message without calling the handler, and goes on with the next', async () => {
    const h = await harness(() => ({ outcome: 'done' }));
    await h.publish('poison');
    await h.publish('f');
    await eventually(() => h.deliveries.length === 1);
    expect(h.deliveries[0]?.body).toBe('f');
    await eventually(async () => (await h.unacked()) === 0 && (await h.pending()) === 0);
    await h.handle.stop();
  });

  it('stores a message published twice with the same id once', async () => {
    const h = await harness(() => ({ outcome: 'done' }));
    const first = await h.publish('g', 'same-id');
    const second = await h.publish('g', 'same-id');
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    await eventually(() => h.deliveries.length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.deliveries).toHaveLength(1);
    await h.handle.stop();
  });

  it('lets a message in hand finish when stopped, then acks it', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let finished = false;
    const h = await harness(() => ({ outcome: 'done' }));
    await h.handle.stop();
    const slow = await startConsumer<string>({
      js: nats.js,
      stream: `T${n}`,
      durable: 'worker',
      decode: (msg) => msg.string(),
      async handle() {
        await gate;
        finished = true;
        return { outcome: 'done' };
      },
      concurrency: 1,
      maxDeliver: 3,
      ackWaitMs: 2000,
      timeoutMs: 5000,
      logger,
    });
    await h.publish('h');
    await eventually(async () => (await h.unacked()) === 1);
    let stopped = false;
    const stopping = slow.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(await h.unacked()).toBe(0);
    expect(await h.pending()).toBe(0);
  });

  it('does not let a message fetched while every handler is busy be redelivered after the ack wait', async () => {
    const h = await harness(() => ({ outcome: 'done' }));
    await h.handle.stop();
    const handled: Array<{ body: string; delivery: number }> = [];
    // Two handlers at a time, each taking well past the ack wait (1 s): a message that waits for
    // the handler must be neither redelivered nor handled twice.
    await ensureDurableConsumer(nats.jsm, {
      stream: `T${n}`,
      durable: 'worker',
      filterSubject: `t${n}.>`,
      ackWaitMs: 1000,
      maxDeliver: 5,
      maxAckPending: 10,
    });
    const slow = await startConsumer<string>({
      js: nats.js,
      stream: `T${n}`,
      durable: 'worker',
      decode: (msg) => msg.string(),
      async handle(body, ctx) {
        handled.push({ body, delivery: ctx.deliveryCount });
        await new Promise((r) => setTimeout(r, 1800));
        return { outcome: 'done' };
      },
      concurrency: 2,
      maxDeliver: 3,
      ackWaitMs: 1000,
      timeoutMs: 10_000,
      logger,
    });
    const bodies = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    for (const body of bodies) await h.publish(body);
    await eventually(async () => (await h.pending()) === 0 && (await h.unacked()) === 0, 20_000);
    await new Promise((r) => setTimeout(r, 1500)); // a redelivery would show by now
    await slow.stop();
    expect(handled.map((d) => d.body).sort()).toEqual(bodies);
    expect(handled.every((d) => d.delivery === 1)).toBe(true);
  });

  it('provisions streams and consumers idempotently', async () => {
    const spec = { name: 'IDEM', subjects: ['idem.>'], replicas: 1, duplicateWindowMs: 60_000 };
    await ensureStream(nats.jsm, spec);
    await ensureStream(nats.jsm, { ...spec, duplicateWindowMs: 120_000 });
    const info = await nats.jsm.streams.info('IDEM');
    expect(info.config.duplicate_window).toBe(120_000 * 1_000_000);
    const durable = {
      stream: 'IDEM',
      durable: 'd',
      filterSubject: 'idem.>',
      ackWaitMs: 1000,
      maxDeliver: 3,
      maxAckPending: 5,
    };
    await ensureDurableConsumer(nats.jsm, durable);
    await ensureDurableConsumer(nats.jsm, { ...durable, maxDeliver: 7 });
    expect((await nats.jsm.consumers.info('IDEM', 'd')).config.max_deliver).toBe(7);
  });
});
