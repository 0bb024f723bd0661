import type { EventOf, Stage } from '@reports/contracts';
import type { Logger } from 'pino';
import type { PoolClient } from '../postgres/pool.js';
import type { StageOutput, StageResult, StageUsage } from './stage.js';

/** One stage's output for one target and generation (stage_outputs, migration 0050). */
export interface OutputKey {
  tenant_id: string;
  report_id: string;
  target_id: string;
  stage: Stage;
  generation: number;
}

/**
 * What a stage attempt may do, decided inside the transaction that writes its output (with the
 * target row locked): `write` when nothing is committed for this generation; `committed` with
 * the recorded data when an earlier attempt already wrote it (write nothing, announce it
 * again); `stale` when a newer generation has output (write nothing at all).
 */
export type OutputFence<D> =
  | { state: 'write' }
  | { state: 'committed'; data: D; attempt: number }
  | { state: 'stale'; generation: number };

export async function fenceOutput<D>(client: PoolClient, key: OutputKey): Promise<OutputFence<D>> {
  const { rows } = await client.query<{ generation: number; data: D; attempt: number }>(
    `SELECT generation, data, attempt FROM stage_outputs
      WHERE target_id = $1 AND stage = $2 AND generation >= $3
      ORDER BY generation DESC LIMIT 1`,
    [key.target_id, key.stage, key.generation],
  );
  const row = rows[0];
  if (!row) return { state: 'write' };
  if (row.generation > key.generation) return { state: 'stale', generation: row.generation };
  return { state: 'committed', data: row.data, attempt: row.attempt };
}

/**
 * Records the stage's output in the same transaction as its rows. A concurrent attempt that
 * got here first makes this fail on the primary key, rolling the whole transaction back.
 */
export async function recordOutput(
  client: PoolClient,
  key: OutputKey,
  attempt: number,
  data: unknown,
): Promise<void> {
  await client.query(
    `INSERT INTO stage_outputs (target_id, stage, generation, tenant_id, report_id, attempt, data)
     VALUES ($1,$2,$3,$4,$5,$6,$7)`,
    [
      key.target_id,
      key.stage,
      key.generation,
      key.tenant_id,
      key.report_id,
      attempt,
      JSON.stringify(data),
    ],
  );
}

/** The recorded output of one stage of a target's generation, or null. */
export async function committedOutput<D>(
  client: Pick<PoolClient, 'query'>,
  targetId: string,
  stage: Stage,
  generation: number,
): Promise<D | null> {
  const { rows } = await client.query<{ data: D }>(
    'SELECT data FROM stage_outputs WHERE target_id = $1 AND stage = $2 AND generation = $3',
    [targetId, stage, generation],
  );
  return rows[0]?.data ?? null;
}

/**
 * What an attempt that found its generation's output committed (or a newer generation's)
 * returns: it wrote nothing, and announces the recorded output again under the same message
 * id, so that a stage whose first event was lost between commit and publish still moves the
 * target on, and one whose event went out is deduplicated. A stale attempt is skipped.
 */
export function announceCommitted<T extends StageOutput['type']>(
  type: T,
  fence: Exclude<OutputFence<EventOf<T>['data']>, { state: 'write' }>,
  logger: Logger,
  usage?: StageUsage,
): StageResult {
  if (fence.state === 'stale')
    return { outcome: 'skipped', reason: `generation ${fence.generation} has newer output` };
  logger.info(
    { committed_attempt: fence.attempt },
    'output of this generation already committed; announcing it again',
  );
  return {
    outcome: 'done',
    emit: { type, data: fence.data } as StageOutput,
    ...(usage ? { usage } : {}),
  };
}
