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
import type { DocumentKind, EventOf } from '@reports/contracts';
import {
  announceCommitted,
  fenceOutput,
  recordOutput,
  withTransaction,
  type ObjectStore,
  type Pool,
  type StageDefinition,
  type StageUsage,
} from '@reports/platform';
import { isOcrError, type OcrEngine, type OcrResult } from '@reports/providers';
import { loadTarget } from '../targets.js';
import { storeFigures } from './figureStore.js';
import { applyOcrAnnotations, figureObjectKeys, writeParseOutput } from './store.js';

export interface ParseDeps {
  pool: Pool;
  objectStore: ObjectStore;
  /** Reads scanned pages and images; null: none configured (such documents fail `needs_ocr`). */
  ocr?: OcrEngine | null;
}

/** Upper bound of what parse reads into memory (the upload cap plus slack). */
const MAX_PARSE_BYTES = 51 * 1024 * 1024;

export { documentMarkdown } from './store.js';

/**
 * Postgres text cannot hold U+0000, which some PDF fonts map glyphs to: it goes from every text
 * of the parsed document (otherwise the whole report fails with an encoding error).
 */
export function withoutNulCharacters(doc: ParsedDocument): ParsedDocument {
  const clean = (s: string) => (s.includes('\u0000') ? s.replaceAll('\u0000', '') : s);
  const cleanOrNull = (s: string | null) => (s === null ? null : clean(s));
  return {
    ...doc,
    title: cleanOrNull(doc.title),
    sections: doc.sections.map((s) => ({
      ...s,
      name: clean(s.name),
      slug: clean(s.slug),
      markdown: clean(s.markdown),
    })),
    tables: doc.tables.map((t) => ({
      ...t,
      markdown: clean(t.markdown),
      rows: t.rows.map((r) => r.map(clean)),
    })),
    figures: doc.figures.map((f) => ({
      ...f,
      alt: cleanOrNull(f.alt),
      ocr_text: cleanOrNull(f.ocr_text),
    })),
  };
}

/**
 * Parse: the stored file becomes sections (from headings, with slugs and pages), tables and
 * figures (image and thumbnail in the object store under the report's prefix, rows `pending`
 * for the annotate stage). Scanned pages and images are read by the OCR engine. A damaged,
 * encrypted or unreadable document fails the target with a message for people; anything else
 * unexpected is retried.
 */
type ParsedData = EventOf<'ReportParsed'>['data'];

export function parseStage(deps: ParseDeps): StageDefinition<'ReportScanned'> {
  return {
    stage: 'parse',
    async run(event, ctx) {
      const target = await loadTarget(deps.pool, event.target_kind, event.target_id);
      if (!target) return { outcome: 'skipped', reason: 'target deleted' };
      const outputKey = {
        tenant_id: target.tenant_id,
        report_id: target.report_id,
        target_id: event.target_id,
        stage: 'parse' as const,
        generation: event.generation,
      };
      // A generation's output is written once: a later attempt (redelivery, a paused worker
      // resuming) leaves it as it is and announces it again (checked for good under the lock).
      const early = await withTransaction(deps.pool, (client) =>
        fenceOutput<ParsedData>(client, outputKey),
      );
      if (early.state !== 'write') return announceCommitted('ReportParsed', early, ctx.logger);
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
      doc = withoutNulCharacters(doc);
      const ids = {
        tenantId: target.tenant_id,
        reportId: target.report_id,
        targetId: event.target_id,
      };
      // Objects first (deterministic keys, so a rerun overwrites them), rows second.
      const figures = await storeFigures(deps.objectStore, ids, doc.figures, ctx.signal);
      const data: ParsedData = {
        sections: doc.sections.length,
        figures: figures.length,
        tables: doc.tables.length,
        pages: doc.page_count,
        cost_cents: usage.cost_cents,
      };
      const outcome = await withTransaction(deps.pool, async (client) => {
        // Locks the target row: a concurrent DELETE or parse attempt waits, or we see it gone.
        if (!(await loadTarget(client, event.target_kind, event.target_id, true)))
          return { kind: 'deleted' as const };
        const fence = await fenceOutput<ParsedData>(client, outputKey);
        if (fence.state !== 'write') {
          return {
            kind: fence.state,
            fence,
            current: await figureObjectKeys(client, event.target_id),
          };
        }
        const earlier = await figureObjectKeys(client, event.target_id);
        await writeParseOutput(
          client,
          event.target_kind,
          event.target_id,
          target.report_id,
          target.tenant_id,
          doc,
          figures,
        );
        await applyOcrAnnotations(client, figures, ocrAnnotations);
        await recordOutput(client, outputKey, ctx.deliveryCount, data);
        return { kind: 'written' as const, earlier };
      });
      // After the commit, objects nothing refers to go: the earlier run's that the new output
      // does not reuse; or, when this attempt wrote nothing, what it stored beyond the rows'.
      const ours = figures.flatMap((f) => [f.object_key, f.thumbnail_key ?? '']);
      const referenced = (rows: Array<{ object_key: string; thumbnail_key: string | null }>) =>
        new Set(rows.flatMap((f) => [f.object_key, f.thumbnail_key ?? '']));
      const unused =
        outcome.kind === 'written'
          ? [...referenced(outcome.earlier)].filter((k) => !new Set(ours).has(k))
          : outcome.kind === 'deleted'
            ? ours
            : ours.filter((k) => !referenced(outcome.current).has(k));
      for (const key of unused) if (key !== '') await deps.objectStore.delete(key);
      if (outcome.kind === 'deleted') return { outcome: 'skipped', reason: 'target deleted' };
      if (outcome.kind === 'written')
        return { outcome: 'done', emit: { type: 'ReportParsed', data }, usage };
      return announceCommitted('ReportParsed', outcome.fence, ctx.logger, usage);
    },
  };
}
