import {
  PROJECTION_DURABLE,
  REPORTS_STREAM,
  REPORTS_SUBJECTS,
  evolve,
  parseEvent,
  totalCost,
  type PipelineEvent,
  type ReportStatus,
  type TargetProjection,
} from '@reports/contracts';
import {
  ensureDurableConsumer,
  startConsumer,
  withTransaction,
  type ConsumerHandle,
  type Logger,
  type Nats,
  type Pool,
  type PoolClient,
} from '@reports/platform';
import { targetTable } from '../targets.js';

interface ProjectionRow {
  status: ReportStatus;
  ingestion_started_at: Date | null;
  ingestion_finished_at: Date | null;
  ingestion_error: string | null;
  stage_costs: TargetProjection['stage_costs'];
  embedding_status: TargetProjection['embedding_status'];
  generation: number;
  projection_seq: number;
}

function fromRow(row: ProjectionRow): TargetProjection {
  return {
    status: row.status,
    ingestion_started_at: row.ingestion_started_at?.toISOString() ?? null,
    ingestion_finished_at: row.ingestion_finished_at?.toISOString() ?? null,
    ingestion_error: row.ingestion_error,
    stage_costs: row.stage_costs,
    embedding_status: row.embedding_status,
    generation: row.generation,
  };
}

/**
 * Applies one event to its target's row. The row remembers the stream sequence
 * it has seen, so a redelivered event is a no-op; a missing row (deleted report)
 * is a no-op too.
 */
export async function applyToRow(
  client: PoolClient,
  event: PipelineEvent,
  seq: number,
): Promise<'applied' | 'stale' | 'missing'> {
  const table = targetTable(event.target_kind);
  const { rows } = await client.query<ProjectionRow>(
    `SELECT status, ingestion_started_at, ingestion_finished_at, ingestion_error, stage_costs,
            parsed_metadata->>'embedding_status' AS embedding_status, generation, projection_seq
       FROM ${table} WHERE id = $1 FOR UPDATE`,
    [event.target_id],
  );
  const row = rows[0];
  if (!row) return 'missing';
  if (seq <= row.projection_seq) return 'stale';
  const next = evolve(fromRow(row), event);
  await client.query(
    `UPDATE ${table}
        SET status = $2, ingestion_started_at = $3, ingestion_finished_at = $4, ingestion_error = $5,
            stage_costs = $6, ingestion_cost_cents = $7, generation = $8, projection_seq = $9, updated_at = now()
      WHERE id = $1`,
    [
      event.target_id,
      next.status,
      next.ingestion_started_at,
      next.ingestion_finished_at,
      next.ingestion_error,
      JSON.stringify(next.stage_costs),
      totalCost(next),
      next.generation,
      seq,
    ],
  );
  return 'applied';
}

/** The status projection: one durable consumer over every event of the REPORTS stream. */
export async function startProjector(deps: {
  nats: Nats;
  pool: Pool;
  logger: Logger;
  ackWaitMs: number;
  maxDeliver: number;
}): Promise<ConsumerHandle> {
  await ensureDurableConsumer(deps.nats.jsm, {
    stream: REPORTS_STREAM,
    durable: PROJECTION_DURABLE,
    filterSubject: REPORTS_SUBJECTS,
    ackWaitMs: deps.ackWaitMs,
    maxDeliver: deps.maxDeliver + 2,
    maxAckPending: 256,
  });
  return startConsumer<{ event: PipelineEvent; seq: number }>({
    js: deps.nats.js,
    stream: REPORTS_STREAM,
    durable: PROJECTION_DURABLE,
    // Sequential: events of a target must be applied in stream order.
    concurrency: 1,
    maxDeliver: deps.maxDeliver,
    ackWaitMs: deps.ackWaitMs,
    timeoutMs: 30_000,
    logger: deps.logger.child({ component: 'projection' }),
    decode: (msg) => ({ event: parseEvent(msg.json()), seq: msg.seq }),
    async handle({ event, seq }) {
      const result = await withTransaction(deps.pool, (client) => applyToRow(client, event, seq));
      return result === 'applied' ? { outcome: 'done' } : { outcome: 'skipped', reason: result };
    },
  });
}
