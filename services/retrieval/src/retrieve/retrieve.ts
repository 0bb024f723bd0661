import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  AppError,
  RRF_K,
  type ParsedRetrieveRequest,
  type RetrievedChunk,
  type RetrieveResponse,
} from '@reports/contracts';
import type { Logger, Pool } from '@reports/platform';
import type { Embedder, Reranker, TextGenerator } from '@reports/providers';
import { vectorSearch, type KeywordIndex, type VectorHit, type KeywordHit } from '@reports/search';
import { reciprocalRankFusion, type FusedHit } from '../fusion/rrf.js';
import { diversify } from '../diversity/diversity.js';
import { HYDE_SYSTEM_PROMPT, hydeEmbeddingText, hydePrompt, wantsHyde } from '../hyde/hyde.js';
import { findReportTenant, loadChunks } from './chunks.js';
import { insertRetrievalLog } from '../log/retrievalLog.js';

/** The adapters retrieval uses; main.ts builds the real ones, tests point them at test resources. */
export interface RetrievalDeps {
  pool: Pool;
  keywordIndex: KeywordIndex;
  /** Null when the configured remote provider has no key: vector-leg requests answer 503. */
  embedder: Embedder | null;
  /** Null when rerank is off (`RERANK_ENABLED` unset or no `RERANK_URL`). */
  reranker: Reranker | null;
  /** Null with the local LLM provider, which writes nothing (no HyDE). */
  generator: TextGenerator | null;
  logger: Logger;
  /** Keyword-leg weight in the fusion (`RETRIEVAL_KEYWORD_WEIGHT`); 1 is the spec's RRF. */
  keywordWeight?: number;
}

/** Candidates each leg contributes to fusion: deep enough for RRF to matter, small enough to stay fast. */
export function candidateDepth(topK: number): number {
  return Math.min(Math.max(topK * 5, 50), 200);
}
/** At most this many fused candidates go to the reranker. */
export const RERANK_MAX_DOCUMENTS = 100;
/** Time budget of the HyDE passage; past it the query is embedded as typed. */
export const HYDE_TIMEOUT_MS = 8000;

const since = (t: number) => Math.round(performance.now() - t);

function isZero(v: number[]): boolean {
  return v.every((x) => x === 0);
}

interface Ordered extends FusedHit {
  rerank_score: number | null;
  /** What the final order and the diversity rule compare: rerank score when reranked, else RRF. */
  score: number;
  source_type: string;
}

/**
 * The spec's retrieve flow over one report folder: HyDE for short queries (when a model can
 * write), the query embedding, both legs in parallel, RRF fusion (outer join, k = 60), optional
 * rerank with fallback to the fused order, the diversity rule, one retrieval log row.
 */
export async function retrieve(
  deps: RetrievalDeps,
  req: ParsedRetrieveRequest,
): Promise<RetrieveResponse> {
  const started = performance.now();
  if (req.scope.type !== 'folder') {
    throw new AppError(
      'scope_not_implemented',
      `retrieval scope "${req.scope.type}" is not implemented yet (planned)`,
    );
  }
  const reportId = req.scope.report_id;
  const tenantId = await findReportTenant(
    deps.pool,
    reportId,
    req.caller.kind === 'user' ? req.caller.tenant_id : null,
  );
  if (!tenantId) throw new AppError('not_found', 'report not found');

  const useKeyword = req.options.legs !== 'vector';
  const useVector = req.options.legs !== 'keyword';
  const log = deps.logger.child({ report_id: reportId });

  // 1. HyDE: only when a model actually writes the passage.
  let hydeText: string | null = null;
  let hydeMs = 0;
  if (
    useVector &&
    req.options.hyde === 'auto' &&
    deps.generator &&
    wantsHyde(req.query, req.scope.type)
  ) {
    const t = performance.now();
    try {
      const completion = await deps.generator.complete({
        system: HYDE_SYSTEM_PROMPT,
        prompt: hydePrompt(req.query),
        maxTokens: 200,
        temperature: 0.2,
        signal: AbortSignal.timeout(HYDE_TIMEOUT_MS),
      });
      hydeText = completion.text.trim() || null;
    } catch (error) {
      log.warn(
        { err: (error as Error).message },
        'HyDE passage failed; embedding the query as typed',
      );
    }
    hydeMs = since(t);
  }

  // 2. The query vector. No embedder, or a provider down after its retries: 503 (spec).
  let vector: number[] | null = null;
  const embedStarted = performance.now();
  if (useVector) {
    if (!deps.embedder) {
      throw new AppError(
        'embedding_unavailable',
        'embedding is unavailable: the embedding provider is not configured',
      );
    }
    try {
      const [v] = await deps.embedder.embed([
        hydeText ? hydeEmbeddingText(req.query, hydeText) : req.query,
      ]);
      vector = v ?? null;
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'query embedding failed');
      throw new AppError(
        'embedding_unavailable',
        'embedding is unavailable: the provider did not answer; try again later',
        {
          cause: error,
        },
      );
    }
  }
  const embedMs = hydeMs + since(embedStarted);

  // 3. Both legs at once. A query without a single word has the zero vector: no neighbours.
  const retrievalStarted = performance.now();
  const depth = candidateDepth(req.top_k);
  let keywordMs = 0;
  let vectorMs = 0;
  const [keywordHits, vectorHits] = await Promise.all([
    useKeyword
      ? (async (): Promise<KeywordHit[]> => {
          const t = performance.now();
          const hits = await deps.keywordIndex.search(reportId, req.query, depth);
          keywordMs = since(t);
          return hits;
        })()
      : Promise.resolve([]),
    vector && !isZero(vector)
      ? (async (): Promise<VectorHit[]> => {
          const t = performance.now();
          const hits = await vectorSearch(deps.pool, reportId, vector, depth);
          vectorMs = since(t);
          return hits;
        })()
      : Promise.resolve([]),
  ]);
  const fused = reciprocalRankFusion(
    keywordHits,
    vectorHits.map((h) => ({ chunk_id: h.chunk_id, rank: h.rank, score: h.distance })),
    { k: RRF_K, keywordWeight: req.options.keyword_weight ?? deps.keywordWeight ?? 1 },
  );
  const rows = await loadChunks(
    deps.pool,
    reportId,
    fused.map((f) => f.chunk_id),
  );
  let ordered: Ordered[] = fused
    .filter((f) => rows.has(f.chunk_id))
    .map((f) => ({
      ...f,
      rerank_score: null,
      score: f.rrf_score,
      source_type: rows.get(f.chunk_id)!.source_type,
    }));
  let retrievalMs = since(retrievalStarted);

  // 4. Rerank: on any failure the fused order stands and `reranked` is false.
  let reranked = false;
  let rerankMs = 0;
  let rerankError: string | null = null;
  if (deps.reranker && req.options.rerank === 'auto' && ordered.length > 0) {
    const t = performance.now();
    const head = ordered.slice(0, RERANK_MAX_DOCUMENTS);
    try {
      const results = await deps.reranker.rerank(
        req.query,
        head.map((o) => rows.get(o.chunk_id)!.content),
      );
      const rest = ordered.slice(RERANK_MAX_DOCUMENTS).map((o) => ({ ...o, score: -Infinity }));
      ordered = [
        ...results.map((r) => ({ ...head[r.index]!, rerank_score: r.score, score: r.score })),
        ...rest,
      ];
      reranked = true;
    } catch (error) {
      rerankError = (error as Error).message;
      log.warn({ err: rerankError }, 'rerank failed; returning the fused order');
    }
    rerankMs = since(t);
  }

  // 5. Diversity (folder scope).
  const t = performance.now();
  const { selected, swaps } = diversify(ordered, req.top_k);
  retrievalMs += since(t);

  const chunks: RetrievedChunk[] = selected.map((o) => ({
    ...rows.get(o.chunk_id)!,
    rrf_score: o.rrf_score,
    vector_rank: o.vector_rank,
    bm25_rank: o.bm25_rank,
    vector_dist: o.vector_dist,
    bm25_score: o.bm25_score,
    rerank_score: o.rerank_score,
  }));

  const id = randomUUID();
  await insertRetrievalLog(deps.pool, {
    id,
    tenant_id: tenantId,
    report_id: reportId,
    caller: req.caller.kind,
    user_id: req.caller.kind === 'user' ? req.caller.user_id : null,
    scope_type: req.scope.type,
    query: req.query,
    hyde_text: hydeText,
    top_k: req.top_k,
    legs: req.options.legs,
    keyword_backend: deps.keywordIndex.backend,
    embedding_model: useVector ? (deps.embedder?.model ?? null) : null,
    used_hyde: hydeText !== null,
    reranked,
    rerank_error: rerankError,
    diversity_swaps: swaps,
    keyword_candidates: keywordHits.length,
    vector_candidates: vectorHits.length,
    hyde_ms: hydeMs,
    embed_ms: embedMs,
    keyword_ms: keywordMs,
    vector_ms: vectorMs,
    retrieval_ms: retrievalMs,
    rerank_ms: rerankMs,
    total_ms: since(started),
    results: chunks.map((c, i) => ({
      chunk_id: c.id,
      rank: i + 1,
      rrf_score: c.rrf_score,
      bm25_rank: c.bm25_rank,
      vector_rank: c.vector_rank,
      rerank_score: c.rerank_score,
    })),
  });

  return {
    chunks,
    embed_ms: embedMs,
    retrieval_ms: retrievalMs,
    rerank_ms: rerankMs,
    scope_type: req.scope.type,
    top_k: req.top_k,
    fusion: 'hybrid_rrf',
    reranked,
    used_hyde: hydeText !== null,
    retrieval_log_id: id,
  };
}
