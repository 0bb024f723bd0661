import type { IngestStatus, ParsedSection } from '@reports/contracts';
import { withTransaction, type Pool } from '@reports/platform';
import type { AuthUser } from '../auth/types.js';
import type { StoredUpload } from './upload.js';

/** Report queries of the gateway. Every one is filtered by the caller's effective tenant. */

export interface NewReport {
  id: string;
  user: AuthUser;
  title: string | null;
  upload: StoredUpload;
}

/** Inserts the report record; the tenant row is created on first use (external identity providers). */
export async function insertReport(pool: Pool, r: NewReport): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO tenants (id, name, kind) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
      [
        r.user.tenant_id,
        r.user.email ?? r.user.tenant_id,
        r.user.tenant_id === r.user.personal_tenant_id ? 'personal' : 'team',
      ],
    );
    await client.query(
      `INSERT INTO reports (id, tenant_id, created_by, filename, title, content_type, document_kind, size_bytes, sha256, object_key)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
      [
        r.id,
        r.user.tenant_id,
        r.user.id,
        r.upload.filename,
        r.title,
        r.upload.contentType,
        r.upload.kind,
        r.upload.sizeBytes,
        r.upload.sha256,
        r.upload.objectKey,
      ],
    );
  });
}

export async function deleteReportRow(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM reports WHERE id = $1 AND tenant_id = $2', [
    reportId,
    tenantId,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function reportExists(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM reports WHERE id = $1 AND tenant_id = $2', [
    reportId,
    tenantId,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function findStatus(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<IngestStatus | null> {
  const { rows } = await pool.query<
    IngestStatus & { ingestion_started_at: Date | null; ingestion_finished_at: Date | null }
  >(
    `SELECT id, status, ingestion_started_at, ingestion_finished_at, ingestion_error, ingestion_cost_cents
       FROM reports WHERE id = $1 AND tenant_id = $2`,
    [reportId, tenantId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ...row,
    ingestion_started_at: row.ingestion_started_at?.toISOString() ?? null,
    ingestion_finished_at: row.ingestion_finished_at?.toISOString() ?? null,
  };
}

/** Sections of the main file, in document order. */
export async function listSections(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<ParsedSection[]> {
  const { rows } = await pool.query<ParsedSection>(
    `SELECT id, section_name, section_slug, level, order_in_doc, page_start, page_end, markdown
       FROM sections
      WHERE report_id = $1 AND tenant_id = $2 AND attachment_id IS NULL
      ORDER BY order_in_doc`,
    [reportId, tenantId],
  );
  return rows;
}

/**
 * DELETE /ingest requires membership of the tenant. The personal tenant is the
 * user's own; any other tenant needs a memberships row.
 */
export async function isTenantMember(pool: Pool, user: AuthUser): Promise<boolean> {
  if (user.tenant_id === user.personal_tenant_id) return true;
  const { rowCount } = await pool.query(
    'SELECT 1 FROM memberships WHERE tenant_id = $1 AND user_id = $2',
    [user.tenant_id, user.id],
  );
  return (rowCount ?? 0) > 0;
}
