import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ClaimResult,
  MigrateStats,
  MigrateStatus,
  ReportDetail,
  ReportSummary,
  SectionInfo,
} from '@reports/contracts';
import { buildHtml, corruptPdf, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { getJson, readEvents, signIn, waitForStatus, type Session } from './support/client.js';

const ADMIN_HASH = 'legacy-admin-hash-0123456789abcdef';
const admin = { 'x-admin-hash': ADMIN_HASH, 'content-type': 'application/json' };

let system: RunningSystem;
let grace: Session;
let bob: Session;

const KITCHEN =
  '# Kitchen\nThe kitchen units were replaced in 2018; the extractor vents into the loft.';
const ROOF =
  'Roof\n====\nConcrete interlocking tiles, moss on the north slope, valley gutter blocked.';

beforeAll(async () => {
  system = await startSystem({ env: { ADMIN_HASH, REPORTS_SYNC_TIMEOUT_MS: '90000' } });
  // The v1 export: Grace owns two reports, loaded by an operator.
  for (const [title, text, created] of [
    ['Survey 2019', `Inspected in spring.\n\n${KITCHEN}`, '2019-04-01T10:00:00Z'],
    ['Survey 2020', ROOF, '2020-05-01T10:00:00Z'],
  ] as const) {
    await system.db.pool.query(
      `INSERT INTO legacy_reports (id, owner_email, title, filename, clean_text, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [randomUUID(), 'grace@example.com', title, `${title}.txt`, text, created],
    );
  }
  grace = await signIn(system, 'Grace@Example.com');
  bob = await signIn(system, 'bob@example.com');
}, 180_000);

afterAll(async () => {
  await system?.stop();
});

function post<T>(
  session: Session | null,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
) {
  return getJson<T>(system, session, path, {
    method: 'POST',
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

describe('the legacy claim flow, end to end', () => {
  let claimed: ClaimResult;

  it('answers none until an operator pre-authorises the email', async () => {
    expect((await getJson<MigrateStatus>(system, grace, '/migrate/status')).body).toEqual({
      status: 'none',
      reports: 0,
      claimed_at: null,
    });
    const refused = await post(grace, '/migrate/claim');
    expect(refused.status).toBe(404);
  });

  it('pre-authorises through the admin area, after which the claim is ready', async () => {
    const res = await post(null, '/admin/migrate/preauth', admin, { email: 'grace@example.com' });
    expect(res).toEqual({
      status: 200,
      body: { email: 'grace@example.com', status: 'ready', reports: 2, created: true },
    });
    expect((await getJson<MigrateStatus>(system, grace, '/migrate/status')).body).toMatchObject({
      status: 'ready',
      reports: 2,
    });
  });

  it('claims: the v1 reports become report_version 1 reports of Grace’s tenant and go through annotate, embed and finalize', async () => {
    const res = await post<ClaimResult>(grace, '/migrate/claim');
    expect(res.status).toBe(200);
    claimed = res.body;
    expect(claimed).toMatchObject({ status: 'claimed', reports: 2, already_claimed: false });
    for (const id of claimed.report_ids) {
      const events = await readEvents(system, grace, id, { timeoutMs: 90_000 });
      const statuses = events.map((e) => e.data.status).filter((s, i, all) => s !== all[i - 1]);
      expect(statuses).toEqual(['parsed', 'annotated', 'embedding', 'embedded', 'ready']);
      // The status projection trails the channel by a moment (ADR 009).
      await waitForStatus(system, grace, id, 'ready', 30_000);
    }
    const list = await getJson<ReportSummary[]>(system, grace, '/reports');
    const mine = list.body.filter((r) => claimed.report_ids.includes(r.id));
    expect(mine.map((r) => [r.title, r.report_version])).toEqual([
      ['Survey 2020', 1],
      ['Survey 2019', 1],
    ]);
  });

  it('serves their sections by the heading split of the clean text, and their detail', async () => {
    const list = await getJson<ReportSummary[]>(system, grace, '/reports');
    const survey2019 = list.body.find((r) => r.title === 'Survey 2019')!;
    const sections = await getJson<SectionInfo[]>(
      system,
      grace,
      `/reports/${survey2019.id}/sections`,
    );
    expect(sections.body.map((s) => [s.section_name, s.level])).toEqual([
      ['Survey 2019', 0],
      ['Kitchen', 1],
    ]);
    const kitchen = await getJson<{ markdown: string }>(
      system,
      grace,
      `/reports/${survey2019.id}/sections/kitchen`,
    );
    expect(kitchen.body.markdown).toContain('extractor vents into the loft');
    const detail = await getJson<ReportDetail>(system, grace, `/reports/${survey2019.id}`);
    expect(detail.body).toMatchObject({
      report_version: 1,
      status: 'ready',
      clean_text: `Inspected in spring.\n\n${KITCHEN}`,
      parsed_metadata: { embedding_status: 'complete' },
    });
  });

  it('makes them retrievable like any report: chunks with embeddings, found by POST /retrieve', async () => {
    const { rows } = await system.db.pool.query(
      'SELECT count(*)::int AS chunks, count(embedding)::int AS embedded FROM chunks WHERE report_id = ANY($1::uuid[])',
      [claimed.report_ids],
    );
    expect(rows[0].chunks).toBeGreaterThanOrEqual(2);
    expect(rows[0].embedded).toBe(rows[0].chunks);
    const list = await getJson<ReportSummary[]>(system, grace, '/reports');
    const survey2020 = list.body.find((r) => r.title === 'Survey 2020')!;
    const found = await post<{ chunks: Array<{ content: string; report_id: string }> }>(
      grace,
      '/retrieve',
      { 'content-type': 'application/json' },
      {
        query: 'valley gutter blocked moss',
        scope: { type: 'folder', report_id: survey2020.id },
        top_k: 3,
      },
    );
    expect(found.status).toBe(200);
    expect(found.body.chunks[0]?.report_id).toBe(survey2020.id);
    expect(found.body.chunks.map((c) => c.content).join(' ')).toContain('valley gutter blocked');
  });

  it('is idempotent: a second claim answers the same reports and imports nothing', async () => {
    const again = await post<ClaimResult>(grace, '/migrate/claim');
    expect(again.body).toMatchObject({ status: 'claimed', reports: 2, already_claimed: true });
    expect([...again.body.report_ids].sort()).toEqual([...claimed.report_ids].sort());
    const { rows } = await system.db.pool.query(
      'SELECT count(*)::int AS n FROM reports WHERE report_version = 1',
    );
    expect(rows[0].n).toBe(2);
    expect((await getJson<MigrateStatus>(system, grace, '/migrate/status')).body).toMatchObject({
      status: 'claimed',
      reports: 2,
    });
  });

  it('keeps the claimed reports inside Grace’s tenant', async () => {
    for (const id of claimed.report_ids) {
      expect((await getJson(system, bob, `/reports/${id}`)).status).toBe(404);
    }
    expect((await getJson<MigrateStatus>(system, bob, '/migrate/status')).body.status).toBe('none');
  });

  it('counts the flow in the stats', async () => {
    const stats = await getJson<MigrateStats>(system, null, '/admin/migrate/stats', {
      headers: admin,
    });
    expect(stats.body).toMatchObject({
      legacy_reports: 2,
      legacy_owners: 1,
      preauthorized: 1,
      claimed: 1,
      claimed_reports: 2,
      claimed_reports_ready: 2,
      unclaimed_reports: 0,
    });
  });

  it('reverses the claim: the reports are gone and the claim is ready again', async () => {
    const res = await post(null, '/admin/migrate/reverse-claim', admin, {
      email: 'grace@example.com',
    });
    expect(res.body).toEqual({ email: 'grace@example.com', status: 'ready', removed_reports: 2 });
    for (const id of claimed.report_ids)
      expect((await getJson(system, grace, `/reports/${id}`)).status).toBe(404);
    expect((await getJson<MigrateStatus>(system, grace, '/migrate/status')).body).toMatchObject({
      status: 'ready',
      reports: 2,
    });
    const stats = await getJson<MigrateStats>(system, null, '/admin/migrate/stats', {
      headers: admin,
    });
    expect(stats.body).toMatchObject({ claimed: 0, ready: 1, reversed: 1, claimed_reports: 0 });
  });
});

describe('the legacy synchronous POST /reports', () => {
  async function postReport(file: { bytes: Buffer; filename: string; type: string }) {
    const form = new FormData();
    form.set('title', 'Synchronous');
    form.set('file', new Blob([file.bytes], { type: file.type }), file.filename);
    const res = await fetch(`${system.url}/reports`, {
      method: 'POST',
      headers: bob.headers(),
      body: form,
    });
    return {
      status: res.status,
      body: (await res.json()) as ReportDetail & { code?: string; detail?: string },
    };
  }

  it('answers 201 with the ready report once processing is done', async () => {
    const res = await postReport({
      bytes: buildHtml(sampleReportSpec({ sections: 3 })),
      filename: 'sync.html',
      type: 'text/html',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'ready',
      title: 'Synchronous',
      report_version: 2,
      parsed_metadata: { embedding_status: 'complete' },
    });
    expect(res.body.sections).toBeGreaterThan(0);
    expect(res.body.parsed_markdown).toBeTruthy();
  });

  it('answers 422 ingestion_failed with the ingestion error when the document cannot be processed', async () => {
    const res = await postReport({
      bytes: corruptPdf(),
      filename: 'broken.pdf',
      type: 'application/pdf',
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('ingestion_failed');
    expect(res.body.detail).toMatch(/failed/);
  });
});
