import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CostGlobal,
  CostTenant,
  FeedbackRow,
  FeedbackStat,
  ProviderOverride,
  RetrievalQueryList,
  RetrievalStats,
} from '@reports/contracts';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { getJson, signIn, upload, waitForStatus, type Session } from './support/client.js';
import { chat } from './support/chat.js';

const ADMIN_HASH = 'admin-e2e-hash-0123456789abcdef0123';
const headers = { 'x-admin-hash': ADMIN_HASH };

let system: RunningSystem;
let alice: Session;
let reportId: string;

beforeAll(async () => {
  system = await startSystem({
    env: { ADMIN_HASH, SECRETS_KEY: randomBytes(32).toString('base64') },
  });
  alice = await signIn(system, 'alice@example.com');
  const up = await upload(
    system,
    alice,
    { bytes: buildHtml(sampleReportSpec({ sections: 2 })), filename: 'a.html', type: 'text/html' },
    'Costed report',
  );
  reportId = up.body.id;
  await waitForStatus(system, alice, reportId, 'ready', 90_000);
}, 180_000);

afterAll(async () => {
  await system?.stop();
});

describe('the admin area through the gateway and the admin service', () => {
  it('verifies the hash from the header or the query, and refuses a wrong one', async () => {
    expect(await getJson(system, null, '/admin/verify', { headers })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await getJson(system, null, `/admin/verify?hash=${ADMIN_HASH}`)).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(
      await getJson(system, null, '/admin/verify', { headers: { 'x-admin-hash': 'nope' } }),
    ).toEqual({
      status: 403,
      body: { code: 'forbidden', detail: 'forbidden' },
    });
  });

  it('shows the pipeline’s cost: the tenant among the top tenants, broken down by stage and model, with its report', async () => {
    const global = await getJson<CostGlobal>(system, null, '/admin/cost/global?days=7', {
      headers,
    });
    expect(global.status).toBe(200);
    expect(global.body.tenants.map((t) => t.tenant_id)).toContain(alice.user.active_tenant_id);
    const tenant = await getJson<CostTenant>(
      system,
      null,
      `/admin/cost/tenant/${alice.user.active_tenant_id}?days=7`,
      { headers },
    );
    expect(tenant.status).toBe(200);
    expect(tenant.body.tenant_name).toBe('alice@example.com');
    expect(tenant.body.by_stage.map((s) => s.stage)).toEqual(
      expect.arrayContaining(['scan', 'parse', 'annotate', 'embed', 'finalize']),
    );
    expect(tenant.body.by_model.length).toBeGreaterThan(0);
    expect(tenant.body.top_reports[0]).toMatchObject({
      report_id: reportId,
      title: 'Costed report',
    });
    const unknown = await getJson(system, null, `/admin/cost/tenant/${randomUUID()}`, { headers });
    expect(unknown.status).toBe(404);
  });

  it('lists feedback rows and per-report stats (rows as the chat will write them)', async () => {
    expect(
      (await getJson<FeedbackRow[]>(system, null, '/admin/feedback', { headers })).body,
    ).toEqual([]);
    for (const value of ['up', 'up', 'down']) {
      await system.db.pool.query(
        `INSERT INTO feedback (id, message_id, user_id, tenant_id, report_id, value, comment) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          randomUUID(),
          randomUUID(),
          alice.user.id,
          alice.user.active_tenant_id,
          reportId,
          value,
          value === 'down' ? 'missed the damp' : null,
        ],
      );
    }
    const rows = await getJson<FeedbackRow[]>(system, null, '/admin/feedback?value=down', {
      headers,
    });
    expect(rows.body).toHaveLength(1);
    expect(rows.body[0]).toMatchObject({
      report_id: reportId,
      comment: 'missed the damp',
      user_id: alice.user.id,
    });
    const stats = await getJson<FeedbackStat[]>(system, null, '/admin/feedback/stats', { headers });
    expect(stats.body).toEqual([
      {
        report_id: reportId,
        tenant_id: alice.user.active_tenant_id,
        title: 'Costed report',
        total: 3,
        up: 2,
        down: 1,
      },
    ]);
  });

  it('stores a tenant’s provider override with its key encrypted, and never answers the key', async () => {
    const put = await getJson<ProviderOverride>(system, null, '/admin/providers/openai-main', {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        tenant_id: alice.user.active_tenant_id,
        provider: 'openai',
        model: 'gpt-4.1-mini',
        base_url: 'https://llm.example.test/v1',
        api_key: 'sk-e2e-DO-NOT-LEAK',
      }),
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      provider_id: 'openai-main',
      has_api_key: true,
      enabled: true,
    });
    const list = await getJson<ProviderOverride[]>(system, null, '/admin/providers', { headers });
    expect(list.body.map((p) => p.provider_id)).toEqual(['openai-main']);
    expect(JSON.stringify([put.body, list.body])).not.toContain('DO-NOT-LEAK');
    const { rows } = await system.db.pool.query<{ api_key_encrypted: string }>(
      'SELECT api_key_encrypted FROM provider_overrides',
    );
    expect(rows[0]!.api_key_encrypted).toMatch(/^v1\./);
    expect(rows[0]!.api_key_encrypted).not.toContain('DO-NOT-LEAK');
    expect(system.logs.some((l) => l.line.includes('DO-NOT-LEAK'))).toBe(false);
  });
});

describe('retrieval analytics (ADR 134)', () => {
  /** A tenant of made-up log rows, to check figures exactly. */
  const logged = randomUUID();
  const today = () => new Date().toISOString().slice(0, 10);

  it('adds up real retrievals, chat turns and thumbs of a tenant', async () => {
    for (const query of ['roof covering', 'boiler service']) {
      const res = await getJson(system, alice, '/retrieve', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, scope: { type: 'folder', report_id: reportId } }),
      });
      expect(res.status).toBe(200);
    }
    const turn = await chat(system, alice, {
      report_id: reportId,
      message: 'What is the roof made of?',
      model: 'local-extractive',
    });
    expect(turn.start?.mode).toBe('rag');
    const thumbs = await getJson(system, alice, '/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message_id: turn.end!.message_id, value: 'up' }),
    });
    expect(thumbs.status).toBe(204);

    const tenant = alice.user.active_tenant_id;
    const stats = await getJson<RetrievalStats>(
      system,
      null,
      `/admin/retrieval/stats?days=7&tenant_id=${tenant}`,
      { headers },
    );
    expect(stats.status).toBe(200);
    // Two retrievals and the chat turn's own.
    expect(stats.body).toMatchObject({
      days: 7,
      tenant_id: tenant,
      queries: 3,
      zero_results: 0,
      zero_result_rate: 0,
      per_day: [{ day: today(), queries: 3, zero_results: 0 }],
      chat: { turns: 1, fallback_turns: 0, fallback_rate: 0, fallback_reasons: [] },
    });
    expect(stats.body.chat.feedback).toContainEqual({ mode: 'rag', up: 1, down: 0, up_ratio: 1 });
  });

  it('gives exact rates and histogram percentiles, and lists the queries that found nothing', async () => {
    const rows: Array<[number, boolean, boolean, string | null, boolean]> = [
      // embed_ms, used_hyde, reranked, rerank_error, found something
      [3, true, true, null, true],
      [3, true, false, 'rerank timed out', false],
      [40, false, false, null, true],
      [200, false, false, null, false],
    ];
    for (const [i, [embed, hyde, reranked, rerankError, found]] of rows.entries()) {
      await system.db.pool.query(
        `INSERT INTO retrieval_logs (id, tenant_id, report_id, caller, scope_type, query, top_k, legs,
           keyword_backend, used_hyde, reranked, rerank_error, keyword_candidates, vector_candidates,
           embed_ms, keyword_ms, vector_ms, retrieval_ms, rerank_ms, total_ms, results, created_at)
         VALUES ($1, $2, $3, 'user', 'folder', $4, 6, 'hybrid', 'bm25', $5, $6, $7, 0, 0, $8, 1, 1, 5, 0, $8 + 5, $9,
                 now() - make_interval(secs => $10))`,
        [
          randomUUID(),
          logged,
          randomUUID(),
          `query ${i}`,
          hyde,
          reranked,
          rerankError,
          embed,
          found ? JSON.stringify([{ chunk_id: randomUUID(), rank: 1 }]) : '[]',
          10 - i,
        ],
      );
    }
    const stats = await getJson<RetrievalStats>(
      system,
      null,
      `/admin/retrieval/stats?days=1&tenant_id=${logged}`,
      { headers },
    );
    expect(stats.body).toMatchObject({
      queries: 4,
      zero_results: 2,
      zero_result_rate: 0.5,
      per_day: [{ day: today(), queries: 4, zero_results: 2 }],
      hyde_rate: 0.5,
      rerank_rate: 0.25,
      rerank_fallbacks: 1,
      // 3, 3, 40, 200 ms: the median falls in the 3 ms bucket, the 95th in the 200 ms one.
      latency_ms: {
        embed: { p50: 3, p95: 200 },
        retrieval: { p50: 5, p95: 5 },
        rerank: { p50: 0, p95: 0 },
      },
      chat: { turns: 0, feedback: [] },
    });

    const zero = await getJson<RetrievalQueryList>(
      system,
      null,
      `/admin/retrieval/queries?days=1&tenant_id=${logged}&zero_results=true`,
      { headers },
    );
    expect(zero.body.map((r) => [r.query, r.result_count])).toEqual([
      ['query 3', 0],
      ['query 1', 0],
    ]);
    const all = await getJson<RetrievalQueryList>(
      system,
      null,
      `/admin/retrieval/queries?days=1&tenant_id=${logged}&limit=3`,
      { headers },
    );
    expect(all.body.map((r) => r.query)).toEqual(['query 3', 'query 2', 'query 1']);
    // Every tenant: at least these and alice's.
    const everyone = await getJson<RetrievalStats>(system, null, '/admin/retrieval/stats', {
      headers,
    });
    expect(everyone.body).toMatchObject({ days: 7, tenant_id: null });
    expect(everyone.body.queries).toBeGreaterThanOrEqual(7);
  });

  it('refuses bad windows (422) and callers without the admin hash (403)', async () => {
    for (const query of ['days=0', 'days=366', 'days=x', 'zero_results=maybe', 'tenant_id=nope']) {
      const res = await getJson(system, null, `/admin/retrieval/queries?${query}`, { headers });
      expect(res.status, query).toBe(422);
    }
    expect((await getJson(system, null, '/admin/retrieval/stats?days=0', { headers })).status).toBe(
      422,
    );
    expect((await getJson(system, alice, '/admin/retrieval/stats')).status).toBe(403);
    expect((await getJson(system, null, '/admin/retrieval/queries')).status).toBe(403);
  });
});
