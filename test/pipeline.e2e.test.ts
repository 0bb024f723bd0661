import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedSection } from '@reports/contracts';
import {
  buildDocx,
  buildHtml,
  buildPdf,
  corruptPdf,
  sampleReportSpec,
} from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import {
  getJson,
  readEvents,
  signIn,
  upload,
  waitForStatus,
  type Session,
} from './support/client.js';

let system: RunningSystem;
let alice: Session;
let bob: Session;
const spec = sampleReportSpec({ sections: 5, paragraphsPerSection: 3 });

beforeAll(async () => {
  system = await startSystem({ objectStore: 's3' });
  alice = await signIn(system, 'alice@example.com');
  bob = await signIn(system, 'bob@example.com');
});
afterAll(async () => {
  await system?.stop();
});

async function chunkCount(reportId: string): Promise<{ chunks: number; embedded: number }> {
  const { rows } = await system.db.pool.query<{ chunks: number; embedded: number }>(
    'SELECT count(*)::int AS chunks, count(embedding)::int AS embedded FROM chunks WHERE report_id = $1',
    [reportId],
  );
  return rows[0]!;
}

describe.each([
  ['HTML', () => Promise.resolve(buildHtml(spec)), 'report.html', 'text/html'],
  [
    'DOCX',
    () => buildDocx(spec),
    'report.docx',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
  ['PDF with a text layer', () => buildPdf(spec), 'report.pdf', 'application/pdf'],
])('a %s upload', (_name, build, filename, type) => {
  let reportId: string;

  it('is accepted with 202 and status uploaded', async () => {
    const res = await upload(
      system,
      alice,
      { bytes: await build(), filename, type },
      'Survey of 12 Acacia Avenue',
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'uploaded',
      filename,
      content_type: type,
      title: 'Survey of 12 Acacia Avenue',
    });
    reportId = res.body.id;
  });

  it('reaches ready through every stage, in order, on the realtime channel', async () => {
    const events = await readEvents(system, alice, reportId);
    const statuses = events.map((e) => e.data.status).filter((s, i, all) => s !== all[i - 1]);
    expect(statuses).toEqual([
      'uploaded',
      'scanned',
      'parsed',
      'annotated',
      'embedding',
      'embedded',
      'ready',
    ]);
    expect(events.at(-1)?.event).toBe('ReportReady');
    const status = await waitForStatus(system, alice, reportId, 'ready');
    expect(status.ingestion_error).toBeNull();
    expect(Date.parse(status.ingestion_finished_at!)).toBeGreaterThanOrEqual(
      Date.parse(status.ingestion_started_at!),
    );
  });

  it('has one section per heading, with slugs, and chunks with embeddings', async () => {
    const sections = await getJson<ParsedSection[]>(system, alice, `/ingest/${reportId}/sections`);
    expect(sections.status).toBe(200);
    const named = sections.body.filter((s) => s.level > 0);
    expect(named.map((s) => s.section_name)).toEqual(spec.sections.map((s) => s.heading));
    expect(new Set(sections.body.map((s) => s.section_slug)).size).toBe(sections.body.length);
    expect(named[0]!.markdown).toContain(spec.sections[0]!.paragraphs[0]!.slice(0, 40));
    const counts = await chunkCount(reportId);
    expect(counts.chunks).toBeGreaterThan(0);
    expect(counts.embedded).toBe(counts.chunks);
  });

  it('is invisible to another tenant: 404 on every endpoint', async () => {
    for (const path of [
      `/ingest/${reportId}/status`,
      `/ingest/${reportId}/sections`,
      `/ingest/${reportId}/events`,
    ]) {
      const res = await getJson<{ code: string }>(system, bob, path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const del = await getJson<{ code: string }>(system, bob, `/ingest/${reportId}`, {
      method: 'DELETE',
    });
    expect(del.status).toBe(404);
    expect((await getJson(system, alice, `/ingest/${reportId}/status`)).status).toBe(200);
  });
});

describe('the realtime channel', () => {
  it('replays the whole history after the fact and resumes after Last-Event-ID', async () => {
    const res = await upload(system, alice, {
      bytes: buildHtml(spec),
      filename: 'replay.html',
      type: 'text/html',
    });
    const live = await readEvents(system, alice, res.body.id);
    const replay = await readEvents(system, alice, res.body.id);
    expect(replay.map((e) => e.id)).toEqual(live.map((e) => e.id));
    const cut = live[3]!.id;
    const resumed = await readEvents(system, alice, res.body.id, { lastEventId: cut });
    expect(resumed.map((e) => e.id)).toEqual(live.filter((e) => e.id > cut).map((e) => e.id));
    expect(resumed[0]!.data.status).toBe(live[4]!.data.status);
  });
});

describe('a corrupt file', () => {
  it('ends failed with a clear ingestion_error, while a good report beside it reaches ready', async () => {
    const bad = await upload(system, alice, {
      bytes: corruptPdf(),
      filename: 'broken.pdf',
      type: 'application/pdf',
    });
    const good = await upload(system, alice, {
      bytes: buildHtml(spec),
      filename: 'fine.html',
      type: 'text/html',
    });
    expect(bad.status).toBe(202);
    const [badEvents, goodEvents] = await Promise.all([
      readEvents(system, alice, bad.body.id),
      readEvents(system, alice, good.body.id),
    ]);
    expect(badEvents.at(-1)?.event).toBe('StageFailed');
    expect(goodEvents.at(-1)?.event).toBe('ReportReady');
    const status = await waitForStatus(system, alice, bad.body.id, 'failed');
    expect(status.ingestion_error).toMatch(/^parse failed: .*PDF/);
    // Terminated on the first attempt: a damaged file is not retried.
    const { rows } = await system.db.pool.query(
      'SELECT outcome FROM stage_runs WHERE target_id = $1 AND stage = $2',
      [bad.body.id, 'parse'],
    );
    expect(rows).toEqual([{ outcome: 'failed' }]);
  });
});

describe('DELETE /ingest/{id}', () => {
  it('removes the report, its sections and chunks, and leaves the stored file', async () => {
    const res = await upload(system, alice, {
      bytes: buildHtml(spec),
      filename: 'gone.html',
      type: 'text/html',
    });
    await readEvents(system, alice, res.body.id);
    expect((await chunkCount(res.body.id)).chunks).toBeGreaterThan(0);
    const del = await getJson<{ id: string; deleted: boolean }>(
      system,
      alice,
      `/ingest/${res.body.id}`,
      { method: 'DELETE' },
    );
    expect(del).toEqual({ status: 200, body: { id: res.body.id, deleted: true } });
    expect((await getJson(system, alice, `/ingest/${res.body.id}/status`)).status).toBe(404);
    expect(await chunkCount(res.body.id)).toEqual({ chunks: 0, embedded: 0 });
    const { rows } = await system.db.pool.query(
      'SELECT count(*)::int AS n FROM sections WHERE report_id = $1',
      [res.body.id],
    );
    expect(rows[0]).toEqual({ n: 0 });
    expect(
      (await getJson(system, alice, `/ingest/${res.body.id}`, { method: 'DELETE' })).status,
    ).toBe(404);
  });
});
