import type { EventOf } from '@reports/contracts';
import {
  committedOutput,
  fenceOutput,
  recordOutput,
  withTransaction,
  type Pool,
  type StageDefinition,
} from '@reports/platform';
import { loadTarget } from '../targets.js';
import { disagreements } from './invariants.js';
import { countTargetRows, parsedMetadataCounts, recordEmbeddingOutcome } from './store.js';

type ReadyData = EventOf<'ReportReady'>['data'];

/**
 * Finalize: checks, in the transaction that declares the target ready, that its rows are what
 * the events of this generation say (sections, tables and figures as parsed, no figure left
 * pending, chunks and embedded chunks as embedded); records the embedding outcome where
 * readers look for it (`parsed_metadata.embedding_status`) and declares the target ready.
 * Rows that disagree fail the target with the disagreement as the reason: never `ready` with
 * missing output. Embedding failure is soft: a target whose embedding failed is still ready.
 */
export function finalizeStage(deps: { pool: Pool }): StageDefinition<'ChunksEmbedded'> {
  return {
    stage: 'finalize',
    async run(event, ctx) {
      const result = await withTransaction(deps.pool, async (client) => {
        const target = await loadTarget(client, event.target_kind, event.target_id, true);
        if (!target) return { kind: 'deleted' as const };
        const key = {
          tenant_id: target.tenant_id,
          report_id: target.report_id,
          target_id: event.target_id,
          stage: 'finalize' as const,
          generation: event.generation,
        };
        const fence = await fenceOutput<ReadyData>(client, key);
        if (fence.state === 'stale')
          return { kind: 'stale' as const, generation: fence.generation };
        if (fence.state === 'committed') return { kind: 'ready' as const, data: fence.data };
        const parsed =
          (await committedOutput<EventOf<'ReportParsed'>['data']>(
            client,
            event.target_id,
            'parse',
            event.generation,
          )) ?? (await parsedMetadataCounts(client, event.target_kind, event.target_id));
        const annotated = await committedOutput<EventOf<'FiguresAnnotated'>['data']>(
          client,
          event.target_id,
          'annotate',
          event.generation,
        );
        const problems = disagreements(
          { parsed, annotated, embedded: event.data },
          await countTargetRows(client, event.target_id),
        );
        if (problems.length > 0) return { kind: 'disagree' as const, problems };
        await recordEmbeddingOutcome(client, event.target_kind, event.target_id, event.data);
        const data: ReadyData = { cost_cents: 0 };
        await recordOutput(client, key, ctx.deliveryCount, data);
        return { kind: 'ready' as const, data };
      });
      switch (result.kind) {
        case 'deleted':
          return { outcome: 'skipped', reason: 'target deleted' };
        case 'stale':
          return { outcome: 'skipped', reason: `generation ${result.generation} has newer output` };
        case 'disagree':
          ctx.logger.error({ problems: result.problems }, 'outputs disagree with their events');
          return {
            outcome: 'failed',
            reason: `outputs disagree with their events: ${result.problems.join('; ')}`,
          };
        case 'ready':
          return { outcome: 'done', emit: { type: 'ReportReady', data: result.data } };
      }
    },
  };
}
