import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { readEvents, signIn, upload, waitForStatus, type Session } from './support/client.js';

const SHUTDOWN_TIMEOUT_MS = 20_000;

let system: RunningSystem;
let user: Session;

beforeAll(async () => {
  system = await startSystem({
    env: {
      // A grace far shorter than the parse of the long PDFs: what is in hand gets nak'd.
      SHUTDOWN_GRACE_MS: '300',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      // Long enough that only an explicit nak (not an expired ack wait) explains a prompt redelivery.
      STAGE_ACK_WAIT_MS: '30000',
    },
  });
  user = await signIn(system, 'graceful@example.com');
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
            (SELECT count(DISTINCT order_in_doc)::int FROM sections WHERE report_id = $1) AS distinct_sections,
            (SELECT count(*)::int FROM chunks WHERE report_id = $1) AS chunks,
            (SELECT count(DISTINCT order_in_doc)::int FROM chunks WHERE report_id = $1) AS distinct_chunks`,
    [reportId],
  );
  return rows[0]!;
}

describe('SIGTERM to a stage service in the middle of its work', () => {
  it('gives back what it holds, exits 0 within its shutdown limit, and after a restart every report is ready once', async () => {
    const pdfs = await Promise.all(
      [21, 22, 23].map((seed) =>
        buildPdf(sampleReportSpec({ sections: 10, paragraphsPerSection: 4, seed }), { pages: 250 }),
      ),
    );
    const ids: string[] = [];
    for (const [i, bytes] of pdfs.entries()) {
      const res = await upload(system, user, {
        bytes,
        filename: `long-${i}.pdf`,
        type: 'application/pdf',
      });
      expect(res.status).toBe(202);
      ids.push(res.body.id);
    }
    // Parse is running on the first report (more are fetched or queued behind it).
    await readEvents(system, user, ids[0]!, {
      timeoutMs: 60_000,
      until: (e) => e.event === 'StageStarted' && e.data.data.stage === 'parse',
    });

    const before = system.logs.length;
    await system.kill('ingestion', 'SIGTERM');
    // The last lines may be read from the pipe a moment after the exit.
    const mineNow = () => system.logs.slice(before).filter((l) => l.service === 'ingestion');
    for (let i = 0; i < 30 && !mineNow().some((l) => l.json?.msg === 'stopped'); i++)
      await new Promise((r) => setTimeout(r, 100));
    const mine = mineNow();
    const stopped = mine.find((l) => l.json?.msg === 'stopped');
    expect(stopped, mine.map((l) => l.line).join('\n')).toBeDefined();
    // runService exits 1 past SHUTDOWN_TIMEOUT_MS: a 'stopped' line means it made it in time.
    expect(Number(stopped!.json?.shutdown_ms)).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    process.stdout.write(`ingestion shut down in ${String(stopped!.json?.shutdown_ms)} ms\n`);
    expect(mine.some((l) => l.json?.msg === 'shutting down: message given back unfinished')).toBe(
      true,
    );
    expect(mine.some((l) => l.json?.msg === 'unclean shutdown')).toBe(false);

    await system.start('ingestion');
    for (const id of ids) {
      const events = await readEvents(system, user, id, { timeoutMs: 120_000 });
      expect(events.at(-1)?.event, id).toBe('ReportReady');
      for (const type of ['ReportScanned', 'ReportParsed', 'ChunksEmbedded', 'ReportReady'])
        expect(
          events.filter((e) => e.event === type),
          `${type} of ${id}`,
        ).toHaveLength(1);
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
      await waitForStatus(system, user, id, 'ready');
    }
    // The interrupted parse ran again: its message came back.
    const first = await readEvents(system, user, ids[0]!);
    const attempts = first
      .filter((e) => e.event === 'StageStarted' && e.data.data.stage === 'parse')
      .map((e) => Number(e.data.data.attempt));
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
  });
});
