import type { Pool } from '@reports/platform';
import type { RetrievedChunk } from '@reports/contracts';

/** The stored fields of a chunk that retrieval returns (the spec's Chunk without the scores). */
export type ChunkRow = Omit<
  RetrievedChunk,
  'rrf_score' | 'vector_rank' | 'bm25_rank' | 'vector_dist' | 'bm25_score' | 'rerank_score'
>;

/**
 * The columns of a ChunkRow, over `chunks c LEFT JOIN sections s LEFT JOIN figures f` (a figure
 * chunk's page is its figure's; any other chunk's the pages its text comes from, written with
 * it (migration 0084), else, for chunks written before, its section's pages).
 */
export const CHUNK_COLUMNS = `c.id, c.report_id, c.section_id, c.attachment_id, c.figure_id, c.table_id,
       c.content_type, c.source_type, c.section_name, c.section_slug, c.attachment_filename,
       c.source_label, c.content, c.content_tokens, c.order_in_doc,
       COALESCE(f.page_number, c.page_start, s.page_start) AS page_start,
       COALESCE(f.page_number, c.page_end, c.page_start, s.page_end, s.page_start) AS page_end, c.embedding_type`;

/** Loads the given chunks of the scope's folders (ids of other folders are ignored). */
export async function loadChunks(
  pool: Pool,
  reportIds: readonly string[],
  ids: string[],
): Promise<Map<string, ChunkRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<ChunkRow>(
    `SELECT ${CHUNK_COLUMNS}
       FROM chunks c
       LEFT JOIN sections s ON s.id = c.section_id
       LEFT JOIN figures f ON f.id = c.figure_id
      WHERE c.id = ANY($1::uuid[]) AND c.report_id = ANY($2::uuid[])`,
    [ids, reportIds],
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

/**
 * The tenant of every report of a multi-report scope when the caller may see them all (a user
 * only inside their tenant; an admin when they share one tenant). Null means 404.
 */
export async function findReportsTenant(
  pool: Pool,
  reportIds: readonly string[],
  tenantId: string | null,
): Promise<string | null> {
  const { rows } = await pool.query<{ tenant_id: string }>(
    tenantId === null
      ? 'SELECT DISTINCT tenant_id FROM reports WHERE id = ANY($1::uuid[])'
      : 'SELECT DISTINCT tenant_id FROM reports WHERE id = ANY($1::uuid[]) AND tenant_id = $2',
    tenantId === null ? [reportIds] : [reportIds, tenantId],
  );
  if (rows.length !== 1) return null;
  const { rows: count } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM reports WHERE id = ANY($1::uuid[]) AND tenant_id = $2',
    [reportIds, rows[0]!.tenant_id],
  );
  return count[0]?.n === reportIds.length ? rows[0]!.tenant_id : null;
}

/** A parsed section of a folder as the section scope reads it. */
export interface SectionRow {
  id: string;
  target_id: string;
  section_name: string;
  section_slug: string;
  level: number;
}

/** The folder's parsed sections (main report, then attachments), in document order per target. */
export async function loadSections(pool: Pool, reportId: string): Promise<SectionRow[]> {
  const { rows } = await pool.query<SectionRow>(
    `SELECT s.id, s.target_id, s.section_name, s.section_slug, s.level
       FROM sections s
      WHERE s.report_id = $1
      ORDER BY (s.attachment_id IS NOT NULL), s.attachment_id, s.order_in_doc`,
    [reportId],
  );
  return rows;
}

/**
 * A section and its subsections: the sections that follow it in the same document with a
 * deeper level, up to the next section at its level or above.
 */
export function withSubsections(sections: readonly SectionRow[], picked: SectionRow): string[] {
  const ids = [picked.id];
  let i = sections.indexOf(picked) + 1;
  while (i < sections.length) {
    const s = sections[i]!;
    if (s.target_id !== picked.target_id || s.level <= picked.level) break;
    ids.push(s.id);
    i += 1;
  }
  return ids;
}

/** The ids of the chunks of the given sections. */
export async function sectionChunkIds(
  pool: Pool,
  reportId: string,
  sectionIds: readonly string[],
): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    'SELECT id::text AS id FROM chunks WHERE report_id = $1 AND section_id = ANY($2::uuid[])',
    [reportId, sectionIds],
  );
  return rows.map((r) => r.id);
}
