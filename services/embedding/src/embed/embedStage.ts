import { randomUUID } from 'node:crypto';
import pgvector from 'pgvector';
import type { Embedder } from '@reports/providers';
import type { TargetKind } from '@reports/contracts';
import type { IndexableChunk, KeywordIndex } from '@reports/search';
import { withTransaction, type Pool, type StageDefinition } from '@reports/platform';
import { chunkDocument, indexedText, type ChunkDraft } from '../chunking/chunker.js';
import { loadDocumentText } from '../chunking/documentText.js';

export interface EmbedDeps {
  pool: Pool;
  /** Null when the embedding provider's key is not configured: the stage is skipped (spec). */
  embedder: Embedder | null;
  /**
   * The keyword leg's index, told about the target's new chunks after they are written
   * (a no-op for Postgres, whose statistics follow the chunks table by trigger).
   */
  keywordIndex?: KeywordIndex;
}

/** One pipeline target, as events and embed commands name it. */
export interface EmbedTarget {
  tenant_id: string;
  report_id: string;
  target_kind: TargetKind;
  target_id: string;
}

/** What embedding one target did; `written` is false when the target no longer exists. */
export interface EmbedOutcome {
  written: boolean;
  chunks: number;
  embedded: number;
  embedding_status: 'complete' | 'partial' | 'failed' | 'skipped';
  embedding_model: string | null;
  tokens: number;
}

const INSERT_BATCH = 100;

/**
 * Embeds in provider-sized batches. A batch that fails leaves its chunks
 * without embeddings (found by the keyword leg only): embedding failure is soft.
 */
async function embedAll(
  embedder: Embedder,
  chunks: ChunkDraft[],
  signal: AbortSignal,
): Promise<Array<number[] | null>> {
  const vectors: Array<number[] | null> = [];
  for (let i = 0; i < chunks.length; i += embedder.maxBatch) {
    const batch = chunks.slice(i, i + embedder.maxBatch);
    try {
      vectors.push(
        ...(await embedder.embed(
          batch.map((c) => indexedText(c)),
          signal,
        )),
      );
    } catch {
      vectors.push(...batch.map(() => null));
    }
  }
  return vectors;
}

export function embeddingStatus(
  total: number,
  embedded: number,
  skipped: boolean,
): 'complete' | 'partial' | 'failed' | 'skipped' {
  if (skipped) return 'skipped';
  if (embedded === total) return 'complete';
  return embedded === 0 ? 'failed' : 'partial';
}

/**
 * Chunks and embeds one target, replacing its earlier chunks in one transaction (so running it
 * again leaves the same state): the embed stage's work, also run by the embed command (backfill).
 */
export async function embedTarget(
  deps: EmbedDeps,
  event: EmbedTarget,
  signal: AbortSignal,
): Promise<EmbedOutcome> {
  const chunks = chunkDocument(
    await loadDocumentText(deps.pool, event.target_kind, event.target_id),
  );
  const vectors = deps.embedder
    ? await embedAll(deps.embedder, chunks, signal)
    : chunks.map(() => null);
  const embedded = vectors.filter((v) => v !== null).length;
  const model = deps.embedder?.model ?? null;

  const written = await withTransaction(deps.pool, async (client) => {
    const table = event.target_kind === 'report' ? 'reports' : 'attachments';
    const { rows } = await client.query<{ filename: string }>(
      `SELECT filename FROM ${table} WHERE id = $1 FOR UPDATE`,
      [event.target_id],
    );
    const target = rows[0];
    if (!target) return false;
    await client.query('DELETE FROM chunks WHERE target_id = $1', [event.target_id]);
    const isAttachment = event.target_kind === 'attachment';
    const ids = chunks.map(() => randomUUID());
    for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
      const values: unknown[] = [];
      const tuples: string[] = [];
      chunks.slice(i, i + INSERT_BATCH).forEach((c, j) => {
        const vector = vectors[i + j];
        const p = values.length;
        tuples.push(`(${Array.from({ length: 20 }, (_, k) => `$${p + k + 1}`).join(',')})`);
        values.push(
          ids[i + j],
          event.tenant_id,
          event.report_id,
          isAttachment ? event.target_id : null,
          event.target_id,
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
        );
      });
      await client.query(
        `INSERT INTO chunks (id, tenant_id, report_id, attachment_id, target_id, section_id, source_type, section_name,
               section_slug, attachment_filename, source_label, content, content_tokens, order_in_doc, embedding, embedding_model,
               content_type, table_id, figure_id, heading_path)
             VALUES ${tuples.join(',')}`,
        values,
      );
    }
    return ids;
  });
  if (written && deps.keywordIndex) {
    const indexable: IndexableChunk[] = chunks.map((c, i) => ({
      id: written[i]!,
      tenant_id: event.tenant_id,
      report_id: event.report_id,
      target_id: event.target_id,
      content: indexedText(c),
    }));
    await deps.keywordIndex.replaceTarget(
      { reportId: event.report_id, targetId: event.target_id },
      indexable,
    );
  }
  return {
    written: written !== false,
    chunks: chunks.length,
    embedded,
    embedding_status: embeddingStatus(chunks.length, embedded, deps.embedder === null),
    embedding_model: model,
    tokens: chunks.reduce((s, c) => s + c.content_tokens, 0),
  };
}

/**
 * Embed: the target's sections become chunks with embeddings and a keyword
 * index (the generated tsvector column). Earlier chunks of the target are
 * replaced in one transaction.
 */
export function embedStage(deps: EmbedDeps): StageDefinition<'FiguresAnnotated'> {
  return {
    stage: 'embed',
    async run(event, ctx) {
      const outcome = await embedTarget(deps, event, ctx.signal);
      if (!outcome.written) return { outcome: 'skipped', reason: 'target deleted' };
      return {
        outcome: 'done',
        emit: {
          type: 'ChunksEmbedded',
          data: {
            chunks: outcome.chunks,
            embedded: outcome.embedded,
            embedding_status: outcome.embedding_status,
            embedding_model: outcome.embedding_model,
            cost_cents: 0,
          },
        },
        usage: {
          provider: deps.embedder?.provider ?? 'none',
          model: outcome.embedding_model ?? undefined,
          cost_cents: 0,
          units: { chunks: outcome.chunks, tokens: outcome.tokens },
        },
      };
    },
  };
}
