import type { Attachment, AttachmentSource, PartnerAttachmentStatus } from '@reports/contracts';
import type { Pool, PoolClient } from '@reports/platform';
import type { StoredUpload } from '../ingest/upload.js';

/** Attachment queries of the gateway. User-facing ones filter by tenant; partner ones by report id. */

interface AttachmentRow extends Omit<
  Attachment,
  'created_at' | 'size_bytes' | 'ingestion_cost_cents'
> {
  created_at: Date;
  size_bytes: string | number;
  ingestion_cost_cents: string | number;
}

const COLUMNS = `id, report_id, source, partner_id, attachment_type, note, filename, content_type, size_bytes,
  status, ingestion_error, ingestion_cost_cents, created_at`;

function toAttachment(row: AttachmentRow): Attachment {
  return {
    ...row,
    size_bytes: Number(row.size_bytes),
    ingestion_cost_cents: Number(row.ingestion_cost_cents),
    created_at: row.created_at.toISOString(),
  };
}

export interface NewAttachment {
  id: string;
  tenantId: string;
  reportId: string;
  source: AttachmentSource;
  partnerId: string | null;
  attachmentType: string | null;
  note: string | null;
  upload: StoredUpload;
}

/**
 * Inserts an attachment. For a partner attachment whose (report_id, partner_id)
 * exists already (a repeat, or a concurrent twin), nothing is inserted and the
 * existing one is returned with `created: false`.
 */
export async function insertAttachment(
  db: Pool | PoolClient,
  a: NewAttachment,
): Promise<{ attachment: Attachment; created: boolean }> {
  const { rows } = await db.query<AttachmentRow>(
    `INSERT INTO attachments (id, tenant_id, report_id, source, partner_id, attachment_type, note, filename,
       content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)
     ON CONFLICT (report_id, partner_id) WHERE source = 'partner' AND partner_id IS NOT NULL DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      a.id,
      a.tenantId,
      a.reportId,
      a.source,
      a.partnerId,
      a.attachmentType,
      a.note,
      a.upload.filename,
      a.upload.contentType,
      a.upload.kind,
      a.upload.sizeBytes,
      a.upload.sha256,
      a.upload.objectKey,
    ],
  );
  if (rows[0]) return { attachment: toAttachment(rows[0]), created: true };
  const existing = await findPartnerAttachment(db, a.reportId, a.partnerId ?? '');
  if (!existing) throw new Error('attachment insert conflicted but no partner attachment exists');
  return { attachment: existing, created: false };
}

/** The partner attachment of a report with this partner id (the idempotency key), if any. */
export async function findPartnerAttachment(
  db: Pool | PoolClient,
  reportId: string,
  partnerId: string,
): Promise<Attachment | null> {
  const { rows } = await db.query<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE report_id = $1 AND source = 'partner' AND partner_id = $2`,
    [reportId, partnerId],
  );
  return rows[0] ? toAttachment(rows[0]) : null;
}

export async function listAttachments(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<Attachment[]> {
  const { rows } = await pool.query<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE report_id = $1 AND tenant_id = $2 ORDER BY created_at, id`,
    [reportId, tenantId],
  );
  return rows.map(toAttachment);
}

export async function findAttachment(
  pool: Pool,
  tenantId: string,
  reportId: string,
  attachmentId: string,
): Promise<Attachment | null> {
  const { rows } = await pool.query<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE id = $1 AND report_id = $2 AND tenant_id = $3`,
    [attachmentId, reportId, tenantId],
  );
  return rows[0] ? toAttachment(rows[0]) : null;
}

/**
 * Deletes a user upload; its sections, figures, tables and chunks go with it
 * (foreign keys cascade), stored files stay. A partner attachment is never
 * deleted here.
 */
export async function deleteUserUpload(
  pool: Pool,
  tenantId: string,
  attachmentId: string,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `DELETE FROM attachments WHERE id = $1 AND tenant_id = $2 AND source = 'user_upload'`,
    [attachmentId, tenantId],
  );
  return (rowCount ?? 0) > 0;
}

/** The report a partner names, looked up by id alone (the HMAC secret is the credential). */
export async function findReportForPartner(
  pool: Pool,
  reportId: string,
): Promise<{ id: string; tenant_id: string } | null> {
  const { rows } = await pool.query<{ id: string; tenant_id: string }>(
    'SELECT id, tenant_id FROM reports WHERE id = $1',
    [reportId],
  );
  return rows[0] ?? null;
}

export async function partnerAttachmentStatus(
  pool: Pool,
  reportId: string,
  attachmentId: string,
): Promise<PartnerAttachmentStatus | null> {
  const { rows } = await pool.query<{
    id: string;
    report_id: string;
    status: PartnerAttachmentStatus['status'];
    ingestion_cost_cents: string | number;
    ingestion_error: string | null;
    ingestion_started_at: Date | null;
    ingestion_finished_at: Date | null;
  }>(
    `SELECT id, report_id, status, ingestion_cost_cents, ingestion_error, ingestion_started_at, ingestion_finished_at
       FROM attachments WHERE id = $1 AND report_id = $2 AND source = 'partner'`,
    [attachmentId, reportId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ...row,
    ingestion_cost_cents: Number(row.ingestion_cost_cents),
    ingestion_started_at: row.ingestion_started_at?.toISOString() ?? null,
    ingestion_finished_at: row.ingestion_finished_at?.toISOString() ?? null,
  };
}

/** Removes an attachment row whose upload could not be queued (nothing else refers to it yet). */
export async function deleteAttachmentRow(pool: Pool, attachmentId: string): Promise<void> {
  await pool.query('DELETE FROM attachments WHERE id = $1', [attachmentId]);
}
