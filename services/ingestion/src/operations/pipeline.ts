import { PROJECTION_DURABLE, REPORTS_STREAM, STAGE_INPUT, Stage } from '@reports/contracts';
import { sampleConsumer, type Nats, type Pool } from '@reports/platform';

/** One row of the pipeline view. */
export interface PipelineRow {
  /** A stage, or `projection` for the status projector. */
  stage: string;
  consumer: string;
  /** In the stream, not yet delivered (lag). */
  pending: number | null;
  /** Delivered, not acknowledged yet: being worked on (or held by a dead worker until ack wait). */
  in_flight: number | null;
  /** Of those, delivered more than once. */
  redelivered: number | null;
  /** Targets whose processing ended failed at this stage (handler or max deliveries). */
  failed: number | null;
  /** Attempts in the window, by outcome, from stage_runs. */
  runs: { done: number; retry: number; failed: number; skipped: number } | null;
  /** p95 attempt duration in the window, ms. */
  p95_ms: number | null;
  /** Consumer missing or NATS error. */
  error?: string;
}

/**
 * Per stage: pending, in-flight and redelivered work from JetStream consumer info,
 * failed targets from the status projection, and attempts by outcome and p95
 * duration over `windowHours` from stage_runs.
 */
export async function pipelineView(
  nats: Nats,
  pool: Pool,
  windowHours = 24,
): Promise<PipelineRow[]> {
  const { rows: runs } = await pool.query<{
    stage: string;
    done: number;
    retry: number;
    failed: number;
    skipped: number;
    p95: number | null;
  }>(
    `SELECT stage,
            count(*) FILTER (WHERE outcome = 'done')::int AS done,
            count(*) FILTER (WHERE outcome = 'retry')::int AS retry,
            count(*) FILTER (WHERE outcome = 'failed')::int AS failed,
            count(*) FILTER (WHERE outcome = 'skipped')::int AS skipped,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
       FROM stage_runs WHERE started_at > now() - make_interval(hours => $1)
      GROUP BY stage`,
    [windowHours],
  );
  const { rows: failures } = await pool.query<{ stage: string; n: number }>(
    `SELECT split_part(ingestion_error, ' failed: ', 1) AS stage, count(*)::int AS n
       FROM (SELECT ingestion_error FROM reports WHERE status = 'failed'
             UNION ALL SELECT ingestion_error FROM attachments WHERE status = 'failed') f
      GROUP BY 1`,
  );
  const byStage = new Map(runs.map((r) => [r.stage, r]));
  const failedBy = new Map(failures.map((f) => [f.stage, f.n]));
  const rows: PipelineRow[] = [];
  const durables: Array<[string, string]> = [
    ...Stage.options.map((s) => [s, STAGE_INPUT[s].durable] as [string, string]),
    ['projection', PROJECTION_DURABLE],
  ];
  for (const [stage, durable] of durables) {
    const run = byStage.get(stage);
    const row: PipelineRow = {
      stage,
      consumer: durable,
      pending: null,
      in_flight: null,
      redelivered: null,
      failed: stage === 'projection' ? null : (failedBy.get(stage) ?? 0),
      runs:
        stage === 'projection'
          ? null
          : {
              done: run?.done ?? 0,
              retry: run?.retry ?? 0,
              failed: run?.failed ?? 0,
              skipped: run?.skipped ?? 0,
            },
      p95_ms: run?.p95 === null || run?.p95 === undefined ? null : Math.round(run.p95),
    };
    try {
      const sample = await sampleConsumer(nats.jsm, REPORTS_STREAM, durable);
      row.pending = sample.pending;
      row.in_flight = sample.ack_pending;
      row.redelivered = sample.redelivered;
    } catch (error) {
      row.error = /not found/i.test((error as Error).message)
        ? 'consumer not created yet (service never started)'
        : (error as Error).message;
    }
    rows.push(row);
  }
  return rows;
}

/** The view as an aligned text table. */
export function formatPipeline(rows: PipelineRow[], windowHours: number): string[] {
  const header = [
    'stage',
    'pending',
    'in-flight',
    'redelivered',
    'failed',
    `done/${windowHours}h`,
    `retries/${windowHours}h`,
    `p95 ms/${windowHours}h`,
  ];
  const cell = (v: number | null | undefined) => (v === null || v === undefined ? '-' : String(v));
  const table = rows.map((r) => [
    r.stage,
    cell(r.pending),
    cell(r.in_flight),
    cell(r.redelivered),
    cell(r.failed),
    cell(r.runs?.done),
    cell(r.runs?.retry),
    cell(r.p95_ms),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cols: string[]) =>
    cols.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    line(header),
    ...table.map(line),
    ...rows.filter((r) => r.error).map((r) => `${r.stage}: ${r.error}`),
  ];
}
