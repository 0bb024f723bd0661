import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetrieveResponse } from '@reports/contracts';
import { buildHtml, rowsOnceWritten, type ReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { freshIp, getJson, signIn, upload, waitForStatus, type Session } from './support/client.js';

// Retrieval through the whole system: a report uploaded through POST /ingest, processed by the
// stage services, then retrieved through the gateway and the retrieval service; the admin
// backfill re-embeds it through the embedding service.

const HASH = 'e2e-admin-hash-0123456789abcdef0123';
let system: RunningSystem;
let alice: Session;
let bob: Session;
let reportId: string;

const spec: ReportSpec = {
  title: 'Survey of 3 Mill Lane',
  sections: [
    {
      heading: 'Roof coverings',
      paragraphs: [
        'Several slates are missing from the rear roof slope and the ridge tiles are loose.',
      ],
    },
    {
      heading: 'Heating',
      paragraphs: [
        'The gas boiler was serviced in March; the flue terminal is too close to a window.',
      ],
    },
    {
      heading: 'Damp',
      paragraphs: ['Rising damp affects the cellar walls; the damp proof course has failed.'],
    },
  ],
};

function post(
  path: string,
  session: Session | null,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return getJson<Record<string, unknown>>(system, session, path, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'x-forwarded-for': session?.ip ?? freshIp(),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  system = await startSystem({ env: { ADMIN_HASH: HASH } });
  alice = await signIn(system, 'alice@example.com');
  bob = await signIn(system, 'bob@example.com');
  const res = await upload(system, alice, {
    bytes: buildHtml(spec),
    filename: 'survey.html',
    type: 'text/html',
  });
  expect(res.status).toBe(202);
  reportId = res.body.id;
  await waitForStatus(system, alice, reportId, 'ready', 90_000);
});
afterAll(async () => {
  await system?.stop();
});

describe('retrieval through the running system', () => {
  it('finds the chunk that answers the question, with both legs and a log id', async () => {
    const res = await post('/retrieve', alice, {
      query: 'which roof slates are missing',
      scope: { type: 'folder', report_id: reportId },
      top_k: 3,
    });
    expect(res.status).toBe(200);
    const body = RetrieveResponse.parse(res.body);
    expect(body.chunks[0]!.section_name).toBe('Roof coverings');
    expect(body.chunks[0]!.bm25_rank).toBe(1);
    expect(body.chunks[0]!.vector_rank).toBe(1);
    expect(body).toMatchObject({
      top_k: 3,
      fusion: 'hybrid_rrf',
      scope_type: 'folder',
      used_hyde: false,
      reranked: false,
    });
    const rows = await rowsOnceWritten(
      system.db.pool,
      'SELECT report_id FROM retrieval_logs WHERE id = $1',
      [body.retrieval_log_id],
    );
    expect(rows).toEqual([{ report_id: reportId }]);
  });

  it("answers 404 for another tenant's report", async () => {
    const res = await post('/retrieve', bob, {
      query: 'roof',
      scope: { type: 'folder', report_id: reportId },
    });
    expect(res.status).toBe(404);
  });

  it('re-embeds the report on the admin backfill, leaving the same chunks searchable', async () => {
    const before = await system.db.pool.query<{ id: string; content: string }>(
      'SELECT id, content FROM chunks WHERE report_id = $1 ORDER BY order_in_doc',
      [reportId],
    );
    const res = await post(`/admin/embed/report/${reportId}`, null, undefined, {
      'x-admin-hash': HASH,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'queued',
      target_kind: 'report',
      report_id: reportId,
    });
    const deadline = Date.now() + 30_000;
    let after = before.rows;
    while (Date.now() < deadline) {
      after = (
        await system.db.pool.query<{ id: string; content: string }>(
          'SELECT id, content FROM chunks WHERE report_id = $1 ORDER BY order_in_doc',
          [reportId],
        )
      ).rows;
      if (after.length === before.rows.length && after[0]?.id !== before.rows[0]?.id) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(after.map((c) => c.content)).toEqual(before.rows.map((c) => c.content));
    expect(after[0]!.id).not.toBe(before.rows[0]!.id);
    const admin = await post(
      `/admin/retrieve/${reportId}`,
      null,
      { query: 'boiler flue', top_k: 2 },
      { 'x-admin-hash': HASH },
    );
    expect(admin.status).toBe(200);
    expect(RetrieveResponse.parse(admin.body).chunks[0]!.section_name).toBe('Heating');
  });
});
