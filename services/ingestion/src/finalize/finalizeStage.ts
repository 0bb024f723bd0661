import { withTransaction, type Pool, type StageDefinition } from '@reports/platform';
import { loadTarget, targetTable } from '../targets.js';

/**
 * Finalize: records the embedding outcome where readers look for it
 * (`parsed_metadata.embedding_status`) and declares the target ready.
 * Embedding failure is soft: a target whose embedding failed is still ready.
 */
export function finalizeStage(deps: { pool: Pool }): StageDefinition<'ChunksEmbedded'> {
  return {
    stage: 'finalize',
    async run(event) {
      const written = await withTransaction(deps.pool, async (client) => {
        if (!(await loadTarget(client, event.target_kind, event.target_id, true))) return false;
        await client.query(
          `UPDATE ${targetTable(event.target_kind)}
              SET parsed_metadata = parsed_metadata || jsonb_build_object('embedding_status', $2::text,
                    'chunks', $3::int, 'embedded_chunks', $4::int, 'embedding_model', $5::text),
                  updated_at = now()
            WHERE id = $1`,
          [
            event.target_id,
            event.data.embedding_status,
            event.data.chunks,
            event.data.embedded,
            event.data.embedding_model,
          ],
        );
        return true;
      });
      if (!written) return { outcome: 'skipped', reason: 'target deleted' };
      return { outcome: 'done', emit: { type: 'ReportReady', data: { cost_cents: 0 } } };
    },
  };
}
