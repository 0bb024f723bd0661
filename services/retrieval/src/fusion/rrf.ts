import { RRF_K } from '@reports/contracts';

/** A chunk's place in one leg. */
export interface LegHit {
  chunk_id: string;
  /** 1-based. */
  rank: number;
  score: number;
}

/** A chunk after fusion: its RRF score and what each leg said about it (null: not found by that leg). */
export interface FusedHit {
  chunk_id: string;
  rrf_score: number;
  bm25_rank: number | null;
  bm25_score: number | null;
  vector_rank: number | null;
  vector_dist: number | null;
}

export interface FusionOptions {
  /** The RRF constant; the spec's 60. */
  k: number;
  /**
   * Weight of the keyword leg's term; 1 is the spec's formula. An operator option
   * (`RETRIEVAL_KEYWORD_WEIGHT`) for embedders weaker than BM25, such as the local one.
   */
  keywordWeight: number;
}

export const SPEC_FUSION: FusionOptions = { k: RRF_K, keywordWeight: 1 };

/**
 * Reciprocal rank fusion (spec rule 2): score = 1/(k + vector_rank) + 1/(k + bm25_rank), k = 60,
 * as a full outer join: a chunk found by one leg only still takes part with that leg's term.
 * With `keywordWeight` w the keyword term is w/(k + bm25_rank). Best first; ties go to the chunk
 * with the better single rank, then to the better keyword rank (of two chunks that tie on both,
 * one holds in the keyword leg the rank the other holds in the vector leg), then to the id, which
 * sorts by upload and place in the document (docs/adr/137). Pure.
 */
export function reciprocalRankFusion(
  keyword: readonly LegHit[],
  vector: readonly LegHit[],
  options: FusionOptions = SPEC_FUSION,
): FusedHit[] {
  const { k, keywordWeight } = options;
  const fused = new Map<string, FusedHit>();
  const entry = (id: string): FusedHit => {
    let e = fused.get(id);
    if (!e) {
      e = {
        chunk_id: id,
        rrf_score: 0,
        bm25_rank: null,
        bm25_score: null,
        vector_rank: null,
        vector_dist: null,
      };
      fused.set(id, e);
    }
    return e;
  };
  for (const h of keyword) {
    const e = entry(h.chunk_id);
    if (e.bm25_rank !== null) continue;
    e.bm25_rank = h.rank;
    e.bm25_score = h.score;
    e.rrf_score += keywordWeight / (k + h.rank);
  }
  for (const h of vector) {
    const e = entry(h.chunk_id);
    if (e.vector_rank !== null) continue;
    e.vector_rank = h.rank;
    e.vector_dist = h.score;
    e.rrf_score += 1 / (k + h.rank);
  }
  const best = (e: FusedHit) => Math.min(e.bm25_rank ?? Infinity, e.vector_rank ?? Infinity);
  return [...fused.values()].sort(
    (a, b) =>
      b.rrf_score - a.rrf_score ||
      best(a) - best(b) ||
      (a.bm25_rank ?? Infinity) - (b.bm25_rank ?? Infinity) ||
      (a.chunk_id < b.chunk_id ? -1 : a.chunk_id > b.chunk_id ? 1 : 0),
  );
}
