import pgvector from 'pgvector';
import type { Pool } from '@reports/platform';
import type { SearchScope } from '../keyword/keywordIndex.js';

/** One vector-leg hit: cosine distance to the query vector, nearest first. */
export interface VectorHit {
  chunk_id: string;
  /** 1 for the nearest chunk. */
  rank: number;
  distance: number;
}

/**
 * Exact nearest neighbours inside one folder. The `report_id = $1` condition is served by
 * `chunks_report_idx`, so only the folder's rows are read (a folder holds a few thousand
 * chunks at most; an exact scan of those is fast and has recall 1). An approximate index over
 * the whole table would visit other reports' rows, which design.md rules out.
 * Chunks without an embedding are left to the keyword leg.
 */
export const VECTOR_SQL = `
SELECT id::text AS chunk_id, embedding <=> $2::vector AS distance
  FROM chunks
 WHERE report_id = ANY($1::uuid[]) AND embedding IS NOT NULL
   AND ($4::uuid[] IS NULL OR id = ANY($4::uuid[]))
 ORDER BY distance, id
 LIMIT $3`;

/** Nearest chunks of one folder, or of a scope (several folders, or a section's chunks). */
export async function vectorSearch(
  pool: Pool,
  scope: string | SearchScope,
  vector: number[],
  limit: number,
): Promise<VectorHit[]> {
  const s: SearchScope = typeof scope === 'string' ? { reportIds: [scope], chunkIds: null } : scope;
  const { rows } = await pool.query<{ chunk_id: string; distance: number }>(VECTOR_SQL, [
    s.reportIds,
    pgvector.toSql(vector),
    limit,
    s.chunkIds,
  ]);
  return rows.map((r, i) => ({ chunk_id: r.chunk_id, rank: i + 1, distance: Number(r.distance) }));
}
