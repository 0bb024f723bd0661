import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDetail, ReportSummary, SectionDetail, SectionInfo } from '@reports/contracts';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { pickSection } from '../src/reports/store.js';
import {
  multipart,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

let gw: TestGateway;
let alice: TestSession;

beforeAll(async () => {
  // No stage services run here: a synchronous upload waits its (short) bound and answers 202.
  gw = await startTestGateway({ REPORTS_SYNC_TIMEOUT_MS: '1500' });
  alice = await gw.signIn('alice@example.com');
});
afterAll(async () => {
  await gw?.close();
});

async function get<T>(session: TestSession, url: string) {
  const res = await gw.app.inject({
    method: 'GET',
    url,
    headers: session.headers(),
    remoteAddress: session.ip,
  });
  return { status: res.statusCode, body: res.json<T>() };
}

/** A v2 report as the pipeline leaves it: parse output and sections. */
async function v2Report(
  tenantId: string,
  fields: { title?: string; createdAt?: string; status?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await gw.db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, title, content_type, document_kind, size_bytes, sha256, object_key,
       status, parsed_markdown, clean_text, parsed_metadata, created_at)
     VALUES ($1, $2, 'survey.html', $3, 'text/html', 'html', 1234, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      tenantId,
      fields.title ?? 'Survey',
      'a'.repeat(64),
      `tenants/${tenantId}/reports/${id}/original/source.html`,
      fields.status ?? 'ready',
      '# Roof\n\nSlate.\n\n# Walls\n\nBrick.',
      'Roof Slate. Walls Brick.',
      JSON.stringify({ embedding_status: 'complete', sections: 2 }),
      fields.createdAt ?? new Date().toISOString(),
    ],
  );
  const sections = [
    ['Roof', 'roof', 'Slate.'],
    ['Walls & Windows', 'walls-windows', 'Brick and **timber**.'],
    ['roof', 'roof-1', 'A second roof section.'],
  ];
  for (const [order, [name, slug, md]] of sections.entries()) {
    await gw.db.pool.query(
      `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, page_start, page_end, markdown)
       VALUES ($1, $2, $3, $3, $4, $5, 1, $6, 1, 2, $7)`,
      [randomUUID(), tenantId, id, name, slug, order, md],
    );
  }
  return id;
}

/** A v1 report as a claim imports it: clean text, no parsed sections of its own needed. */
async function v1Report(tenantId: string): Promise<string> {
  const id = randomUUID();
  await gw.db.pool.query(
    `INSERT INTO reports (id, tenant_id, report_version, filename, title, content_type, document_kind, size_bytes, sha256,
       object_key, status, parsed_markdown, clean_text)
     VALUES ($1, $2, 1, 'legacy.md', 'Old survey', 'text/markdown', 'legacy', 10, $3, $4, 'ready', $5, $5)`,
    [
      id,
      tenantId,
      'b'.repeat(64),
      `tenants/${tenantId}/reports/${id}/original/legacy.md`,
      'Written in 2019.\n\n# Kitchen\nNew units.\n\n## Boiler\nServiced.',
    ],
  );
  return id;
}

describe('report reads', () => {
  it('lists the tenant’s reports newest first as ReportSummary, paged', async () => {
    const older = await v2Report(alice.user.active_tenant_id, {
      title: 'Older',
      createdAt: '2024-01-01T00:00:00Z',
    });
    const newer = await v2Report(alice.user.active_tenant_id, {
      title: 'Newer',
      createdAt: '2025-01-01T00:00:00Z',
    });
    const legacy = await v1Report(alice.user.active_tenant_id);
    const { status, body } = await get<ReportSummary[]>(alice, '/reports');
    expect(status).toBe(200);
    const ids = body.map((r) => r.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(ids).toContain(legacy);
    expect(body.find((r) => r.id === newer)).toEqual({
      id: newer,
      title: 'Newer',
      filename: 'survey.html',
      content_type: 'text/html',
      size_bytes: 1234,
      status: 'ready',
      report_version: 2,
      ingestion_started_at: null,
      ingestion_finished_at: null,
      ingestion_error: null,
      ingestion_cost_cents: 0,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: expect.any(String),
    });
    expect(body.find((r) => r.id === legacy)?.report_version).toBe(1);
    const page = await get<ReportSummary[]>(alice, '/reports?limit=1&offset=1');
    expect(page.body.map((r) => r.id)).toEqual([ids[1]]);
    expect((await get(alice, '/reports?limit=0')).status).toBe(422);
  });

  it('answers the detail with parsed_markdown, clean_text and parsed_metadata', async () => {
    const id = await v2Report(alice.user.active_tenant_id);
    const { status, body } = await get<ReportDetail>(alice, `/reports/${id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id,
      report_version: 2,
      parsed_markdown: '# Roof\n\nSlate.\n\n# Walls\n\nBrick.',
      clean_text: 'Roof Slate. Walls Brick.',
      parsed_metadata: { embedding_status: 'complete', sections: 2 },
      attachments: 0,
      sections: 3,
    });
  });

  it('lists a v2 report’s parsed sections without their bodies', async () => {
    const id = await v2Report(alice.user.active_tenant_id);
    const { status, body } = await get<SectionInfo[]>(alice, `/reports/${id}/sections`);
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        section_name: 'Roof',
        section_slug: 'roof',
        level: 1,
        order_in_doc: 0,
        page_start: 1,
        page_end: 2,
        char_count: 6,
      },
      {
        section_name: 'Walls & Windows',
        section_slug: 'walls-windows',
        level: 1,
        order_in_doc: 1,
        page_start: 1,
        page_end: 2,
        char_count: 21,
      },
      {
        section_name: 'roof',
        section_slug: 'roof-1',
        level: 1,
        order_in_doc: 2,
        page_start: 1,
        page_end: 2,
        char_count: 22,
      },
    ]);
  });

  it('splits a v1 report’s clean text at its headings', async () => {
    const id = await v1Report(alice.user.active_tenant_id);
    const sections = await get<SectionInfo[]>(alice, `/reports/${id}/sections`);
    expect(sections.body.map((s) => [s.section_name, s.section_slug, s.level])).toEqual([
      ['Old survey', 'old-survey', 0],
      ['Kitchen', 'kitchen', 1],
      ['Boiler', 'boiler', 2],
    ]);
    const boiler = await get<SectionDetail>(alice, `/reports/${id}/sections/Boiler`);
    expect(boiler.body).toMatchObject({ section_name: 'Boiler', markdown: 'Serviced.' });
    const detail = await get<ReportDetail>(alice, `/reports/${id}`);
    expect(detail.body).toMatchObject({
      report_version: 1,
      sections: 3,
      parsed_markdown: expect.stringContaining('# Kitchen'),
    });
  });

  it('answers one section by its name (URL-encoded), its slug, or its name in another case', async () => {
    const id = await v2Report(alice.user.active_tenant_id);
    const byName = await get<SectionDetail>(
      alice,
      `/reports/${id}/sections/${encodeURIComponent('Walls & Windows')}`,
    );
    expect(byName).toEqual({
      status: 200,
      body: {
        section_name: 'Walls & Windows',
        section_slug: 'walls-windows',
        level: 1,
        order_in_doc: 1,
        page_start: 1,
        page_end: 2,
        char_count: 21,
        markdown: 'Brick and **timber**.',
      },
    });
    expect(
      (await get<SectionDetail>(alice, `/reports/${id}/sections/walls-windows`)).body.order_in_doc,
    ).toBe(1);
    expect(
      (await get<SectionDetail>(alice, `/reports/${id}/sections/WALLS%20%26%20WINDOWS`)).body
        .order_in_doc,
    ).toBe(1);
    // An exact name wins over a case-insensitive one; a slug names one section exactly.
    expect(
      (await get<SectionDetail>(alice, `/reports/${id}/sections/roof`)).body.order_in_doc,
    ).toBe(2);
    expect(
      (await get<SectionDetail>(alice, `/reports/${id}/sections/Roof`)).body.order_in_doc,
    ).toBe(0);
    expect(
      (await get<SectionDetail>(alice, `/reports/${id}/sections/roof-1`)).body.order_in_doc,
    ).toBe(2);
    expect(await get(alice, `/reports/${id}/sections/Cellar`)).toEqual({
      status: 404,
      body: { code: 'not_found', detail: 'section not found' },
    });
  });

  it('answers 404 report not found for an unknown id and for a malformed one', async () => {
    for (const url of [
      `/reports/${randomUUID()}`,
      '/reports/not-a-uuid',
      `/reports/${randomUUID()}/sections`,
      `/reports/${randomUUID()}/sections/roof`,
    ]) {
      const res = await get<{ code: string }>(alice, url);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('answers 401 without a token', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/reports' });
    expect(res.statusCode).toBe(401);
  });
});

describe('the section name rule', () => {
  const sections = [
    { section_name: 'Roof', section_slug: 'roof' },
    { section_name: 'roof', section_slug: 'roof-1' },
    { section_name: 'Éaves', section_slug: 'eaves' },
  ];
  it('prefers an exact name, then a slug, then a name ignoring case', () => {
    expect(pickSection(sections, 'roof')).toBe(sections[1]);
    expect(pickSection(sections, 'ROOF')).toBe(sections[0]);
    expect(pickSection(sections, 'eaves')).toBe(sections[2]);
    expect(pickSection(sections, 'éaves')).toBe(sections[2]);
    expect(pickSection(sections, 'gutter')).toBeUndefined();
  });
});

describe('POST /reports (legacy synchronous upload)', () => {
  const html = buildHtml(sampleReportSpec({ sections: 2 }));

  it('records the upload like POST /ingest and answers 202 with the status when the wait runs out', async () => {
    const body = await multipart(
      { title: 'Sync' },
      { bytes: html, filename: 'sync.html', type: 'text/html' },
    );
    const res = await gw.app.inject({
      method: 'POST',
      url: '/reports',
      payload: body.payload,
      headers: { ...alice.headers(), ...body.headers },
      remoteAddress: alice.ip,
    });
    expect(res.statusCode).toBe(202);
    const status = res.json<{ id: string; status: string }>();
    expect(status).toMatchObject({ status: 'uploaded', ingestion_error: null });
    expect(res.headers.location).toBe(`/ingest/${status.id}/status`);
    const { rows } = await gw.db.pool.query('SELECT tenant_id, title FROM reports WHERE id = $1', [
      status.id,
    ]);
    expect(rows[0]).toEqual({ tenant_id: alice.user.active_tenant_id, title: 'Sync' });
  });

  it('answers 415 for a body that is not multipart and 400 without a file', async () => {
    const json = await gw.app.inject({
      method: 'POST',
      url: '/reports',
      payload: { file: 'x' },
      headers: alice.headers(),
      remoteAddress: alice.ip,
    });
    expect(json.statusCode).toBe(415);
    const empty = await multipart({ title: 'x' });
    const missing = await gw.app.inject({
      method: 'POST',
      url: '/reports',
      payload: empty.payload,
      headers: { ...alice.headers(), ...empty.headers },
      remoteAddress: alice.ip,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'missing_file' });
  });
});
