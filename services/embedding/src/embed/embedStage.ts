import type { Embedder } from '@reports/providers';
import type { EventOf, TargetKind } from '@reports/contracts';
import type { IndexableChunk, KeywordIndex } from '@reports/search';
import {
  announceCommitted,
  fenceOutput,
  recordOutput,
  withTransaction,
  type OutputFence,
  type OutputKey,
  type Pool,
  type StageDefinition,
} from '@reports/platform';
import { chunkDocument, embeddedText, indexedText, type ChunkDraft } from '../chunking/chunker.js';
import { loadDocumentText, lockTarget, replaceChunks } from './store.js';

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

type EmbeddedData = EventOf<'ChunksEmbedded'>['data'];

/**
 * The embed stage's write fence: its output is recorded with the chunks, once per generation.
 * The embed command (an operator's re-embed) runs without one.
 */
export interface EmbedFence {
  key: OutputKey;
  attempt: number;
  data(outcome: Omit<EmbedOutcome, 'written'>): EmbeddedData;
}

/**
 * What embedding one target did; `written` is false when the target no longer exists, or when
 * `fenced` says the generation's output was already committed (or a newer one's).
 */
export interface EmbedOutcome {
  written: boolean;
  fenced?: Exclude<OutputFence<EmbeddedData>, { state: 'write' }>;
  chunks: number;
  embedded: number;
  embedding_status: 'complete' | 'partial' | 'failed' | 'skipped';
  embedding_model: string | null;
  tokens: number;
}

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
          batch.map((c) => embeddedText(c)),
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
  fence?: EmbedFence,
): Promise<EmbedOutcome> {
  const chunks = chunkDocument(
    await loadDocumentText(deps.pool, event.target_kind, event.target_id),
  );
  const vectors = deps.embedder
    ? await embedAll(deps.embedder, chunks, signal)
    : chunks.map(() => null);
  const embedded = vectors.filter((v) => v !== null).length;
  const model = deps.embedder?.model ?? null;
  const outcome: Omit<EmbedOutcome, 'written'> = {
    chunks: chunks.length,
    embedded,
    embedding_status: embeddingStatus(chunks.length, embedded, deps.embedder === null),
    embedding_model: model,
    tokens: chunks.reduce((s, c) => s + c.content_tokens, 0),
  };

  const result = await withTransaction(deps.pool, async (client) => {
    const target = await lockTarget(client, event.target_kind, event.target_id);
    if (!target) return { kind: 'deleted' as const };
    if (fence) {
      const state = await fenceOutput<EmbeddedData>(client, fence.key);
      if (state.state !== 'write') return { kind: 'fenced' as const, fence: state };
    }
    const ids = await replaceChunks(
      client,
      { ...event, filename: target.filename, created_at: target.created_at },
      chunks,
      vectors,
      model,
    );
    if (fence) await recordOutput(client, fence.key, fence.attempt, fence.data(outcome));
    return { kind: 'written' as const, ids };
  });
  if (result.kind === 'deleted') return { ...outcome, written: false };
  if (result.kind === 'fenced') return { ...outcome, written: false, fenced: result.fence };
  const written = result.ids;
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
  return { ...outcome, written: true };
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
      const key = {
        tenant_id: event.tenant_id,
        report_id: event.report_id,
        target_id: event.target_id,
        stage: 'embed' as const,
        generation: event.generation,
      };
      // A generation's output is written once: a later attempt announces it again.
      const early = await withTransaction(deps.pool, (client) =>
        fenceOutput<EmbeddedData>(client, key),
      );
      if (early.state !== 'write') return announceCommitted('ChunksEmbedded', early, ctx.logger);
      const outcome = await embedTarget(deps, event, ctx.signal, {
        key,
        attempt: ctx.deliveryCount,
        data: (o) => ({
          chunks: o.chunks,
          embedded: o.embedded,
          embedding_status: o.embedding_status,
          embedding_model: o.embedding_model,
          cost_cents: 0,
        }),
      });
      if (outcome.fenced) return announceCommitted('ChunksEmbedded', outcome.fenced, ctx.logger);
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
