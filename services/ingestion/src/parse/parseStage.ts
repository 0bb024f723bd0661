import { randomUUID } from 'node:crypto';
import { DocumentError, parseDocument, type ParsedDocument } from '@reports/documents';
import type { DocumentKind } from '@reports/contracts';
import {
  withTransaction,
  type ObjectStore,
  type Pool,
  type PoolClient,
  type StageDefinition,
} from '@reports/platform';
import { loadTarget } from '../targets.js';

export interface ParseDeps {
  pool: Pool;
  objectStore: ObjectStore;
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
): Promise<void> {
  // Idempotent: this target's earlier output goes, the new output comes, in one transaction.
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
  const metadata = {
    title: doc.title,
    page_count: doc.page_count,
    sections: doc.sections.length,
    tables: doc.tables.length,
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
 * Parse: the stored file becomes sections (from headings, with slugs and pages)
 * and tables. A damaged, encrypted or unreadable document fails the target with
 * a message for people; anything else unexpected is retried.
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
      let doc: ParsedDocument;
      try {
        doc = await parseDocument(target.document_kind as DocumentKind, bytes, {
          signal: ctx.signal,
        });
      } catch (error) {
        if (error instanceof DocumentError) {
          return error.code === 'timeout'
            ? { outcome: 'retry', reason: error.message }
            : { outcome: 'failed', reason: error.message };
        }
        throw error;
      }
      const written = await withTransaction(deps.pool, async (client) => {
        // Locks the target row: a concurrent DELETE waits, or we see it gone.
        if (!(await loadTarget(client, event.target_kind, event.target_id, true))) return false;
        await writeOutput(
          client,
          event.target_kind,
          event.target_id,
          target.report_id,
          target.tenant_id,
          doc,
        );
        return true;
      });
      if (!written) return { outcome: 'skipped', reason: 'target deleted' };
      return {
        outcome: 'done',
        emit: {
          type: 'ReportParsed',
          data: {
            sections: doc.sections.length,
            figures: 0,
            tables: doc.tables.length,
            pages: doc.page_count,
            cost_cents: 0,
          },
        },
      };
    },
  };
}
