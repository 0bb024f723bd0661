import type {
  IngestStatus,
  ParsedSection,
  ReportDetail,
  ReportListQuery,
  ReportSummary,
  SectionDetail,
  SectionInfo,
} from '@reports/contracts';
import { pickSectionBy, splitLegacyText } from '@reports/documents';
import { withTransaction, type Pool } from '@reports/platform';
import type { AuthUser } from '../auth/types.js';
import type { StoredUpload } from '../ingest/upload.js';

/**
 * The gateway's store of the `reports` table (and the section reads of a report): every query of
 * the report routes, the ingest routes and the attachment routes. Every one is filtered by the
 * caller's effective tenant.
 */

interface SummaryRow {
  id: string;
  title: string | null;
  filename: string;
  content_type: string;
  size_bytes: number;
  status: ReportSummary['status'];
  report_version: 1 | 2;
  ingestion_started_at: Date | null;
  ingestion_finished_at: Date | null;
  ingestion_error: string | null;
  ingestion_cost_cents: number;
  created_at: Date;
  updated_at: Date;
}

const SUMMARY_COLUMNS = `id, title, filename, content_type, size_bytes, status, report_version,
  ingestion_started_at, ingestion_finished_at, ingestion_error, ingestion_cost_cents, created_at, updated_at`;

function toSummary(row: SummaryRow): ReportSummary {
  return {
    id: row.id,
    title: row.title,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    status: row.status,
    report_version: row.report_version,
    ingestion_started_at: row.ingestion_started_at?.toISOString() ?? null,
    ingestion_finished_at: row.ingestion_finished_at?.toISOString() ?? null,
    ingestion_error: row.ingestion_error,
    ingestion_cost_cents: row.ingestion_cost_cents,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The tenant's reports, newest first. */
export async function listReports(
  pool: Pool,
  tenantId: string,
  page: ReportListQuery,
): Promise<ReportSummary[]> {
  const { rows } = await pool.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM reports WHERE tenant_id = $1
      ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
    [tenantId, page.limit, page.offset],
  );
  return rows.map(toSummary);
}

interface SectionRow {
  section_name: string;
  section_slug: string;
  level: number;
  order_in_doc: number;
  page_start: number | null;
  page_end: number | null;
  markdown: string;
}

/**
 * The sections of a report's main file: a v2 report's parsed sections, or for a
 * v1 report the heading split of its clean text (spec: Versioning). Null when the
 * report is not in the tenant.
 */
async function loadSections(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<SectionRow[] | null> {
  const { rows } = await pool.query<{
    report_version: 1 | 2;
    clean_text: string | null;
    title: string | null;
  }>(
    `SELECT report_version, CASE WHEN report_version = 1 THEN clean_text END AS clean_text, title
       FROM reports WHERE id = $1 AND tenant_id = $2`,
    [reportId, tenantId],
  );
  const report = rows[0];
  if (!report) return null;
  if (report.report_version === 1) {
    return splitLegacyText(report.clean_text ?? '', report.title).map((s) => ({
      section_name: s.name,
      section_slug: s.slug,
      level: s.level,
      order_in_doc: s.order,
      page_start: null,
      page_end: null,
      markdown: s.markdown,
    }));
  }
  const { rows: sections } = await pool.query<SectionRow>(
    `SELECT section_name, section_slug, level, order_in_doc, page_start, page_end, markdown
       FROM sections
      WHERE report_id = $1 AND tenant_id = $2 AND attachment_id IS NULL
      ORDER BY order_in_doc`,
    [reportId, tenantId],
  );
  return sections;
}

function toInfo(s: SectionRow): SectionInfo {
  return {
    section_name: s.section_name,
    section_slug: s.section_slug,
    level: s.level,
    order_in_doc: s.order_in_doc,
    page_start: s.page_start,
    page_end: s.page_end,
    char_count: s.markdown.length,
  };
}

/** `GET /reports/{id}`: null when the report is not in the tenant. */
export async function findReportDetail(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<ReportDetail | null> {
  const { rows } = await pool.query<
    SummaryRow & {
      parsed_markdown: string | null;
      clean_text: string | null;
      parsed_metadata: Record<string, unknown>;
      attachments: number;
    }
  >(
    `SELECT ${SUMMARY_COLUMNS}, parsed_markdown, clean_text, parsed_metadata,
            (SELECT count(*)::int FROM attachments a WHERE a.report_id = reports.id) AS attachments
       FROM reports WHERE id = $1 AND tenant_id = $2`,
    [reportId, tenantId],
  );
  const row = rows[0];
  if (!row) return null;
  const sections = await loadSections(pool, tenantId, reportId);
  return {
    ...toSummary(row),
    parsed_markdown: row.parsed_markdown,
    clean_text: row.clean_text,
    parsed_metadata: row.parsed_metadata,
    attachments: row.attachments,
    sections: sections?.length ?? 0,
  };
}

/** `GET /reports/{id}/sections`: null when the report is not in the tenant. */
export async function listSectionInfos(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<SectionInfo[] | null> {
  const sections = await loadSections(pool, tenantId, reportId);
  return sections ? sections.map(toInfo) : null;
}

/** Which section `{section_name}` names: the rule of `pickSectionBy` (@reports/documents). */
export function pickSection<T extends { section_name: string; section_slug: string }>(
  sections: readonly T[],
  wanted: string,
): T | undefined {
  return pickSectionBy(sections, wanted, (s) => ({ name: s.section_name, slug: s.section_slug }));
}

export type SectionLookup = { report: false } | { report: true; section: SectionDetail | null };

/** `GET /reports/{id}/sections/{section_name}`. */
export async function findSection(
  pool: Pool,
  tenantId: string,
  reportId: string,
  wanted: string,
): Promise<SectionLookup> {
  const sections = await loadSections(pool, tenantId, reportId);
  if (!sections) return { report: false };
  const hit = pickSection(sections, wanted);
  return { report: true, section: hit ? { ...toInfo(hit), markdown: hit.markdown } : null };
}

// Writes and status reads of the ingest flow.

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
