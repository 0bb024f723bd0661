import { AppError, type RetrievedChunk } from '@reports/contracts';
import { pickSectionBy, splitLegacyText } from '@reports/documents';
import type { Pool } from '@reports/platform';

/** Report reads of the chat. Every query is filtered by the caller's tenant. */

export interface ReportRef {
  id: string;
  title: string | null;
  filename: string;
  version: 1 | 2;
}

/** A section of a report's main file (v2: parsed; v1: the heading split of its clean text). */
export interface ReportSection {
  /** The parsed section's id; null for a v1 report's heading split. */
  id: string | null;
  name: string;
  slug: string;
  markdown: string;
}

/** A report's name for people: its title, else its file name. */
export function reportName(r: Pick<ReportRef, 'title' | 'filename'>): string {
  return r.title?.trim() || r.filename;
}

/**
 * The reports `ids` names, in the tenant, in the order asked (duplicates once). 404 when
 * any of them is not in the tenant, exactly as one that does not exist.
 */
export async function reportsInTenant(
  pool: Pool,
  tenantId: string,
  ids: readonly string[],
): Promise<ReportRef[]> {
  const unique = [...new Set(ids)];
  const { rows } = await pool.query<{
    id: string;
    title: string | null;
    filename: string;
    report_version: 1 | 2;
  }>(
    `SELECT id, title, filename, report_version FROM reports WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
    [tenantId, unique],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => {
    const row = byId.get(id);
    if (!row) throw new AppError('not_found', 'report not found');
    return { id: row.id, title: row.title, filename: row.filename, version: row.report_version };
  });
}

/**
 * A report's whole text: the parsed markdown, or for a v1 report (or one without it)
 * the clean text (spec: "full report text"); empty while it is not parsed yet.
 */
export async function reportText(pool: Pool, tenantId: string, reportId: string): Promise<string> {
  const { rows } = await pool.query<{ text: string | null }>(
    `SELECT COALESCE(NULLIF(parsed_markdown, ''), clean_text) AS text FROM reports WHERE id = $1 AND tenant_id = $2`,
    [reportId, tenantId],
  );
  return rows[0]?.text ?? '';
}

/** The sections of a report's main file, in document order. */
export async function reportSections(
  pool: Pool,
  tenantId: string,
  report: ReportRef,
): Promise<ReportSection[]> {
  if (report.version === 1) {
    const { rows } = await pool.query<{ clean_text: string | null }>(
      'SELECT clean_text FROM reports WHERE id = $1 AND tenant_id = $2',
      [report.id, tenantId],
    );
    return splitLegacyText(rows[0]?.clean_text ?? '', report.title).map((s) => ({
      id: null,
      name: s.name,
      slug: s.slug,
      markdown: s.markdown,
    }));
  }
  const { rows } = await pool.query<{
    id: string;
    section_name: string;
    section_slug: string;
    markdown: string;
  }>(
    `SELECT id, section_name, section_slug, markdown FROM sections
      WHERE report_id = $1 AND tenant_id = $2 AND attachment_id IS NULL
      ORDER BY order_in_doc`,
    [report.id, tenantId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.section_name,
    slug: r.section_slug,
    markdown: r.markdown,
  }));
}

/** Which section `wanted` names: the rule of `pickSectionBy` (@reports/documents). Pure. */
export function pickSection<T extends { name: string; slug: string }>(
  sections: readonly T[],
  wanted: string,
): T | undefined {
  return pickSectionBy(sections, wanted, (s) => s);
}

/** Whether a retrieved chunk belongs to `section` of the main file. Pure. */
export function inSection(chunk: RetrievedChunk, section: ReportSection): boolean {
  if (chunk.attachment_id !== null) return false;
  if (section.id) return chunk.section_id === section.id;
  return chunk.section_slug === section.slug || chunk.section_name === section.name;
}
