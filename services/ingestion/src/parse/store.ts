import { randomUUID } from 'node:crypto';
import type { ParsedDocument } from '@reports/documents';
import type { PoolClient } from '@reports/platform';
import type { StoredFigure } from './figureStore.js';
import type { OcrFigureAnnotation } from '@reports/documents';

/**
 * The parse stage's queries: a target's sections, tables and figures, and the parse
 * metadata on its report or attachment row. Every function runs in the caller's
 * transaction (the target row locked).
 */

/** The whole document as markdown, for the report detail and the chat's full-text fallback. */
export function documentMarkdown(doc: ParsedDocument): string {
  return doc.sections
    .map((s) =>
      s.level > 0 ? `${'#'.repeat(Math.min(s.level, 6))} ${s.name}\n\n${s.markdown}` : s.markdown,
    )
    .join('\n\n')
    .trim();
}

/** Object keys of the target's figures as stored now. */
export async function figureObjectKeys(
  client: PoolClient,
  targetId: string,
): Promise<Array<{ object_key: string; thumbnail_key: string | null }>> {
  const { rows } = await client.query<{ object_key: string; thumbnail_key: string | null }>(
    'SELECT object_key, thumbnail_key FROM figures WHERE target_id = $1',
    [targetId],
  );
  return rows;
}

/** Figures the OCR engine annotated richly get that annotation instead of staying pending. */
export async function applyOcrAnnotations(
  client: PoolClient,
  figures: StoredFigure[],
  annotations: Map<number, OcrFigureAnnotation>,
): Promise<void> {
  for (const f of figures) {
    const rich = annotations.get(f.draft.order);
    if (!rich) continue;
    await client.query(
      `UPDATE figures SET annotation_source = $2, annotation_json = $3, annotation_quality_score = $4
        WHERE id = $1`,
      [f.id, rich.source, JSON.stringify(rich.annotation_json), rich.score],
    );
  }
}

/** Replaces the target's sections, tables and figures with the parsed document's. */
export async function writeParseOutput(
  client: PoolClient,
  targetKind: 'report' | 'attachment',
  targetId: string,
  reportId: string,
  tenantId: string,
  doc: ParsedDocument,
  figures: StoredFigure[],
): Promise<void> {
  // Idempotent: this target's earlier output goes, the new output comes, in one transaction.
  await client.query('DELETE FROM figures WHERE target_id = $1', [targetId]);
  await client.query('DELETE FROM report_tables WHERE target_id = $1', [targetId]);
  await client.query('DELETE FROM sections WHERE target_id = $1', [targetId]);
  const attachmentId = targetKind === 'attachment' ? targetId : null;
  const sectionIds: string[] = [];
  for (const s of doc.sections) {
    const id = randomUUID();
    sectionIds.push(id);
    await client.query(
      `INSERT INTO sections (id, tenant_id, report_id, attachment_id, target_id, section_name, section_slug, level,
         order_in_doc, page_start, page_end, markdown)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
      [
        id,
        tenantId,
        reportId,
        attachmentId,
        targetId,
        s.name,
        s.slug,
        s.level,
        s.order,
        s.page_start,
        s.page_end,
        s.markdown,
      ],
    );
  }
  for (const t of doc.tables) {
    await client.query(
      `INSERT INTO report_tables (id, tenant_id, report_id, attachment_id, target_id, section_id, page_number,
         order_in_doc, markdown, cells)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
      [
        randomUUID(),
        tenantId,
        reportId,
        attachmentId,
        targetId,
        sectionIds[t.section_order] ?? null,
        t.page_number,
        t.order,
        t.markdown,
        JSON.stringify(t.rows),
      ],
    );
  }
  for (const f of figures) {
    const section = doc.sections[f.draft.section_order];
    await client.query(
      `INSERT INTO figures (id, tenant_id, report_id, attachment_id, target_id, section_id, section_name,
         page_number, order_in_doc, object_key, thumbnail_key, mime_type, width, height, ocr_text,
         annotation_source)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,'pending')`,
      [
        f.id,
        tenantId,
        reportId,
        attachmentId,
        targetId,
        sectionIds[f.draft.section_order] ?? null,
        section?.name ?? null,
        f.draft.page_number,
        f.draft.order,
        f.object_key,
        f.thumbnail_key,
        f.draft.mime_type,
        f.draft.width,
        f.draft.height,
        f.draft.ocr_text ?? f.draft.alt,
      ],
    );
  }
  const metadata = {
    title: doc.title,
    page_count: doc.page_count,
    sections: doc.sections.length,
    tables: doc.tables.length,
    figures: figures.length,
    ocr_pages: doc.ocr_pages,
  };
  if (targetKind === 'report') {
    const markdown = documentMarkdown(doc);
    await client.query(
      `UPDATE reports SET parsed_markdown = $2, clean_text = $2,
              parsed_metadata = parsed_metadata || $3::jsonb, title = COALESCE(title, $4), updated_at = now()
        WHERE id = $1`,
      [targetId, markdown, JSON.stringify(metadata), doc.title],
    );
  } else {
    await client.query(
      `UPDATE attachments SET parsed_metadata = parsed_metadata || $2::jsonb, updated_at = now() WHERE id = $1`,
      [targetId, JSON.stringify(metadata)],
    );
  }
}
