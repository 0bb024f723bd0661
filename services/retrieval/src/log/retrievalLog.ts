import type { Pool } from '@reports/platform';

/** One row of `retrieval_logs` (migration 0021). */
export interface RetrievalLogEntry {
  id: string;
  tenant_id: string;
  report_id: string;
  caller: 'user' | 'admin';
  user_id: string | null;
  scope_type: string;
  query: string;
  hyde_text: string | null;
  top_k: number;
  legs: 'hybrid' | 'keyword' | 'vector';
  keyword_backend: string;
  embedding_model: string | null;
  used_hyde: boolean;
  reranked: boolean;
  rerank_error: string | null;
  diversity_swaps: number;
  keyword_candidates: number;
  vector_candidates: number;
  hyde_ms: number;
  embed_ms: number;
  keyword_ms: number;
  vector_ms: number;
  retrieval_ms: number;
  rerank_ms: number;
  total_ms: number;
  results: Array<{
    chunk_id: string;
    rank: number;
    rrf_score: number;
    bm25_rank: number | null;
    vector_rank: number | null;
    rerank_score: number | null;
  }>;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'report_id',
  'caller',
  'user_id',
  'scope_type',
  'query',
  'hyde_text',
  'top_k',
  'legs',
  'keyword_backend',
  'embedding_model',
  'used_hyde',
  'reranked',
  'rerank_error',
  'diversity_swaps',
  'keyword_candidates',
  'vector_candidates',
  'hyde_ms',
  'embed_ms',
  'keyword_ms',
  'vector_ms',
  'retrieval_ms',
  'rerank_ms',
  'total_ms',
  'results',
] as const;

export async function insertRetrievalLog(pool: Pool, entry: RetrievalLogEntry): Promise<void> {
  const values = COLUMNS.map((c) => (c === 'results' ? JSON.stringify(entry.results) : entry[c]));
  await pool.query(
    `INSERT INTO retrieval_logs (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
    values,
  );
}
