// Scale-out benchmark: the figures docs/scaling.md quotes. (1) JetStream on this machine:
// publish rate of pipeline events (one at a time, and 64 in flight), read rate of an
// ordered consumer, and ack rate of one vs two competing consumers on one durable.
// (2) The whole pipeline with one vs two ingestion processes on the same durables
// (competing consumers), on the same PDF batch. No assertions on timing; a report that
// does not reach ready is an error. Writes bench/results/scale-*.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import {
  connectNats,
  ensureDurableConsumer,
  newEvent,
  provisionReportsStream,
  publishEvent,
} from '@reports/platform';
import { buildPdf, sampleReportSpec, startNatsServer } from '@reports/test-support';
import { startSystem, type RunningSystem } from '../test/support/system.js';
import { readEvents, signIn, upload } from '../test/support/client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EVENTS = Number(process.env.BENCH_SCALE_EVENTS ?? 3000);
const DOCS = Number(process.env.BENCH_SCALE_DOCS ?? 12);
const PAGES = 40;
const IN_FLIGHT = 6;

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const rate = (n: number, ms: number) => round((n / ms) * 1000);

async function jetstreamRates() {
  const server = await startNatsServer();
  const nats = await connectNats(server.url, 'bench-scale');
  try {
    await provisionReportsStream(nats.jsm, 1);
    const origin = {
      tenant_id: randomUUID(),
      report_id: randomUUID(),
      target_kind: 'report' as const,
      target_id: randomUUID(),
      generation: 1,
      correlation_id: randomUUID(),
      causation_id: null,
    };
    const event = () =>
      newEvent('ReportParsed', origin, {
        sections: 10,
        figures: 2,
        tables: 1,
        pages: 5,
        cost_cents: 0,
      });
    const bytes = JSON.stringify(event()).length;

    let t = performance.now();
    for (let i = 0; i < EVENTS; i++) await publishEvent(nats.js, event(), randomUUID());
    const serial = rate(EVENTS, performance.now() - t);

    t = performance.now();
    const inflight = new Set<Promise<unknown>>();
    for (let i = 0; i < EVENTS; i++) {
      const p: Promise<unknown> = publishEvent(nats.js, event(), randomUUID()).finally(() =>
        inflight.delete(p),
      );
      inflight.add(p);
      if (inflight.size >= 64) await Promise.race(inflight);
    }
    await Promise.all(inflight);
    const pipelined = rate(EVENTS, performance.now() - t);

    t = performance.now();
    const ordered = await nats.js.consumers.get('REPORTS', { deliver_policy: DeliverPolicy.All });
    let read = 0;
    const iter = await ordered.consume();
    for await (const msg of iter) {
      read += 1;
      if (msg.info.pending === 0) break;
    }
    const orderedRate = rate(read, performance.now() - t);

    // Competing consumers on one durable: each message acked after a 2 ms stand-in for work.
    const acked: Record<string, number> = {};
    for (const workers of [1, 2]) {
      const durable = `bench-${workers}`;
      await ensureDurableConsumer(nats.jsm, {
        stream: 'REPORTS',
        durable,
        filterSubject: 'reports.>',
        ackWaitMs: 30_000,
        maxDeliver: 3,
        maxAckPending: 256,
      });
      const total = EVENTS * 2;
      let done = 0;
      const conns = await Promise.all(
        Array.from({ length: workers }, () => connectNats(server.url, 'bench-worker')),
      );
      const iterators = await Promise.all(
        conns.map(async (conn) =>
          (await jetstream(conn.nc).consumers.get('REPORTS', durable)).consume({
            max_messages: 32,
          }),
        ),
      );
      t = performance.now();
      await Promise.all(
        iterators.map(async (msgs) => {
          for await (const msg of msgs) {
            const until = performance.now() + 2;
            while (performance.now() < until); // CPU-bound work, as a stage's
            msg.ack();
            done += 1;
            // The last message ends every worker's loop, not only this one's.
            if (done >= total) for (const it of iterators) void it.close();
          }
        }),
      );
      await Promise.all(conns.map((c) => c.nc.close()));
      acked[`${workers}_worker${workers > 1 ? 's' : ''}`] = rate(total, performance.now() - t);
    }
    return {
      event_bytes: bytes,
      events: EVENTS,
      publish_serial_per_s: serial,
      publish_64_in_flight_per_s: pipelined,
      ordered_read_per_s: orderedRate,
      durable_2ms_work_acked_per_s: acked,
    };
  } finally {
    await nats.nc.close();
    await server.stop();
  }
}

async function pipelineRun(ingestionProcesses: number, pdfs: Buffer[]) {
  const system: RunningSystem = await startSystem({
    env: { STAGE_ACK_WAIT_MS: '30000', STAGE_MAX_DELIVER: '5' },
  });
  const extra: ChildProcess[] = [];
  try {
    for (let i = 1; i < ingestionProcesses; i++) {
      const child = spawn(process.execPath, [path.join(ROOT, 'services/ingestion/dist/main.js')], {
        env: system.env,
        stdio: 'ignore',
      });
      extra.push(child);
    }
    await new Promise((r) => setTimeout(r, 1500));
    const user = await signIn(system, `scale-${ingestionProcesses}@example.com`);
    const started = performance.now();
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < pdfs.length) {
          const i = next++;
          const t = performance.now();
          const res = await upload(system, user, {
            bytes: pdfs[i]!,
            filename: `scale-${i}.pdf`,
            type: 'application/pdf',
          });
          if (res.status !== 202) throw new Error(`upload ${i}: ${res.status}`);
          const events = await readEvents(system, user, res.body.id, { timeoutMs: 300_000 });
          if (events.at(-1)?.event !== 'ReportReady')
            throw new Error(`report ${i} did not become ready`);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const wallMs = performance.now() - started;
    const { rows } = await system.db.pool.query<{ stage: string; p50: number }>(
      `SELECT stage, percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50
         FROM stage_runs WHERE outcome = 'done' GROUP BY stage`,
    );
    latencies.sort((a, b) => a - b);
    return {
      ingestion_processes: ingestionProcesses,
      documents: pdfs.length,
      pages: pdfs.length * PAGES,
      wall_s: round(wallMs / 1000, 2),
      documents_per_s: rate(pdfs.length, wallMs),
      pages_per_s: rate(pdfs.length * PAGES, wallMs),
      upload_to_ready_p50_ms: round(latencies[Math.floor(latencies.length / 2)]!),
      stage_p50_ms: Object.fromEntries(rows.map((r) => [r.stage, round(r.p50)])),
    };
  } finally {
    for (const child of extra) child.kill('SIGTERM');
    await system.stop();
  }
}

async function main() {
  const t0 = performance.now();
  process.stdout.write('JetStream rates...\n');
  const jetstreamFigures = await jetstreamRates();
  process.stdout.write(`${JSON.stringify(jetstreamFigures, null, 2)}\n`);
  const pdfs = await Promise.all(
    Array.from({ length: DOCS }, (_, i) =>
      buildPdf(sampleReportSpec({ sections: 10, paragraphsPerSection: 4, seed: 5000 + i }), {
        pages: PAGES,
      }),
    ),
  );
  const pipeline = [];
  for (const n of [1, 2]) {
    process.stdout.write(`pipeline with ${n} ingestion process(es)...\n`);
    const run = await pipelineRun(n, pdfs);
    process.stdout.write(`${JSON.stringify(run)}\n`);
    pipeline.push(run);
  }
  const result = {
    benchmark: 'scale',
    date: new Date().toISOString(),
    node: process.version,
    cpu_count: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(),
    config: { events: EVENTS, documents: DOCS, pages_per_pdf: PAGES, in_flight: IN_FLIGHT },
    jetstream: jetstreamFigures,
    pipeline,
    total_run_s: round((performance.now() - t0) / 1000),
  };
  const dir = path.join(ROOT, 'bench/results');
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify(result, null, 2)}\n`;
  for (const name of [`scale-${result.date.replace(/[:.]/g, '-')}.json`, 'scale-latest.json']) {
    await writeFile(path.join(dir, `${name}.tmp`), json);
    await rename(path.join(dir, `${name}.tmp`), path.join(dir, name));
  }
  process.stdout.write(`wrote bench/results/scale-latest.json (${result.total_run_s} s)\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
