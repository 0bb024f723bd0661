import type { Pool } from '@reports/platform';
import type { RetrievedChunk } from '@reports/contracts';

/** The stored fields of a chunk that retrieval returns (the spec's Chunk without the scores). */
export type ChunkRow = Omit<
  RetrievedChunk,
  'rrf_score' | 'vector_rank' | 'bm25_rank' | 'vector_dist' | 'bm25_score' | 'rerank_score'
>;

/** Loads the given chunks of one folder (ids of other folders are ignored). */
export async function loadChunks(
  pool: Pool,
  reportId: string,
  ids: string[],
): Promise<Map<string, ChunkRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<ChunkRow>(
    `SELECT id, report_id, section_id, attachment_id, figure_id, table_id, content_type, source_type,
            section_name, section_slug, attachment_filename, source_label, content, content_tokens,
            order_in_doc, embedding_type
       FROM chunks WHERE id = ANY($1::uuid[]) AND report_id = $2`,
    [ids, reportId],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * The report's tenant when the caller may see it: a user only inside their tenant, an admin in
 * any tenant. Null means 404 for the caller.
 */
export async function findReportTenant(
  pool: Pool,
  reportId: string,
  tenantId: string | null,
): Promise<string | null> {
  const { rows } = await pool.query<{ tenant_id: string }>(
    tenantId === null
      ? 'SELECT tenant_id FROM reports WHERE id = $1'
      : 'SELECT tenant_id FROM reports WHERE id = $1 AND tenant_id = $2',
    tenantId === null ? [reportId] : [reportId, tenantId],
  );
  return rows[0]?.tenant_id ?? null;
}
