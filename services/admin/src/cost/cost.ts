import {
  AppError,
  type CostGlobal,
  type CostQuery,
  type CostTenant,
  type CostTenantRequest,
} from '@reports/contracts';
import type { Pool } from '@reports/platform';

/**
 * Cost reports read the `cost_events` view only (stage attempts today; the chat
 * adds its messages to the view by UNION ALL), over the last `days` days.
 */
const WINDOW = `occurred_at >= $1`;

const TOP = 10;

/** Start of the window by the database's clock, so every query of one answer uses the same one. */
async function windowStart(pool: Pool, days: number): Promise<Date> {
  const { rows } = await pool.query<{ since: Date }>(
    'SELECT now() - make_interval(days => $1) AS since',
    [days],
  );
  return rows[0]!.since;
}

/** The ten tenants that cost most in the window, with the window's total over all tenants. */
export async function globalCost(pool: Pool, q: CostQuery): Promise<CostGlobal> {
  const since = await windowStart(pool, q.days);
  const [{ rows: tenants }, { rows: totals }] = await Promise.all([
    pool.query<CostGlobal['tenants'][number]>(
      `SELECT e.tenant_id, t.name AS tenant_name,
              sum(e.cost_cents)::bigint AS cost_cents,
              count(DISTINCT e.report_id)::int AS reports,
              count(*)::int AS runs
         FROM cost_events e
         LEFT JOIN tenants t ON t.id = e.tenant_id
        WHERE ${WINDOW}
        GROUP BY e.tenant_id, t.name
        ORDER BY cost_cents DESC, runs DESC, e.tenant_id
        LIMIT ${TOP}`,
      [since],
    ),
    pool.query<{ total: number }>(
      `SELECT COALESCE(sum(cost_cents), 0)::bigint AS total FROM cost_events WHERE ${WINDOW}`,
      [since],
    ),
  ]);
  return {
    days: q.days,
    since: since.toISOString(),
    total_cost_cents: totals[0]?.total ?? 0,
    tenants,
  };
}

/**
 * One tenant's cost in the window: by stage (or chat), by provider and model, and
 * its ten costliest reports. 404 for a tenant the system has never heard of.
 */
export async function tenantCost(pool: Pool, q: CostTenantRequest): Promise<CostTenant> {
  const { rows: known } = await pool.query<{ name: string | null }>(
    `SELECT (SELECT name FROM tenants WHERE id = $1) AS name
      WHERE EXISTS (SELECT 1 FROM tenants WHERE id = $1)
         OR EXISTS (SELECT 1 FROM cost_events WHERE tenant_id = $1)`,
    [q.tenant_id],
  );
  if (!known[0]) throw new AppError('not_found', 'tenant not found');
  const since = await windowStart(pool, q.days);
  const args = [since, q.tenant_id];
  const scope = `${WINDOW} AND e.tenant_id = $2`;
  const [byStage, byModel, topReports] = await Promise.all([
    pool.query<CostTenant['by_stage'][number]>(
      `SELECT e.kind AS stage, sum(e.cost_cents)::bigint AS cost_cents, count(*)::int AS runs
         FROM cost_events e WHERE ${scope}
        GROUP BY e.kind ORDER BY cost_cents DESC, e.kind`,
      args,
    ),
    pool.query<CostTenant['by_model'][number]>(
      `SELECT e.provider, e.model, sum(e.cost_cents)::bigint AS cost_cents, count(*)::int AS runs
         FROM cost_events e WHERE ${scope}
        GROUP BY e.provider, e.model ORDER BY cost_cents DESC, e.provider NULLS LAST, e.model NULLS LAST`,
      args,
    ),
    pool.query<CostTenant['top_reports'][number]>(
      `SELECT e.report_id, r.title, sum(e.cost_cents)::bigint AS cost_cents, count(*)::int AS runs
         FROM cost_events e LEFT JOIN reports r ON r.id = e.report_id
        WHERE ${scope}
        GROUP BY e.report_id, r.title ORDER BY cost_cents DESC, runs DESC, e.report_id
        LIMIT ${TOP}`,
      args,
    ),
  ]);
  return {
    tenant_id: q.tenant_id,
    tenant_name: known[0].name,
    days: q.days,
    since: since.toISOString(),
    total_cost_cents: byStage.rows.reduce((sum, r) => sum + r.cost_cents, 0),
    by_stage: byStage.rows,
    by_model: byModel.rows,
    top_reports: topReports.rows,
  };
}
