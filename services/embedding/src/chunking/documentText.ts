import type { Pool } from '@reports/platform';
import type { TargetKind } from '@reports/contracts';
import type { DocumentText, FigureText, SectionText, TableText } from './chunker.js';

/** A summary the annotate stage wrote without a model only restates what the figure row holds. */
function modelSummary(annotation: unknown): string | null {
  if (!annotation || typeof annotation !== 'object') return null;
  const a = annotation as { summary?: unknown; heuristic?: unknown };
  if (a.heuristic === true || typeof a.summary !== 'string') return null;
  return a.summary.trim() || null;
}

/**
 * What the chunker reads of one target: its title (the report's title or file name; an
 * attachment's file name), its sections in order, its tables and its figures with the
 * annotations the annotate stage (which runs before embed) gave them.
 */
export async function loadDocumentText(
  pool: Pool,
  kind: TargetKind,
  targetId: string,
): Promise<DocumentText> {
  const titleQuery =
    kind === 'report'
      ? "SELECT coalesce(nullif(trim(title), ''), filename) AS title FROM reports WHERE id = $1"
      : 'SELECT filename AS title FROM attachments WHERE id = $1';
  const [title, sections, tables, figures] = await Promise.all([
    pool.query<{ title: string | null }>(titleQuery, [targetId]),
    pool.query<SectionText>(
      `SELECT id, section_name, section_slug, markdown, level FROM sections
        WHERE target_id = $1 ORDER BY order_in_doc`,
      [targetId],
    ),
    pool.query<TableText>(
      `SELECT id, section_id, markdown FROM report_tables WHERE target_id = $1 ORDER BY order_in_doc`,
      [targetId],
    ),
    pool.query<{
      id: string;
      section_id: string | null;
      page_number: number | null;
      ocr_text: string | null;
      annotation_json: unknown;
    }>(
      `SELECT id, section_id, page_number, ocr_text, annotation_json FROM figures
        WHERE target_id = $1 ORDER BY order_in_doc`,
      [targetId],
    ),
  ]);
  return {
    title: title.rows[0]?.title ?? null,
    sections: sections.rows,
    tables: tables.rows,
    figures: figures.rows.map((f): FigureText => ({
      id: f.id,
      section_id: f.section_id,
      page_number: f.page_number,
      caption: f.ocr_text?.trim() || null,
      summary: modelSummary(f.annotation_json),
    })),
  };
}
