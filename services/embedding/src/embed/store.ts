import { randomUUID } from 'node:crypto';
import pgvector from 'pgvector';
import type { TargetKind } from '@reports/contracts';
import type { Pool, PoolClient } from '@reports/platform';
import type {
  ChunkDraft,
  DocumentText,
  FigureText,
  SectionText,
  TableText,
} from '../chunking/chunker.js';
import { documentOrderIds } from './chunkIds.js';

/** The embed stage's queries: a target's sections, tables and figures in, its chunks out. */

const TABLE: Record<TargetKind, string> = { report: 'reports', attachment: 'attachments' };
const INSERT_BATCH = 100;

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
      `SELECT id, section_name, section_slug, markdown, level, page_start, page_end FROM sections
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

/**
 * Locks the target row; its file name (attachments label their chunks with it) and upload time
 * (its chunks' ids begin with it), or null when gone.
 */
export async function lockTarget(
  client: PoolClient,
  kind: TargetKind,
  targetId: string,
): Promise<{ filename: string; created_at: Date } | null> {
  const { rows } = await client.query<{ filename: string; created_at: Date }>(
    `SELECT filename, created_at FROM ${TABLE[kind]} WHERE id = $1 FOR UPDATE`,
    [targetId],
  );
  return rows[0] ?? null;
}

export interface ChunkTarget {
  tenant_id: string;
  report_id: string;
  target_kind: TargetKind;
  target_id: string;
  filename: string;
  /** The target's upload: its chunks' ids sort by it, then by place in the document. */
  created_at: Date;
}

/** Replaces the target's chunks with these; returns the new chunks' ids in order. */
export async function replaceChunks(
  client: PoolClient,
  target: ChunkTarget,
  chunks: ChunkDraft[],
  vectors: Array<number[] | null>,
  model: string | null,
): Promise<string[]> {
  await client.query('DELETE FROM chunks WHERE target_id = $1', [target.target_id]);
  const isAttachment = target.target_kind === 'attachment';
  const ids = documentOrderIds(target.created_at, chunks.length);
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const values: unknown[] = [];
    const tuples: string[] = [];
    chunks.slice(i, i + INSERT_BATCH).forEach((c, j) => {
      const vector = vectors[i + j];
      const p = values.length;
      tuples.push(`(${Array.from({ length: 22 }, (_, k) => `$${p + k + 1}`).join(',')})`);
      values.push(
        ids[i + j],
        target.tenant_id,
        target.report_id,
        isAttachment ? target.target_id : null,
        target.target_id,
        c.section_id,
        isAttachment ? 'attachment' : 'main',
        c.section_name,
        c.section_slug,
        isAttachment ? target.filename : null,
        isAttachment ? target.filename : c.section_name,
        c.content,
        c.content_tokens,
        c.order_in_doc,
        vector ? pgvector.toSql(vector) : null,
        vector ? model : null,
        c.content_type,
        c.table_id,
        c.figure_id,
        c.heading_path || null,
        c.page_start,
        c.page_end,
      );
    });
    await client.query(
      `INSERT INTO chunks (id, tenant_id, report_id, attachment_id, target_id, section_id, source_type, section_name,
             section_slug, attachment_filename, source_label, content, content_tokens, order_in_doc, embedding, embedding_model,
             content_type, table_id, figure_id, heading_path, page_start, page_end)
           VALUES ${tuples.join(',')}`,
      values,
    );
  }
  return ids;
}

interface CommandTarget {
  tenant_id: string;
  report_id: string;
  target_kind: TargetKind;
  target_id: string;
}

interface CommandOutcome {
  chunks: number;
  embedded: number;
  embedding_status: string;
  embedding_model: string | null;
  tokens: number;
}

/**
 * The embed command's outcome where the finalize stage records the pipeline's
 * (`parsed_metadata.embedding_status`, ...); returns the target's generation.
 */
export async function recordEmbeddingOutcome(
  pool: Pool,
  target: CommandTarget,
  outcome: CommandOutcome,
): Promise<number> {
  const { rows } = await pool.query<{ generation: number }>(
    `UPDATE ${TABLE[target.target_kind]}
        SET parsed_metadata = parsed_metadata || jsonb_build_object('embedding_status', $2::text,
              'chunks', $3::int, 'embedded_chunks', $4::int, 'embedding_model', $5::text),
            updated_at = now()
      WHERE id = $1
    RETURNING generation`,
    [
      target.target_id,
      outcome.embedding_status,
      outcome.chunks,
      outcome.embedded,
      outcome.embedding_model,
    ],
  );
  return rows[0]?.generation ?? 1;
}

/** The embed command's attempt in stage_runs (stage `embed`, `units.command = 1`), for cost tracking. */
export async function recordCommandRun(
  pool: Pool,
  target: CommandTarget,
  run: {
    generation: number;
    attempt: number;
    startedAt: Date;
    finishedAt: Date;
    provider: string;
    outcome: CommandOutcome;
  },
): Promise<void> {
  const { finishedAt } = run;
  await pool.query(
    `INSERT INTO stage_runs (id, tenant_id, report_id, target_kind, target_id, stage, generation, attempt,
       outcome, error, started_at, finished_at, duration_ms, provider, model, cost_cents, units)
     VALUES ($1,$2,$3,$4,$5,'embed',$6,$7,'done',NULL,$8,$9,$10,$11,$12,0,$13)`,
    [
      randomUUID(),
      target.tenant_id,
      target.report_id,
      target.target_kind,
      target.target_id,
      run.generation,
      run.attempt,
      run.startedAt,
      finishedAt,
      finishedAt.getTime() - run.startedAt.getTime(),
      run.provider,
      run.outcome.embedding_model,
      JSON.stringify({ chunks: run.outcome.chunks, tokens: run.outcome.tokens, command: 1 }),
    ],
  );
}
