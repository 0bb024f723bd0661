import { randomUUID } from 'node:crypto';
import pgvector from 'pgvector';
import type { Embedder } from '@reports/providers';
import { withTransaction, type Pool, type StageDefinition } from '@reports/platform';
import { chunkSections, type ChunkDraft, type SectionText } from '../chunking/chunker.js';

export interface EmbedDeps {
  pool: Pool;
  /** Null when the embedding provider's key is not configured: the stage is skipped (spec). */
  embedder: Embedder | null;
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
          batch.map((c) => c.content),
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
 * Embed: the target's sections become chunks with embeddings and a keyword
 * index (the generated tsvector column). Earlier chunks of the target are
 * replaced in one transaction.
 */
export function embedStage(deps: EmbedDeps): StageDefinition<'FiguresAnnotated'> {
  return {
    stage: 'embed',
    async run(event, ctx) {
      const { rows: sections } = await deps.pool.query<SectionText>(
        `SELECT id, section_name, section_slug, markdown FROM sections WHERE target_id = $1 ORDER BY order_in_doc`,
        [event.target_id],
      );
      const chunks = chunkSections(sections);
      const vectors = deps.embedder
        ? await embedAll(deps.embedder, chunks, ctx.signal)
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
        for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
          const values: unknown[] = [];
          const tuples: string[] = [];
          chunks.slice(i, i + INSERT_BATCH).forEach((c, j) => {
            const vector = vectors[i + j];
            const p = values.length;
            tuples.push(`(${Array.from({ length: 16 }, (_, k) => `$${p + k + 1}`).join(',')})`);
            values.push(
              randomUUID(),
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
            );
          });
          await client.query(
            `INSERT INTO chunks (id, tenant_id, report_id, attachment_id, target_id, section_id, source_type, section_name,
               section_slug, attachment_filename, source_label, content, content_tokens, order_in_doc, embedding, embedding_model)
             VALUES ${tuples.join(',')}`,
            values,
          );
        }
        return true;
      });
      if (!written) return { outcome: 'skipped', reason: 'target deleted' };
      return {
        outcome: 'done',
        emit: {
          type: 'ChunksEmbedded',
          data: {
            chunks: chunks.length,
            embedded,
            embedding_status: embeddingStatus(chunks.length, embedded, deps.embedder === null),
            embedding_model: model,
            cost_cents: 0,
          },
        },
        usage: {
          provider: deps.embedder?.provider ?? 'none',
          model: model ?? undefined,
          cost_cents: 0,
          units: {
            chunks: chunks.length,
            tokens: chunks.reduce((s, c) => s + c.content_tokens, 0),
          },
        },
      };
    },
  };
}
