import { createHash, randomUUID } from 'node:crypto';
import type { MigrateStats } from '@reports/contracts';
import type { LegacySection } from '@reports/documents';
import type { Pool, PoolClient } from '@reports/platform';

/**
 * The v1 claim flow's tables (legacy_reports, legacy_claims, legacy_claimed_reports) and the
 * rows a claim writes into reports and sections: every query of the flow, named. The flow in
 * claims.ts decides; this module reads and writes.
 */

type Db = Pool | PoolClient;

export type ClaimStatus = 'ready' | 'claimed';

export interface LegacyRow {
  id: string;
  title: string | null;
  filename: string | null;
  clean_text: string;
  metadata: Record<string, unknown>;
  created_at: Date;
}

async function count(db: Db, sql: string, args: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql, args);
  return rows[0]?.n ?? 0;
}

/** v1 reports waiting for `email` (status ready), or imported by its claim (claimed). */
export function countClaimReports(db: Db, email: string, status: ClaimStatus): Promise<number> {
  return status === 'claimed'
    ? count(db, 'SELECT count(*)::int AS n FROM legacy_claimed_reports WHERE email = $1', [email])
    : count(db, 'SELECT count(*)::int AS n FROM legacy_reports WHERE owner_email = $1', [email]);
}

export async function findClaim(
  db: Db,
  email: string,
): Promise<{ status: ClaimStatus; claimed_at: Date | null } | null> {
  const { rows } = await db.query<{ status: ClaimStatus; claimed_at: Date | null }>(
    'SELECT status, claimed_at FROM legacy_claims WHERE email = $1',
    [email],
  );
  return rows[0] ?? null;
}

/** Locks the email's claim row for the rest of the transaction; null when there is none. */
export async function lockClaim(client: PoolClient, email: string): Promise<ClaimStatus | null> {
  const { rows } = await client.query<{ status: ClaimStatus }>(
    'SELECT status FROM legacy_claims WHERE email = $1 FOR UPDATE',
    [email],
  );
  return rows[0]?.status ?? null;
}

/** Creates the email's claim (ready) unless it exists; true when it was created. */
export async function insertClaim(db: Db, email: string): Promise<boolean> {
  const inserted = await db.query(
    'INSERT INTO legacy_claims (email) VALUES ($1) ON CONFLICT (email) DO NOTHING',
    [email],
  );
  return (inserted.rowCount ?? 0) > 0;
}

export async function markClaimed(
  client: PoolClient,
  email: string,
  caller: { user_id: string; tenant_id: string },
): Promise<void> {
  await client.query(
    `UPDATE legacy_claims SET status = 'claimed', claimed_at = now(), claimed_by = $2, tenant_id = $3
      WHERE email = $1`,
    [email, caller.user_id, caller.tenant_id],
  );
}

export async function markReversed(client: PoolClient, email: string): Promise<void> {
  await client.query(
    `UPDATE legacy_claims
        SET status = 'ready', claimed_at = NULL, claimed_by = NULL, tenant_id = NULL,
            reversals = reversals + 1, last_reversed_at = now()
      WHERE email = $1`,
    [email],
  );
}

/** Ids of the reports the email's claim imported, in claim order. */
export async function claimedReportIds(client: PoolClient, email: string): Promise<string[]> {
  const { rows } = await client.query<{ report_id: string }>(
    'SELECT report_id FROM legacy_claimed_reports WHERE email = $1 ORDER BY claimed_at, report_id',
    [email],
  );
  return rows.map((r) => r.report_id);
}

export async function claimedReports(
  client: PoolClient,
  email: string,
): Promise<{ id: string; object_key: string }[]> {
  const { rows } = await client.query<{ id: string; object_key: string }>(
    `SELECT r.id, r.object_key FROM legacy_claimed_reports l JOIN reports r ON r.id = l.report_id
      WHERE l.email = $1`,
    [email],
  );
  return rows;
}

export async function deleteReports(client: PoolClient, ids: string[]): Promise<void> {
  await client.query('DELETE FROM reports WHERE id = ANY($1::uuid[])', [ids]);
}

/** Tenants of an external identity provider exist here only once they store something. */
export async function ensurePersonalTenant(
  client: PoolClient,
  tenantId: string,
  name: string,
): Promise<void> {
  await client.query(
    `INSERT INTO tenants (id, name, kind) VALUES ($1, $2, 'personal') ON CONFLICT (id) DO NOTHING`,
    [tenantId, name],
  );
}

export async function legacyReportsOf(client: PoolClient, email: string): Promise<LegacyRow[]> {
  const { rows } = await client.query<LegacyRow>(
    `SELECT id, title, filename, clean_text, metadata, created_at FROM legacy_reports
      WHERE owner_email = $1 ORDER BY created_at, id`,
    [email],
  );
  return rows;
}

/**
 * Writes one imported v1 report: its reports row (generation 1, `report_version` 1, the clean
 * text as `clean_text` and `parsed_markdown`), its sections, and the claim's record of it.
 */
export async function insertImportedReport(
  client: PoolClient,
  report: {
    id: string;
    legacy: LegacyRow;
    owner: { user_id: string; tenant_id: string; email: string };
    bytes: Buffer;
    objectKey: string;
    metadata: Record<string, unknown>;
    sections: LegacySection[];
  },
): Promise<void> {
  const { id, legacy, owner, bytes } = report;
  await client.query(
    `INSERT INTO reports (id, tenant_id, created_by, report_version, filename, title, content_type, document_kind,
       size_bytes, sha256, object_key, parsed_markdown, clean_text, parsed_metadata, created_at)
     VALUES ($1, $2, $3, 1, $4, $5, 'text/markdown', 'legacy', $6, $7, $8, $9, $9, $10, $11)`,
    [
      id,
      owner.tenant_id,
      owner.user_id,
      legacy.filename?.trim() || 'legacy-report.md',
      legacy.title,
      bytes.length,
      createHash('sha256').update(bytes).digest('hex'),
      report.objectKey,
      legacy.clean_text,
      JSON.stringify(report.metadata),
      legacy.created_at,
    ],
  );
  for (const s of report.sections) {
    await client.query(
      `INSERT INTO sections (id, tenant_id, report_id, attachment_id, target_id, section_name, section_slug, level,
         order_in_doc, page_start, page_end, markdown)
       VALUES ($1, $2, $3, NULL, $3, $4, $5, $6, $7, NULL, NULL, $8)`,
      [randomUUID(), owner.tenant_id, id, s.name, s.slug, s.level, s.order, s.markdown],
    );
  }
  await client.query(
    `INSERT INTO legacy_claimed_reports (legacy_report_id, report_id, email, tenant_id) VALUES ($1, $2, $3, $4)`,
    [legacy.id, id, owner.email, owner.tenant_id],
  );
}

/** Claimed reports that have not entered the pipeline yet, with their section counts. */
export async function unprocessedReports(
  pool: Pool,
  ids: string[],
): Promise<{ id: string; tenant_id: string; sections: number }[]> {
  const { rows } = await pool.query<{ id: string; tenant_id: string; sections: number }>(
    `SELECT r.id, r.tenant_id, (SELECT count(*)::int FROM sections s WHERE s.target_id = r.id) AS sections
       FROM reports r WHERE r.id = ANY($1::uuid[]) AND r.status = 'uploaded'`,
    [ids],
  );
  return rows;
}

/** `GET /admin/migrate/stats`: the whole flow in one row. */
export async function migrateStatsRow(pool: Pool): Promise<MigrateStats> {
  const { rows } = await pool.query<MigrateStats>(
    `SELECT
       (SELECT count(*)::int FROM legacy_reports) AS legacy_reports,
       (SELECT count(DISTINCT owner_email)::int FROM legacy_reports) AS legacy_owners,
       (SELECT count(*)::int FROM legacy_claims) AS preauthorized,
       (SELECT count(*)::int FROM legacy_claims WHERE status = 'ready') AS ready,
       (SELECT count(*)::int FROM legacy_claims WHERE status = 'claimed') AS claimed,
       (SELECT count(*)::int FROM legacy_claims WHERE reversals > 0) AS reversed,
       (SELECT count(*)::int FROM legacy_claimed_reports) AS claimed_reports,
       (SELECT count(*)::int FROM legacy_claimed_reports l JOIN reports r ON r.id = l.report_id
         WHERE r.status = 'ready') AS claimed_reports_ready,
       (SELECT count(*)::int FROM legacy_reports lr
         WHERE NOT EXISTS (SELECT 1 FROM legacy_claims c WHERE c.email = lr.owner_email AND c.status = 'claimed'))
         AS unclaimed_reports`,
  );
  return rows[0]!;
}
