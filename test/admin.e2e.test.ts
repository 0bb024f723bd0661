import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CostGlobal,
  CostTenant,
  FeedbackRow,
  FeedbackStat,
  ProviderOverride,
} from '@reports/contracts';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { getJson, signIn, upload, waitForStatus, type Session } from './support/client.js';

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
