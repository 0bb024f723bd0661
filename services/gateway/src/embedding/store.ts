import type { Pool } from '@reports/platform';

/** Reads of the embed backfill route: which tenant and report an embed target belongs to. */

/** The target's report and tenant, in any tenant (admin). */
export async function findTarget(
  pool: Pool,
  kind: 'report' | 'attachment',
  id: string,
): Promise<{ tenant_id: string; report_id: string } | null> {
  const { rows } = await pool.query<{ tenant_id: string; report_id: string }>(
    kind === 'report'
      ? 'SELECT tenant_id, id AS report_id FROM reports WHERE id = $1'
      : 'SELECT tenant_id, report_id FROM attachments WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}
