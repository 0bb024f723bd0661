import type { TargetKind } from '@reports/contracts';
import type { PoolClient } from '@reports/platform';
import { targetTable } from '../targets.js';

/** What the rows of one target hold now, counted the way the stages' events count them. */
export interface TargetRowCounts {
  sections: number;
  tables: number;
  figures: number;
  pending_figures: number;
  chunks: number;
  embedded_chunks: number;
}

/**
 * The finalize stage's queries (and the verify command's counts): every table a stage writes,
 * counted for one target.
 */
export async function countTargetRows(
  client: Pick<PoolClient, 'query'>,
  targetId: string,
): Promise<TargetRowCounts> {
  const { rows } = await client.query<TargetRowCounts>(
    `SELECT (SELECT count(*)::int FROM sections WHERE target_id = $1) AS sections,
            (SELECT count(*)::int FROM report_tables WHERE target_id = $1) AS tables,
            (SELECT count(*)::int FROM figures WHERE target_id = $1) AS figures,
            (SELECT count(*)::int FROM figures WHERE target_id = $1 AND annotation_source = 'pending')
              AS pending_figures,
            (SELECT count(*)::int FROM chunks WHERE target_id = $1) AS chunks,
            (SELECT count(*)::int FROM chunks WHERE target_id = $1 AND embedding IS NOT NULL)
              AS embedded_chunks`,
    [targetId],
  );
  return rows[0]!;
}

/** The parse counts the parse stage wrote on the target row (targets parsed before stage_outputs). */
export async function parsedMetadataCounts(
  client: Pick<PoolClient, 'query'>,
  kind: TargetKind,
  targetId: string,
): Promise<{ sections: number; tables: number; figures: number } | null> {
  const { rows } = await client.query<{
    sections: number | null;
    tables: number | null;
    figures: number | null;
  }>(
    `SELECT (parsed_metadata->>'sections')::int AS sections, (parsed_metadata->>'tables')::int AS tables,
            (parsed_metadata->>'figures')::int AS figures
       FROM ${targetTable(kind)} WHERE id = $1`,
    [targetId],
  );
  const row = rows[0];
  if (!row || row.sections === null || row.tables === null || row.figures === null) return null;
  return { sections: row.sections, tables: row.tables, figures: row.figures };
}

/** Records the embedding outcome where readers look for it (`parsed_metadata`). */
export async function recordEmbeddingOutcome(
  client: PoolClient,
  kind: TargetKind,
  targetId: string,
  outcome: {
    embedding_status: string;
    chunks: number;
    embedded: number;
    embedding_model: string | null;
  },
): Promise<void> {
  await client.query(
    `UPDATE ${targetTable(kind)}
        SET parsed_metadata = parsed_metadata || jsonb_build_object('embedding_status', $2::text,
              'chunks', $3::int, 'embedded_chunks', $4::int, 'embedding_model', $5::text),
            updated_at = now()
      WHERE id = $1`,
    [targetId, outcome.embedding_status, outcome.chunks, outcome.embedded, outcome.embedding_model],
  );
}
