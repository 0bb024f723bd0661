import { DeliverPolicy } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_STREAM, parseEvent } from '@reports/contracts';
import { connectNats, type Nats } from '@reports/platform';
import { startSystem, type RunningSystem } from './support/system.js';
import { signIn, type Session } from './support/client.js';
import { figures, runVerify, settle, smallDocuments, uploadAll } from './support/chaos.js';

// The distributed engine: a JetStream cluster of 3 nats-server processes on loopback, every
// stream (and so every durable consumer) with 3 replicas, as the production overlay runs it.
// The REPORTS stream's leader is killed with SIGKILL during 40 uploads and restarted later.

const UPLOADS = 40;
let system: RunningSystem;
let user: Session;
let nats: Nats;

beforeAll(async () => {
  system = await startSystem({
    nats: 'cluster',
    env: { STAGE_ACK_WAIT_MS: '2000', STAGE_MAX_DELIVER: '5', NATS_CONNECT_BACKOFF_MAX_MS: '1000' },
  });
  user = await signIn(system, 'cluster@example.com');
  nats = await connectNats(system.cluster!.url, 'cluster-test');
});
afterAll(async () => {
  await nats?.nc.close();
  await system?.stop();
});

async function leader(via: Nats = nats): Promise<string | undefined> {
  try {
    return (await via.jsm.streams.info(REPORTS_STREAM)).cluster?.leader;
  } catch {
    return undefined;
  }
}

/**
 * Every event of the REPORTS stream, counted by report and type: read up to the stream's last
 * sequence. Right after the killed member rejoins, a fetch can come back empty while the
 * cluster settles; that is no end of the stream, so the reading goes on (a minute at most).
 */
async function eventCounts(): Promise<Map<string, number>> {
  const last = (await nats.jsm.streams.info(REPORTS_STREAM)).state.last_seq;
  const counts = new Map<string, number>();
  const consumer = await nats.js.consumers.get(REPORTS_STREAM, {
    deliver_policy: DeliverPolicy.All,
  });
  const deadline = Date.now() + 60_000;
  let seen = 0;
  while (seen < last && Date.now() < deadline) {
    const batch = await consumer.fetch({ max_messages: 1000, expires: 2000 });
    for await (const msg of batch) {
      const event = parseEvent(msg.json());
      const key = `${event.report_id}:${event.type}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      seen = msg.seq;
      if (seen >= last) break;
    }
  }
  return counts;
}

describe('a JetStream cluster of 3 losing its stream leader', () => {
  it('runs every stream and durable consumer with 3 replicas', async () => {
    for (const name of await nats.jsm.streams.names().next()) {
      const info = await nats.jsm.streams.info(name);
      expect(info.config.num_replicas, name).toBe(3);
    }
    const durables = await nats.jsm.consumers.list(REPORTS_STREAM).next();
    expect(durables.length).toBeGreaterThanOrEqual(5);
    for (const c of durables) expect(c.cluster?.replicas?.length, c.name).toBe(2);
  });

  it('loses and duplicates no upload when the REPORTS leader is killed during 40 uploads, and measures the recovery', async () => {
    const docs = await smallDocuments(UPLOADS, 11);
    const killedLeader = (await leader())!;
    expect(killedLeader).toMatch(/^n[123]$/);
    const member = system.cluster!.members.find((m) => m.name === killedLeader)!;
    let recovery: Promise<number> | null = null;
    const { ids, unavailable } = await uploadAll(system, user, docs, {
      onAccepted: (n) => {
        if (n !== 10) return;
        recovery = (async () => {
          // Asked through a survivor, so the probe's own reconnect is not in the figure.
          const survivors = system
            .cluster!.members.filter((m) => m !== member)
            .map((m) => m.url)
            .join(',');
          const probe = await connectNats(survivors, 'cluster-probe');
          const killedAt = Date.now();
          await member.halt('SIGKILL');
          // Recovered: a new leader elected among the two left, answering for the stream.
          for (;;) {
            const now = await leader(probe);
            if (now && now !== killedLeader) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          const seconds = (Date.now() - killedAt) / 1000;
          await probe.nc.close();
          return seconds;
        })();
      },
    });
    const recoverySeconds = await recovery!;
    // The killed member comes back later and catches up.
    await member.restart();
    const settled = await settle(system, ids, 150_000);
    const counts = await eventCounts();
    const lost = ids.filter((id) => (counts.get(`${id}:ReportReady`) ?? 0) === 0).length;
    const duplicated = ids.filter(
      (id) =>
        (counts.get(`${id}:ReportUploaded`) ?? 0) > 1 ||
        (counts.get(`${id}:ReportParsed`) ?? 0) > 1 ||
        (counts.get(`${id}:ChunksEmbedded`) ?? 0) > 1 ||
        (counts.get(`${id}:ReportReady`) ?? 0) > 1,
    ).length;
    const { report } = await runVerify(system);
    const ours = new Set(ids);
    const disagreeing = report.disagreements.filter((d) => ours.has(d.report_id));
    process.stdout.write(
      `cluster: leader ${killedLeader} killed after 10 of ${UPLOADS} uploads; ` +
        `uploads lost ${lost}, duplicated ${duplicated}, 503 answers retried ${unavailable}; ` +
        `new leader in ${recoverySeconds.toFixed(2)} s\n`,
    );
    process.stdout.write(`${figures('cluster-leader-kill', settled, disagreeing.length)}\n`);
    expect(ids).toHaveLength(UPLOADS);
    expect(settled.stuckStatuses).toEqual([]);
    expect(settled.ready).toBe(UPLOADS);
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(disagreeing).toEqual([]);
    expect(recoverySeconds).toBeGreaterThan(0);
  });
});
