import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  AppError,
  RRF_K,
  type ParsedRetrieveRequest,
  type RetrievedChunk,
  type RetrieveResponse,
} from '@reports/contracts';
import { systemClock, type Clock, type Logger, type Pool } from '@reports/platform';
import {
  LocalReranker,
  type Embedder,
  type Reranker,
  type TextGenerator,
} from '@reports/providers';
import {
  keywordQuery,
  vectorSearch,
  type KeywordIndex,
  type SearchScope,
  type VectorHit,
  type KeywordHit,
} from '@reports/search';
import { reciprocalRankFusion, type FusedHit } from '../fusion/rrf.js';
import { diversify, diversifyReports } from '../diversity/diversity.js';
import { figuresAfterText, limitFigures } from '../figures/figureShare.js';
import { HYDE_SYSTEM_PROMPT, hydeEmbeddingText, hydePrompt, wantsHyde } from '../hyde/hyde.js';
import { pickSectionBy } from '@reports/documents';
import {
  findReportTenant,
  findReportsTenant,
  loadChunks,
  loadSections,
  sectionChunkIds,
  withSubsections,
  type ChunkRow,
} from './chunks.js';
import type { RetrievalLogWriter } from '../log/retrievalLog.js';
import { queryState, type FolderIndexCache, type QueryState } from '../memory/cache.js';
import { keywordSearch, vectorSearch as vectorSearchInMemory } from '../memory/legs.js';
import { rowsOf, type FolderSnapshot } from '../memory/snapshot.js';

/** The adapters retrieval uses; main.ts builds the real ones, tests point them at test resources. */
export interface RetrievalDeps {
  pool: Pool;
  keywordIndex: KeywordIndex;
  /** Null when the configured remote provider has no key: vector-leg requests answer 503. */
  embedder: Embedder | null;
  /**
   * Null when rerank is off (`RERANK_ENABLED` unset); the local reranker when it is set without
   * `RERANK_URL`.
   */
  reranker: Reranker | null;
  /** Null with the local LLM provider, which writes nothing (no HyDE). */
  generator: TextGenerator | null;
  logger: Logger;
  /** Where each retrieval's log row goes: written behind the reply (ADR 136). */
  retrievalLog: Pick<RetrievalLogWriter, 'add'>;
  /** The log row's time (ADR 125); the system clock when absent. */
  clock?: Clock;
  /** Keyword-leg weight in the fusion (`RETRIEVAL_KEYWORD_WEIGHT`); 1 is the spec's RRF. */
  keywordWeight?: number;
  /** Keyword leg searches word families too (`RETRIEVAL_WORD_FAMILIES`); off is the spec's. */
  wordFamilies?: boolean;
  /**
   * Folders held in memory (`RETRIEVAL_MEMORY_BUDGET_MB` > 0, Postgres keyword backend): both
   * legs and the chunk rows are read from it (ADR 135). Absent or null: the legs' SQL.
   */
  folderIndex?: FolderIndexCache | null;
}

/** Candidates each leg contributes to fusion: deep enough for RRF to matter, small enough to stay fast. */
export function candidateDepth(topK: number): number {
  return Math.min(Math.max(topK * 5, 50), 200);
}
/** The reranker a request's `rerank: local` option asks for (pure, no configuration). */
const LOCAL_RERANKER = new LocalReranker();
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
  report_id: string;
  content_type: string;
}

/** What a request searches, once its scope is resolved for the caller. */
export interface ResolvedScope {
  tenantId: string;
  /** The folders searched (one, or the 2-20 of a multi-report scope). */
  reportIds: string[];
  /** Section scope: the chunks of the section and its subsections; null otherwise. */
  chunkIds: string[] | null;
  /** A folder scope searched in memory: its state, read with the tenant check. */
  state?: QueryState;
}

/** Whether the legs run over folders held in memory (ADR 135). */
function inMemory(deps: RetrievalDeps): deps is RetrievalDeps & { folderIndex: FolderIndexCache } {
  return Boolean(deps.folderIndex) && deps.keywordIndex.backend === 'postgres';
}

/**
 * The scope's tenant and what it covers; 404 when a report is outside the caller's tenant
 * (for multi_report: any of them) or the section is not one of the folder's. `keywordText` is
 * what the keyword leg will search (`keywordTextOf`), read with the folder's state in memory.
 */
export async function resolveScope(
  deps: RetrievalDeps,
  req: ParsedRetrieveRequest,
  keywordText: string,
): Promise<ResolvedScope> {
  const callerTenant = req.caller.kind === 'user' ? req.caller.tenant_id : null;
  const scope = req.scope;
  if (scope.type === 'multi_report') {
    const tenantId = await findReportsTenant(deps.pool, scope.report_ids, callerTenant);
    if (!tenantId) throw new AppError('not_found', 'report not found (one of report_ids)');
    return { tenantId, reportIds: [...scope.report_ids], chunkIds: null };
  }
  if (scope.type === 'folder' && inMemory(deps)) {
    // One round trip: the tenant check, the folder's version and the query's words.
    const state = await queryState(deps.pool, [scope.report_id], keywordText, {
      reportId: scope.report_id,
      tenantId: callerTenant,
    });
    if (!state.tenantId) throw new AppError('not_found', 'report not found');
    return { tenantId: state.tenantId, reportIds: [scope.report_id], chunkIds: null, state };
  }
  const tenantId = await findReportTenant(deps.pool, scope.report_id, callerTenant);
  if (!tenantId) throw new AppError('not_found', 'report not found');
  if (scope.type === 'folder') return { tenantId, reportIds: [scope.report_id], chunkIds: null };
  const sections = await loadSections(deps.pool, scope.report_id);
  const picked = pickSectionBy(sections, scope.section, (s) => ({
    name: s.section_name,
    slug: s.section_slug,
  }));
  if (!picked) throw new AppError('not_found', `section not found: ${scope.section}`);
  const chunkIds = await sectionChunkIds(
    deps.pool,
    scope.report_id,
    withSubsections(sections, picked),
  );
  return { tenantId, reportIds: [scope.report_id], chunkIds };
}

/** Step 1, HyDE: a hypothetical passage, only when a model actually writes it; null otherwise. */
async function writeHydePassage(
  deps: RetrievalDeps,
  req: ParsedRetrieveRequest,
  useVector: boolean,
  log: Logger,
): Promise<{ hydeText: string | null; hydeMs: number }> {
  if (
    !useVector ||
    req.options.hyde !== 'auto' ||
    !deps.generator ||
    !wantsHyde(req.query, req.scope.type)
  ) {
    return { hydeText: null, hydeMs: 0 };
  }
  const t = performance.now();
  let hydeText: string | null = null;
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
  return { hydeText, hydeMs: since(t) };
}

/** Step 2, the query vector. No embedder, or a provider down after its retries: 503 (spec). */
async function embedQuery(
  deps: RetrievalDeps,
  query: string,
  hydeText: string | null,
  log: Logger,
): Promise<number[] | null> {
  if (!deps.embedder) {
    throw new AppError(
      'embedding_unavailable',
      'embedding is unavailable: the embedding provider is not configured',
    );
  }
  try {
    const [v] = await deps.embedder.embed([hydeText ? hydeEmbeddingText(query, hydeText) : query]);
    return v ?? null;
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

interface LegResults {
  keywordHits: KeywordHit[];
  vectorHits: VectorHit[];
  keywordMs: number;
  vectorMs: number;
  /** The searched folders when both legs ran in memory; their rows need no query. */
  snapshots: FolderSnapshot[] | null;
}

/**
 * Step 3 from memory: the scope's folders at their current versions (loaded when new or
 * changed), or null when one of them does not fit the memory budget (then SQL).
 */
async function searchLegsInMemory(
  deps: RetrievalDeps & { folderIndex: FolderIndexCache },
  scope: SearchScope,
  keywordText: string,
  vector: number[] | null,
  useKeyword: boolean,
  depth: number,
  known: QueryState | undefined,
): Promise<LegResults | null> {
  const state = known ?? (await queryState(deps.pool, scope.reportIds, keywordText));
  const found = await Promise.all(
    scope.reportIds.map((id) => deps.folderIndex.get(id, state.versions.get(id) ?? 0n)),
  );
  if (found.some((f) => f === null)) return null;
  const snapshots = found as FolderSnapshot[];
  const allowed = scope.chunkIds ? new Set(scope.chunkIds) : null;
  let t = performance.now();
  const keywordHits = useKeyword ? keywordSearch(snapshots, state.lexemes, depth, allowed) : [];
  const keywordMs = useKeyword ? since(t) : 0;
  t = performance.now();
  const searchVector = vector !== null && !isZero(vector);
  const vectorHits = searchVector ? vectorSearchInMemory(snapshots, vector, depth, allowed) : [];
  const vectorMs = searchVector ? since(t) : 0;
  return { keywordHits, vectorHits, keywordMs, vectorMs, snapshots };
}

/** The text the keyword leg searches for a request (`keywordQuery`, with word families if asked). */
function keywordTextOf(deps: RetrievalDeps, req: ParsedRetrieveRequest): string {
  return keywordQuery(req.query, req.options.word_families ?? deps.wordFamilies ?? false);
}

/**
 * Step 3, both legs at once: the keyword leg searches `keywordText` (the question less its
 * function words, `keywordQuery`). A query without a single word has the zero vector: no
 * neighbours.
 */
async function searchLegs(
  deps: RetrievalDeps,
  scope: SearchScope,
  keywordText: string,
  vector: number[] | null,
  useKeyword: boolean,
  depth: number,
  state?: QueryState,
): Promise<LegResults> {
  if (inMemory(deps)) {
    const found = await searchLegsInMemory(
      deps,
      scope,
      keywordText,
      vector,
      useKeyword,
      depth,
      state,
    );
    if (found) return found;
  }
  let keywordMs = 0;
  let vectorMs = 0;
  const [keywordHits, vectorHits] = await Promise.all([
    useKeyword
      ? (async (): Promise<KeywordHit[]> => {
          const t = performance.now();
          const hits = await deps.keywordIndex.searchScope(scope, keywordText, depth);
          keywordMs = since(t);
          return hits;
        })()
      : Promise.resolve([]),
    vector && !isZero(vector)
      ? (async (): Promise<VectorHit[]> => {
          const t = performance.now();
          const hits = await vectorSearch(deps.pool, scope, vector, depth);
          vectorMs = since(t);
          return hits;
        })()
      : Promise.resolve([]),
  ]);
  return { keywordHits, vectorHits, keywordMs, vectorMs, snapshots: null };
}

/** Step 3 (cont.), RRF over both legs (outer join, k = 60) and the fused chunks' rows. */
async function fuseCandidates(
  deps: RetrievalDeps,
  req: ParsedRetrieveRequest,
  reportIds: readonly string[],
  legs: LegResults,
): Promise<{ ordered: Ordered[]; rows: Map<string, ChunkRow> }> {
  const fused = reciprocalRankFusion(
    legs.keywordHits,
    legs.vectorHits.map((h) => ({ chunk_id: h.chunk_id, rank: h.rank, score: h.distance })),
    { k: RRF_K, keywordWeight: req.options.keyword_weight ?? deps.keywordWeight ?? 1 },
  );
  const ids = fused.map((f) => f.chunk_id);
  const rows = legs.snapshots
    ? rowsOf(legs.snapshots, ids)
    : await loadChunks(deps.pool, reportIds, ids);
  const ordered: Ordered[] = fused
    .filter((f) => rows.has(f.chunk_id))
    .map((f) => ({
      ...f,
      rerank_score: null,
      score: f.rrf_score,
      source_type: rows.get(f.chunk_id)!.source_type,
      report_id: rows.get(f.chunk_id)!.report_id,
      content_type: rows.get(f.chunk_id)!.content_type,
    }));
  return { ordered, rows };
}

/** Step 4, rerank: on any failure the fused order stands and `reranked` is false. */
async function rerankCandidates(
  deps: RetrievalDeps,
  req: ParsedRetrieveRequest,
  ordered: Ordered[],
  rows: Map<string, ChunkRow>,
  log: Logger,
): Promise<{
  ordered: Ordered[];
  reranked: boolean;
  rerankMs: number;
  rerankError: string | null;
}> {
  const reranker =
    req.options.rerank === 'local'
      ? LOCAL_RERANKER
      : req.options.rerank === 'auto'
        ? deps.reranker
        : null;
  if (!reranker || ordered.length === 0) {
    return { ordered, reranked: false, rerankMs: 0, rerankError: null };
  }
  const t = performance.now();
  const head = ordered.slice(0, RERANK_MAX_DOCUMENTS);
  try {
    // Each candidate's text, and the section it is filed under (read by the local reranker).
    const results = await reranker.rerank(
      req.query,
      head.map((o) => {
        const row = rows.get(o.chunk_id)!;
        return { text: row.content, title: row.section_name };
      }),
    );
    const rest = ordered.slice(RERANK_MAX_DOCUMENTS).map((o) => ({ ...o, score: -Infinity }));
    return {
      ordered: [
        ...results.map((r) => ({ ...head[r.index]!, rerank_score: r.score, score: r.score })),
        ...rest,
      ],
      reranked: true,
      rerankMs: since(t),
      rerankError: null,
    };
  } catch (error) {
    const rerankError = (error as Error).message;
    log.warn({ err: rerankError }, 'rerank failed; returning the fused order');
    return { ordered, reranked: false, rerankMs: since(t), rerankError };
  }
}

/** The selected candidates as the spec's Chunk: the stored fields and what each leg said. */
function toChunks(selected: Ordered[], rows: Map<string, ChunkRow>): RetrievedChunk[] {
  return selected.map((o) => ({
    ...rows.get(o.chunk_id)!,
    rrf_score: o.rrf_score,
    vector_rank: o.vector_rank,
    bm25_rank: o.bm25_rank,
    vector_dist: o.vector_dist,
    bm25_score: o.bm25_score,
    rerank_score: o.rerank_score,
  }));
}

/**
 * The spec's retrieve flow over one report folder: HyDE for short queries (when a model can
 * write), the query embedding, both legs in parallel, RRF fusion (outer join, k = 60), optional
 * rerank with fallback to the fused order, the diversity rule, one retrieval log row (queued:
 * written within moments of the reply, ADR 136).
 */
export async function retrieve(
  deps: RetrievalDeps,
  req: ParsedRetrieveRequest,
): Promise<RetrieveResponse> {
  const started = performance.now();
  const askedAt = (deps.clock ?? systemClock).now();
  // Computed once: the scope check reads the folder's state with it, the legs search it.
  const keywordText = keywordTextOf(deps, req);
  const scope = await resolveScope(deps, req, keywordText);
  const { tenantId } = scope;
  // The log row's report: the folder, or the first of a multi-report scope (all are in the log's results).
  const reportId = scope.reportIds[0]!;
  const useKeyword = req.options.legs !== 'vector';
  const useVector = req.options.legs !== 'keyword';
  const log = deps.logger.child({ report_id: reportId, scope_type: req.scope.type });

  const { hydeText, hydeMs } = await writeHydePassage(deps, req, useVector, log);
  const embedStarted = performance.now();
  const vector = useVector ? await embedQuery(deps, req.query, hydeText, log) : null;
  const embedMs = hydeMs + since(embedStarted);

  const retrievalStarted = performance.now();
  const legs = await searchLegs(
    deps,
    { reportIds: scope.reportIds, chunkIds: scope.chunkIds },
    keywordText,
    vector,
    useKeyword,
    candidateDepth(req.top_k),
    scope.state,
  );
  const fused = await fuseCandidates(deps, req, scope.reportIds, legs);
  let retrievalMs = since(retrievalStarted);

  const { ordered, reranked, rerankMs, rerankError } = await rerankCandidates(
    deps,
    req,
    fused.ordered,
    fused.rows,
    log,
  );

  // Step 5, diversity: across source types in one folder, across reports in a multi-report scope;
  // before it, photo captions hold at most a third of the top k, after its text (ADR 076).
  const t = performance.now();
  const limited = limitFigures(ordered, req.top_k, req.query);
  const { selected, swaps } =
    req.scope.type === 'multi_report'
      ? diversifyReports(limited, req.top_k)
      : diversify(limited, req.top_k);
  retrievalMs += since(t);
  // The diversity rule's swaps re-order by score: its figures go after its text again.
  const chunks = toChunks(figuresAfterText(selected, req.query), fused.rows);

  const id = randomUUID();
  deps.retrievalLog.add({
    id,
    created_at: askedAt,
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
    keyword_candidates: legs.keywordHits.length,
    vector_candidates: legs.vectorHits.length,
    hyde_ms: hydeMs,
    embed_ms: embedMs,
    keyword_ms: legs.keywordMs,
    vector_ms: legs.vectorMs,
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
