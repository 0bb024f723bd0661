import { randomUUID } from 'node:crypto';
import {
  DocumentError,
  documentFromOcr,
  isOcrDocumentKind,
  parseDocument,
  precheckOcrUpload,
  type OcrFigureAnnotation,
  type OcrFunction,
  type ParsedDocument,
} from '@reports/documents';
import type { DocumentKind } from '@reports/contracts';
import {
  withTransaction,
  type ObjectStore,
  type Pool,
  type PoolClient,
  type StageDefinition,
  type StageUsage,
} from '@reports/platform';
import { isOcrError, type OcrEngine, type OcrResult } from '@reports/providers';
import { loadTarget } from '../targets.js';
import { storeFigures, type StoredFigure } from './figureStore.js';

export interface ParseDeps {
  pool: Pool;
  objectStore: ObjectStore;
  /** Reads scanned pages and images; null: none configured (such documents fail `needs_ocr`). */
  ocr?: OcrEngine | null;
}

/** Upper bound of what parse reads into memory (the upload cap plus slack). */
const MAX_PARSE_BYTES = 51 * 1024 * 1024;

/** The whole document as markdown, for the report detail and the chat's full-text fallback. */
export function documentMarkdown(doc: ParsedDocument): string {
  return doc.sections
    .map((s) =>
      s.level > 0 ? `${'#'.repeat(Math.min(s.level, 6))} ${s.name}\n\n${s.markdown}` : s.markdown,
    )
    .join('\n\n')
    .trim();
}

async function writeOutput(
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

/**
 * Parse: the stored file becomes sections (from headings, with slugs and pages), tables and
 * figures (image and thumbnail in the object store under the report's prefix, rows `pending`
 * for the annotate stage). Scanned pages and images are read by the OCR engine. A damaged,
 * encrypted or unreadable document fails the target with a message for people; anything else
 * unexpected is retried.
 */
export function parseStage(deps: ParseDeps): StageDefinition<'ReportScanned'> {
  return {
    stage: 'parse',
    async run(event, ctx) {
      const target = await loadTarget(deps.pool, event.target_kind, event.target_id);
      if (!target) return { outcome: 'skipped', reason: 'target deleted' };
      const bytes = await deps.objectStore.getBuffer(target.object_key, {
        maxBytes: MAX_PARSE_BYTES,
      });
      // OCR usage, summed over the engine's calls, for the stage's cost record.
      const usage: Required<Pick<StageUsage, 'cost_cents'>> & StageUsage = { cost_cents: 0 };
      const engine = deps.ocr ?? null;
      const record = (result: OcrResult): OcrResult => {
        usage.provider = result.provider;
        usage.model = result.model;
        usage.cost_cents += result.cost_cents;
        usage.units = { ocr_pages: (usage.units?.ocr_pages ?? 0) + result.pages.length };
        return result;
      };
      const ocr: OcrFunction | undefined = engine
        ? async (input) => record(await engine.recognise(input))
        : undefined;
      let doc: ParsedDocument;
      // Figures the OCR engine annotated richly (Mistral), by figure order; the rest stay pending.
      let ocrAnnotations = new Map<number, OcrFigureAnnotation>();
      const kind = target.document_kind;
      try {
        if (engine?.readsWholeDocuments && isOcrDocumentKind(kind)) {
          // A whole-document engine reads every PDF and image: sections, tables and figures come
          // from its pages (documents' ocrDocument.ts), not from the local parser.
          await precheckOcrUpload(kind, bytes);
          const result = record(await engine.recognise({ kind, bytes, signal: ctx.signal }));
          ({ doc, annotations: ocrAnnotations } = await documentFromOcr(kind, bytes, result));
        } else {
          doc = await parseDocument(kind as DocumentKind, bytes, {
            signal: ctx.signal,
            ...(ocr ? { ocr } : {}),
          });
        }
      } catch (error) {
        if (error instanceof DocumentError) {
          return error.code === 'timeout'
            ? { outcome: 'retry', reason: error.message, usage }
            : { outcome: 'failed', reason: error.message, usage };
        }
        if (isOcrError(error)) {
          return error.retryable
            ? { outcome: 'retry', reason: error.message, usage }
            : { outcome: 'failed', reason: error.message, usage };
        }
        throw error;
      }
      const ids = {
        tenantId: target.tenant_id,
        reportId: target.report_id,
        targetId: event.target_id,
      };
      // Objects first (deterministic keys, so a rerun overwrites them), rows second.
      const figures = await storeFigures(deps.objectStore, ids, doc.figures, ctx.signal);
      const written = await withTransaction(deps.pool, async (client) => {
        // Locks the target row: a concurrent DELETE waits, or we see it gone.
        if (!(await loadTarget(client, event.target_kind, event.target_id, true))) return null;
        const { rows: earlier } = await client.query<{
          object_key: string;
          thumbnail_key: string | null;
        }>('SELECT object_key, thumbnail_key FROM figures WHERE target_id = $1', [event.target_id]);
        await writeOutput(
          client,
          event.target_kind,
          event.target_id,
          target.report_id,
          target.tenant_id,
          doc,
          figures,
        );
        for (const f of figures) {
          const rich = ocrAnnotations.get(f.draft.order);
          if (!rich) continue;
          await client.query(
            `UPDATE figures SET annotation_source = $2, annotation_json = $3, annotation_quality_score = $4
              WHERE id = $1`,
            [f.id, rich.source, JSON.stringify(rich.annotation_json), rich.score],
          );
        }
        return earlier;
      });
      const kept = new Set(figures.flatMap((f) => [f.object_key, f.thumbnail_key ?? '']));
      const stale = (written ?? figures).flatMap((f) => [f.object_key, f.thumbnail_key ?? '']);
      // After the commit: the earlier run's objects that the new output does not reuse (or, when
      // the target was deleted meanwhile, what this run stored).
      for (const key of stale) {
        if (key !== '' && (written === null || !kept.has(key))) await deps.objectStore.delete(key);
      }
      if (written === null) return { outcome: 'skipped', reason: 'target deleted' };
      return {
        outcome: 'done',
        emit: {
          type: 'ReportParsed',
          data: {
            sections: doc.sections.length,
            figures: figures.length,
            tables: doc.tables.length,
            pages: doc.page_count,
            cost_cents: usage.cost_cents,
          },
        },
        usage,
      };
    },
  };
}
