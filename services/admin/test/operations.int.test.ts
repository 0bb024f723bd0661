import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminOps, providerApiKeyContext } from '@reports/contracts';
import { createSecretBox, parseSecretsKey } from '@reports/platform';
import {
  SECRETS_KEY,
  insertReport,
  insertTenant,
  startTestAdmin,
  type TestAdmin,
} from './support.js';

let admin: TestAdmin;
let noSecrets: TestAdmin;

beforeAll(async () => {
  admin = await startTestAdmin({ SECRETS_KEY });
  noSecrets = await startTestAdmin();
});
afterAll(async () => {
  await admin?.close();
  await noSecrets?.close();
});

async function vote(fields: {
  tenant: string;
  report: string;
  value: 'up' | 'down';
  comment?: string;
  at?: string;
}): Promise<string> {
  const id = randomUUID();
  await admin.db.pool.query(
    `INSERT INTO feedback (id, message_id, user_id, tenant_id, report_id, conversation_id, value, comment, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [
      id,
      randomUUID(),
      randomUUID(),
      fields.tenant,
      fields.report,
      randomUUID(),
      fields.value,
      fields.comment ?? null,
      fields.at ?? new Date().toISOString(),
    ],
  );
  return id;
}

describe('feedback in the admin area', () => {
  let tenantA: string;
  let tenantB: string;
  let reportA: string;
  let reportB: string;

  beforeAll(async () => {
    tenantA = await insertTenant(admin.db, 'A');
    tenantB = await insertTenant(admin.db, 'B');
    reportA = await insertReport(admin.db, tenantA, { title: 'Report A' });
    reportB = await insertReport(admin.db, tenantB, { title: 'Report B' });
  });

  it('lists nothing before the chat writes any feedback', async () => {
    await expect(admin.call(AdminOps.feedbackList, {})).resolves.toEqual([]);
    await expect(admin.call(AdminOps.feedbackStats, {})).resolves.toEqual([]);
  });

  it('lists rows newest first, filtered by tenant, report and value', async () => {
    const old = await vote({
      tenant: tenantA,
      report: reportA,
      value: 'up',
      at: '2024-01-01T00:00:00Z',
    });
    const recent = await vote({
      tenant: tenantA,
      report: reportA,
      value: 'down',
      comment: 'wrong roof age',
    });
    const other = await vote({
      tenant: tenantB,
      report: reportB,
      value: 'up',
      at: '2024-06-01T00:00:00Z',
    });

    const all = await admin.call(AdminOps.feedbackList, {});
    expect(all.map((r) => r.id)).toEqual([recent, other, old]);
    expect(all[0]).toMatchObject({
      value: 'down',
      comment: 'wrong roof age',
      tenant_id: tenantA,
      report_id: reportA,
    });
    expect(
      (await admin.call(AdminOps.feedbackList, { tenant_id: tenantB })).map((r) => r.id),
    ).toEqual([other]);
    expect(
      (await admin.call(AdminOps.feedbackList, { report_id: reportA, value: 'up' })).map(
        (r) => r.id,
      ),
    ).toEqual([old]);
    expect(
      (await admin.call(AdminOps.feedbackList, { limit: 1, offset: 1 })).map((r) => r.id),
    ).toEqual([other]);
  });

  it('counts total, up and down per report, most rated first, also for a deleted report', async () => {
    const stats = await admin.call(AdminOps.feedbackStats, {});
    expect(stats).toEqual([
      { report_id: reportA, tenant_id: tenantA, title: 'Report A', total: 2, up: 1, down: 1 },
      { report_id: reportB, tenant_id: tenantB, title: 'Report B', total: 1, up: 1, down: 0 },
    ]);
    await admin.db.pool.query('DELETE FROM reports WHERE id = $1', [reportB]);
    expect((await admin.call(AdminOps.feedbackStats, { tenant_id: tenantB }))[0]).toMatchObject({
      report_id: reportB,
      title: null,
      total: 1,
    });
  });

  it('keeps one vote per user per message', async () => {
    const message = randomUUID();
    const user = randomUUID();
    const insert = () =>
      admin.db.pool.query(
        `INSERT INTO feedback (id, message_id, user_id, tenant_id, report_id, value) VALUES ($1, $2, $3, $4, $5, 'up')`,
        [randomUUID(), message, user, tenantA, reportA],
      );
    await insert();
    await expect(insert()).rejects.toThrow(/duplicate key/);
  });
});

describe('provider overrides', () => {
  const box = createSecretBox(parseSecretsKey(SECRETS_KEY)!);

  it('stores an override with its API key sealed, and never answers the key', async () => {
    const tenant = randomUUID();
    const saved = await admin.call(AdminOps.providersPut, {
      provider_id: 'openai',
      tenant_id: tenant,
      provider: 'openai',
      model: 'gpt-4.1-mini',
      base_url: 'https://llm.example.test/v1',
      api_key: 'sk-test-SECRET-123',
      enabled: true,
    });
    expect(saved).toMatchObject({
      tenant_id: tenant,
      provider_id: 'openai',
      provider: 'openai',
      model: 'gpt-4.1-mini',
      base_url: 'https://llm.example.test/v1',
      enabled: true,
      has_api_key: true,
    });
    expect(JSON.stringify(saved)).not.toContain('SECRET');
    const listed = await admin.call(AdminOps.providersList, { tenant_id: tenant });
    expect(listed).toEqual([saved]);
    expect(JSON.stringify(listed)).not.toContain('SECRET');

    const { rows } = await admin.db.pool.query(
      'SELECT api_key_encrypted FROM provider_overrides WHERE tenant_id = $1',
      [tenant],
    );
    expect(rows[0].api_key_encrypted).not.toContain('SECRET');
    // What the chat does to use it: open with the same key and the row's context.
    expect(box.open(rows[0].api_key_encrypted, providerApiKeyContext(tenant, 'openai'))).toBe(
      'sk-test-SECRET-123',
    );
    expect(() =>
      box.open(rows[0].api_key_encrypted, providerApiKeyContext(randomUUID(), 'openai')),
    ).toThrow();
  });

  it('keeps the stored key when a PUT leaves api_key out, and removes it on null', async () => {
    const tenant = randomUUID();
    const base = {
      provider_id: 'mistral-main',
      tenant_id: tenant,
      provider: 'mistral' as const,
      model: 'mistral-large',
      enabled: true,
    };
    await admin.call(AdminOps.providersPut, { ...base, api_key: 'key-1' });
    const kept = await admin.call(AdminOps.providersPut, {
      ...base,
      model: 'mistral-small',
      enabled: false,
    });
    expect(kept).toMatchObject({
      model: 'mistral-small',
      enabled: false,
      has_api_key: true,
      base_url: null,
    });
    const removed = await admin.call(AdminOps.providersPut, { ...base, api_key: null });
    expect(removed.has_api_key).toBe(false);
    expect(removed.updated_at >= removed.created_at).toBe(true);
  });

  it('refuses to store an API key without SECRETS_KEY (503) but stores an override without one', async () => {
    const tenant = randomUUID();
    const base = {
      provider_id: 'openai',
      tenant_id: tenant,
      provider: 'openai' as const,
      model: 'gpt-x',
      enabled: true,
    };
    await expect(
      noSecrets.call(AdminOps.providersPut, { ...base, api_key: 'sk-live' }),
    ).rejects.toMatchObject({
      status: 503,
      code: 'secrets_unavailable',
    });
    const { rowCount } = await noSecrets.db.pool.query('SELECT 1 FROM provider_overrides');
    expect(rowCount).toBe(0);
    await expect(noSecrets.call(AdminOps.providersPut, base)).resolves.toMatchObject({
      has_api_key: false,
    });
  });

  it('lists every tenant’s overrides ordered by tenant and provider id', async () => {
    const all = await admin.call(AdminOps.providersList, {});
    const keys = all.map((o) => `${o.tenant_id}/${o.provider_id}`);
    expect(keys).toEqual([...keys].sort());
    expect(all.length).toBeGreaterThanOrEqual(2);
  });
});

describe('cost tracking', () => {
  async function run(fields: {
    tenant: string;
    report: string;
    stage: string;
    cost: number;
    model?: string;
    provider?: string;
    daysAgo?: number;
  }): Promise<void> {
    const target = fields.report;
    await admin.db.pool.query(
      `INSERT INTO stage_runs (id, tenant_id, report_id, target_kind, target_id, stage, generation, attempt, outcome,
         started_at, finished_at, duration_ms, provider, model, cost_cents)
       VALUES ($1, $2, $3, 'report', $4, $5, 1, 1, 'done', now() - make_interval(days => $6), now() - make_interval(days => $6), 5, $7, $8, $9)`,
      [
        randomUUID(),
        fields.tenant,
        fields.report,
        target,
        fields.stage,
        fields.daysAgo ?? 0,
        fields.provider ?? null,
        fields.model ?? null,
        fields.cost,
      ],
    );
  }

  it('ranks the ten costliest tenants of the window, with the total over all tenants', async () => {
    const tenants: string[] = [];
    for (let i = 0; i < 12; i++) {
      const t = await insertTenant(admin.db, `cost-${i}`);
      tenants.push(t);
      await run({ tenant: t, report: randomUUID(), stage: 'parse', cost: 100 + i });
      await run({ tenant: t, report: randomUUID(), stage: 'embed', cost: 1 });
    }
    // Old spending is outside a 7-day window.
    await run({
      tenant: tenants[0]!,
      report: randomUUID(),
      stage: 'parse',
      cost: 100_000,
      daysAgo: 40,
    });

    const week = await admin.call(AdminOps.costGlobal, { days: 7 });
    expect(week.days).toBe(7);
    expect(week.tenants).toHaveLength(10);
    expect(week.tenants[0]).toEqual({
      tenant_id: tenants[11],
      tenant_name: 'cost-11',
      cost_cents: 112,
      reports: 2,
      runs: 2,
    });
    expect(week.tenants.map((t) => t.tenant_id)).not.toContain(tenants[0]);
    expect(week.total_cost_cents).toBeGreaterThanOrEqual(12 * 101 + 66);
    expect(Date.parse(week.since)).toBeLessThan(Date.now() - 6 * 86_400_000);

    const quarter = await admin.call(AdminOps.costGlobal, { days: 90 });
    expect(quarter.tenants[0]?.tenant_id).toBe(tenants[0]);
    expect(quarter.total_cost_cents - week.total_cost_cents).toBe(100_000);
  });

  it('breaks one tenant down by stage and by model, with its costliest reports', async () => {
    const tenant = await insertTenant(admin.db, 'breakdown');
    const big = await insertReport(admin.db, tenant, { title: 'Big one' });
    const small = await insertReport(admin.db, tenant, { title: 'Small one' });
    await run({
      tenant,
      report: big,
      stage: 'parse',
      cost: 50,
      provider: 'mistral',
      model: 'mistral-ocr',
    });
    await run({
      tenant,
      report: big,
      stage: 'annotate',
      cost: 30,
      provider: 'openai',
      model: 'gpt-4o',
    });
    await run({
      tenant,
      report: small,
      stage: 'parse',
      cost: 5,
      provider: 'mistral',
      model: 'mistral-ocr',
    });
    await run({
      tenant,
      report: small,
      stage: 'embed',
      cost: 0,
      provider: 'local',
      model: 'local-hash-1536',
    });
    await run({ tenant, report: small, stage: 'parse', cost: 999, daysAgo: 100 });

    const cost = await admin.call(AdminOps.costTenant, { tenant_id: tenant, days: 30 });
    expect(cost).toMatchObject({
      tenant_id: tenant,
      tenant_name: 'breakdown',
      days: 30,
      total_cost_cents: 85,
    });
    expect(cost.by_stage).toEqual([
      { stage: 'parse', cost_cents: 55, runs: 2 },
      { stage: 'annotate', cost_cents: 30, runs: 1 },
      { stage: 'embed', cost_cents: 0, runs: 1 },
    ]);
    expect(cost.by_model).toEqual([
      { provider: 'mistral', model: 'mistral-ocr', cost_cents: 55, runs: 2 },
      { provider: 'openai', model: 'gpt-4o', cost_cents: 30, runs: 1 },
      { provider: 'local', model: 'local-hash-1536', cost_cents: 0, runs: 1 },
    ]);
    expect(cost.top_reports).toEqual([
      { report_id: big, title: 'Big one', cost_cents: 80, runs: 2 },
      { report_id: small, title: 'Small one', cost_cents: 5, runs: 2 },
    ]);
  });

  it('answers zeros for a known tenant without cost, and 404 for an unknown tenant', async () => {
    const quiet = await insertTenant(admin.db, 'quiet');
    await expect(
      admin.call(AdminOps.costTenant, { tenant_id: quiet, days: 30 }),
    ).resolves.toMatchObject({
      total_cost_cents: 0,
      by_stage: [],
      by_model: [],
      top_reports: [],
    });
    await expect(
      admin.call(AdminOps.costTenant, { tenant_id: randomUUID(), days: 30 }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});
