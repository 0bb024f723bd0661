import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type RunningSystem } from './support/system.js';
import { signIn, type Session } from './support/client.js';
import {
  figures,
  runVerify,
  settle,
  smallDocuments,
  uploadAll,
  type Settled,
} from './support/chaos.js';

// Chaos: 40 uploads per scenario while a worker is killed, the ingestion process is paused past
// the ack wait, NATS restarts, or a service starts while NATS is down. Per report: `ready` or
// `failed` with a reason, never stuck, and every row count equal to its event (`events verify`).
// A short ack wait (2 s) keeps the pauses short.

const UPLOADS = 40;
const ACK_WAIT_MS = 2000;
let system: RunningSystem;
let user: Session;
const results: string[] = [];

beforeAll(async () => {
  system = await startSystem({
    env: {
      STAGE_ACK_WAIT_MS: String(ACK_WAIT_MS),
      STAGE_MAX_DELIVER: '5',
      NATS_CONNECT_BACKOFF_MAX_MS: '1000',
    },
  });
  user = await signIn(system, 'chaos@example.com');
});
afterAll(async () => {
  for (const line of results) process.stdout.write(`${line}\n`);
  await system?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The per-report assertions every scenario shares, after recording its figures. */
async function expectWhole(scenario: string, settled: Settled, ids: string[]): Promise<void> {
  const { report } = await runVerify(system);
  const ours = new Set(ids);
  const disagreeing = report.disagreements.filter((d) => ours.has(d.report_id));
  results.push(figures(scenario, settled, disagreeing.length));
  expect(settled.stuckStatuses, 'stuck reports').toEqual([]);
  expect(settled.failedWithoutReason).toBe(0);
  expect(settled.ready + settled.failedWithReason).toBe(UPLOADS);
  expect(disagreeing, 'reports whose rows disagree with their events').toEqual([]);
}

describe('chaos: 40 uploads in flight', () => {
  it('a stage worker killed with SIGKILL mid-flight: every report ends ready or failed with a reason, rows as the events say', async () => {
    const docs = await smallDocuments(UPLOADS, 1);
    let killed: Promise<void> | null = null;
    const { ids } = await uploadAll(system, user, docs, {
      onAccepted: (n) => {
        if (n === 10)
          killed = (async () => {
            await system.kill('ingestion', 'SIGKILL');
            await system.start('ingestion');
            await sleep(1500);
            await system.kill('embedding', 'SIGKILL');
            await system.start('embedding');
          })();
      },
    });
    await killed;
    await expectWhole('sigkill', await settle(system, ids, 120_000), ids);
  });

  it('the ingestion process paused with SIGSTOP past the ack wait, then resumed: no report ready without its chunks', async () => {
    const docs = await smallDocuments(UPLOADS, 2);
    const { ids } = await uploadAll(system, user, docs);
    await sleep(1000);
    system.signal('ingestion', 'SIGSTOP');
    await sleep(ACK_WAIT_MS * 2 + 1000);
    system.signal('ingestion', 'SIGCONT');
    await expectWhole('sigstop', await settle(system, ids, 120_000), ids);
  });

  it('NATS restarted while reports are in flight: every report still ends ready or failed with a reason', async () => {
    const docs = await smallDocuments(UPLOADS, 3);
    const { ids } = await uploadAll(system, user, docs);
    await sleep(500);
    await system.nats.halt('SIGTERM');
    await sleep(2000);
    await system.nats.restart();
    await expectWhole('nats-restart', await settle(system, ids, 120_000), ids);
  });

  it('a service started while NATS is down waits for it and then does its work', async () => {
    await system.kill('annotation', 'SIGTERM');
    const docs = await smallDocuments(UPLOADS, 4);
    const { ids } = await uploadAll(system, user, docs);
    await system.nats.halt('SIGTERM');
    const seen = system.logs.length;
    const starting = system.start('annotation', {}, { timeoutMs: 60_000 });
    // Awaited below; a failed assertion before that must not leave it unhandled.
    starting.catch(() => undefined);
    // Still alive after its first attempts failed, and saying why it waits.
    const deadline = Date.now() + 30_000;
    const retries = () =>
      system.logs
        .slice(seen)
        .filter(
          (l) => l.service === 'annotation' && l.json?.msg === 'NATS not reachable yet; retrying',
        ).length;
    while (retries() < 3 && Date.now() < deadline) await sleep(100);
    expect(retries()).toBeGreaterThanOrEqual(3);
    expect(system.isRunning('annotation')).toBe(true);
    await system.nats.restart();
    await starting;
    await expectWhole('start-while-nats-down', await settle(system, ids, 120_000), ids);
  });
});
