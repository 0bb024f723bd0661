import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem, type ServiceName } from './support/system.js';
import { readEvents, signIn, upload, waitForStatus, type Session } from './support/client.js';

let system: RunningSystem;
let user: Session;
let longPdf: Buffer;

beforeAll(async () => {
  system = await startSystem();
  user = await signIn(system, 'fault@example.com');
  longPdf = await buildPdf(sampleReportSpec({ sections: 12, paragraphsPerSection: 4, seed: 7 }), {
    pages: 300,
  });
});
afterAll(async () => {
  await system?.stop();
});

async function counts(reportId: string) {
  const { rows } = await system.db.pool.query<{
    sections: number;
    distinct_sections: number;
    chunks: number;
    distinct_chunks: number;
  }>(
    `SELECT (SELECT count(*)::int FROM sections WHERE report_id = $1) AS sections,
            (SELECT count(DISTINCT (section_name, order_in_doc))::int FROM sections WHERE report_id = $1) AS distinct_sections,
            (SELECT count(*)::int FROM chunks WHERE report_id = $1) AS chunks,
            (SELECT count(DISTINCT content || order_in_doc)::int FROM chunks WHERE report_id = $1) AS distinct_chunks`,
    [reportId],
  );
  return rows[0]!;
}

/**
 * Kills `service` with SIGKILL as soon as `stage` has started on the report
 * (so it dies holding the message), starts it again, and follows the report.
 */
async function killDuring(service: ServiceName, stage: string) {
  const res = await upload(system, user, {
    bytes: longPdf,
    filename: 'long.pdf',
    type: 'application/pdf',
  });
  expect(res.status).toBe(202);
  const id = res.body.id;
  const upTo = await readEvents(system, user, id, {
    stopAfter: 50,
    timeoutMs: 60_000,
    until: (e) => e.event === 'StageStarted' && e.data.data.stage === stage,
  });
  expect(upTo.at(-1)?.data.data.stage).toBe(stage);
  await system.kill(service, 'SIGKILL');
  await system.start(service);
  const events = await readEvents(system, user, id);
  return { id, events };
}

describe('a stage service killed with SIGKILL in the middle of a run', () => {
  it.each([
    ['ingestion', 'parse'],
    ['embedding', 'embed'],
  ] as const)(
    '%s during %s: the report still reaches ready, with no duplicate sections or chunks',
    async (service, stage) => {
      const { id, events } = await killDuring(service, stage);
      expect(events.at(-1)?.event).toBe('ReportReady');
      // The killed attempt was redelivered: the stage started a second time.
      const attempts = events
        .filter((e) => e.event === 'StageStarted' && e.data.data.stage === stage)
        .map((e) => e.data.data.attempt);
      expect(Math.max(...(attempts as number[]))).toBeGreaterThanOrEqual(2);
      const parsed = events.find((e) => e.event === 'ReportParsed')!.data.data as {
        sections: number;
      };
      const embedded = events.find((e) => e.event === 'ChunksEmbedded')!.data.data as {
        chunks: number;
      };
      const c = await counts(id);
      expect(c.sections).toBe(parsed.sections);
      expect(c.distinct_sections).toBe(c.sections);
      expect(c.chunks).toBe(embedded.chunks);
      expect(c.distinct_chunks).toBe(c.chunks);
      // Each stage's output event is in the stream once, whatever the reruns.
      for (const type of ['ReportParsed', 'ChunksEmbedded', 'ReportReady']) {
        expect(
          events.filter((e) => e.event === type),
          type,
        ).toHaveLength(1);
      }
      await waitForStatus(system, user, id, 'ready');
    },
  );
});
