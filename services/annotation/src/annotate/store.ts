import type { TargetKind } from '@reports/contracts';
import type { Pool, PoolClient } from '@reports/platform';
import type { FigureFacts } from './localAnnotation.js';

/** The annotate stage's queries over a target's figures. */

export interface PendingFigure extends FigureFacts {
  id: string;
  object_key: string;
  thumbnail_key: string | null;
  page_number: number | null;
}

/** An annotation to write for one figure. */
export interface FigureAnnotation {
  id: string;
  source: string;
  annotation_json: Record<string, unknown>;
  score: number;
}

const TABLE: Record<TargetKind, string> = { report: 'reports', attachment: 'attachments' };

/** Whether the target still exists; with `lock`, its row is locked for the transaction. */
export async function targetExists(
  db: Pool | PoolClient,
  kind: TargetKind,
  targetId: string,
  lock = false,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM ${TABLE[kind]} WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [targetId],
  );
  return (rowCount ?? 0) > 0;
}

/** The target's figures still waiting for an annotation, in document order. */
export async function pendingFigures(pool: Pool, targetId: string): Promise<PendingFigure[]> {
  const { rows } = await pool.query<PendingFigure>(
    `SELECT id, object_key, thumbnail_key, mime_type, width, height, ocr_text, section_name, page_number
       FROM figures WHERE target_id = $1 AND annotation_source = 'pending' ORDER BY order_in_doc`,
    [targetId],
  );
  return rows;
}

/** Writes annotations, each only on a figure still pending; returns the target's figure count. */
export async function writeAnnotations(
  client: PoolClient,
  targetId: string,
  annotations: FigureAnnotation[],
): Promise<number> {
  for (const r of annotations) {
    await client.query(
      `UPDATE figures SET annotation_source = $2, annotation_json = $3, annotation_quality_score = $4
        WHERE id = $1 AND annotation_source = 'pending'`,
      [r.id, r.source, JSON.stringify(r.annotation_json), r.score],
    );
  }
  const { rows } = await client.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM figures WHERE target_id = $1',
    [targetId],
  );
  return rows[0]?.n ?? 0;
}

/** What the earlier attempts of this generation spent (stage_runs). */
export async function earlierAttemptsCost(
  pool: Pool,
  targetId: string,
  generation: number,
): Promise<number> {
  const { rows } = await pool.query<{ cents: string }>(
    `SELECT coalesce(sum(cost_cents), 0) AS cents FROM stage_runs
      WHERE target_id = $1 AND stage = 'annotate' AND generation = $2`,
    [targetId, generation],
  );
  return Number(rows[0]?.cents ?? 0);
}
