import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf, freePort, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { readEvents, signIn, upload, waitForStatus, type Session } from './support/client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

let system: RunningSystem;
let user: Session;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  system = await startSystem({
    env: {
      // One delivery of ours; JetStream's max_deliver is two more, then the advisory.
      STAGE_MAX_DELIVER: '1',
      STAGE_ACK_WAIT_MS: '1000',
    },
    serviceEnv: { ingestion: { METRICS_PORT: String(metricsPort) } },
  });
  user = await signIn(system, 'stuck@example.com');
});
afterAll(async () => {
  await system?.stop();
});

/** `npm run events -- <args>` against this system, as an operator would run it. */
async function events(...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [path.join(ROOT, 'services/ingestion/dist/operations/cli.js'), ...args],
    { env: system.env, timeout: 60_000 },
  );
  return stdout;
}

describe('a stage whose worker dies on every delivery', () => {
  it('ends the report failed with the reason, in status, events and metrics', async () => {
    // A long PDF keeps the parse stage busy for seconds: long enough to be killed in it (the
    // layout reader is faster than it was; at 300 pages a parse could finish before the kill).
    const pdf = await buildPdf(
      sampleReportSpec({ sections: 12, paragraphsPerSection: 4, seed: 9 }),
      {
        pages: 800,
      },
    );
    const res = await upload(system, user, {
      bytes: pdf,
      filename: 'doomed.pdf',
      type: 'application/pdf',
    });
    expect(res.status).toBe(202);
    const id = res.body.id;

    // Kill the ingestion service (SIGKILL, as the OOM killer would) on every parse attempt.
    let lastSeen = 0;
    let kills = 0;
    for (;;) {
      const seen = await readEvents(system, user, id, {
        lastEventId: lastSeen,
        timeoutMs: 120_000, // a restarted service under a loaded CI machine can take a while to redeliver
        until: (e) =>
          (e.event === 'StageStarted' && e.data.data.stage === 'parse') ||
          e.event === 'StageFailed',
      });
      const last = seen.at(-1);
      expect(last, 'an event after the last kill').toBeDefined();
      lastSeen = last!.id;
      if (last!.event === 'StageFailed') break;
      await system.kill('ingestion', 'SIGKILL');
      kills += 1;
      await system.start('ingestion');
      expect(kills, 'kills before the advisory').toBeLessThanOrEqual(3);
    }
    // JetStream delivered it max_deliver (1 + 2) times and no attempt finished. Not every
    // delivery reaches a live worker (one may go to the pull of the process just killed),
    // so there may be fewer kills than deliveries.
    expect(kills).toBeGreaterThanOrEqual(1);

    const status = await waitForStatus(system, user, id, 'failed', 30_000);
    expect(status.ingestion_error).toBe(
      'parse failed: gave up after 3 deliveries: the worker never finished an attempt (crashed, killed or out of memory)',
    );

    const all = await readEvents(system, user, id);
    const failed = all.filter((e) => e.event === 'StageFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data.status).toBe('failed');
    expect(failed[0]!.data.data).toMatchObject({ stage: 'parse', attempts: 3 });

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/stage_failures_total\{stage="parse",source="max_deliveries"\} 1/);

    const tail = await events(
      'tail',
      '--report',
      id,
      '--type',
      'StageFailed',
      '--since',
      '1h',
      '--no-follow',
    );
    expect(tail).toMatch(
      /StageFailed .* stage=parse error="gave up after 3 deliveries: .*" attempts=3/,
    );

    const pipeline = JSON.parse(await events('pipeline', '--json')) as Array<{
      stage: string;
      failed: number;
    }>;
    expect(pipeline.find((r) => r.stage === 'parse')?.failed).toBe(1);
  });
});
