import { DeliverPolicy } from '@nats-io/jetstream';
import { REPORTS_STREAM, parseEvent, type TargetKind } from '@reports/contracts';
import { withTransaction, type Nats, type Pool } from '@reports/platform';
import { applyToRow } from '../projection/projector.js';
import { targetTable } from '../targets.js';
import { tailSubject } from './format.js';

export interface ReplayScope {
  tenant?: string | undefined;
  report?: string | undefined;
}

export interface ReplayResult {
  /** Rows whose projection was reset, by table. */
  reset: Record<TargetKind, number>;
  /** Events read from the stream. */
  events: number;
  applied: number;
  /** Events of targets that no longer exist (deleted reports). */
  missing: number;
  unreadable: number;
  firstSeq: number | null;
  lastSeq: number | null;
}

const KINDS: TargetKind[] = ['report', 'attachment'];

function scopeSql(kind: TargetKind, scope: ReplayScope): { where: string; params: string[] } {
  const reportColumn = kind === 'report' ? 'id' : 'report_id';
  const clauses: string[] = [];
  const params: string[] = [];
  if (scope.tenant) {
    params.push(scope.tenant);
    clauses.push(`tenant_id = $${params.length}`);
  }
  if (scope.report) {
    params.push(scope.report);
    clauses.push(`${reportColumn} = $${params.length}`);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * Rebuilds the status projection from the REPORTS stream: in one transaction, the
 * projection columns of every report and attachment in scope go back to their
 * initial values, then every event of the scope is applied in stream order with
 * the projector's own `applyToRow` (the pure `evolve` on the row). The rows stay
 * locked until the commit, so the live projector waits and then skips what the
 * replay already applied (it compares stream sequences): nothing needs stopping.
 */
export async function replayProjection(
  nats: Nats,
  pool: Pool,
  scope: ReplayScope = {},
  progress: (line: string) => void = () => {},
): Promise<ReplayResult> {
  const result: ReplayResult = {
    reset: { report: 0, attachment: 0 },
    events: 0,
    applied: 0,
    missing: 0,
    unreadable: 0,
    firstSeq: null,
    lastSeq: null,
  };
  await withTransaction(pool, async (client) => {
    for (const kind of KINDS) {
      const { where, params } = scopeSql(kind, scope);
      const reset = await client.query(
        `UPDATE ${targetTable(kind)}
            SET status = 'uploaded', ingestion_started_at = NULL, ingestion_finished_at = NULL,
                ingestion_error = NULL, stage_costs = '{}', ingestion_cost_cents = 0,
                generation = 1, projection_seq = 0, updated_at = now()
          ${where}`,
        params,
      );
      result.reset[kind] = reset.rowCount ?? 0;
    }
    progress(
      `reset ${result.reset.report} reports and ${result.reset.attachment} attachments; reading the stream`,
    );

    const consumer = await nats.js.consumers.get(REPORTS_STREAM, {
      filter_subjects: tailSubject(scope),
      deliver_policy: DeliverPolicy.All,
    });
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 512, expires: 2_000 });
      let got = 0;
      let caughtUp = false;
      for await (const msg of batch) {
        got += 1;
        caughtUp = msg.info.pending === 0;
        result.events += 1;
        result.firstSeq ??= msg.seq;
        result.lastSeq = msg.seq;
        let event;
        try {
          event = parseEvent(msg.json());
        } catch {
          result.unreadable += 1;
          continue;
        }
        if (scope.tenant && event.tenant_id !== scope.tenant) continue;
        if (scope.report && event.report_id !== scope.report) continue;
        const outcome = await applyToRow(client, event, msg.seq);
        if (outcome === 'applied') result.applied += 1;
        else if (outcome === 'missing') result.missing += 1;
      }
      if (got === 0 || caughtUp) break;
      if (result.events % 5_000 < 512) progress(`${result.events} events read`);
    }
  });
  return result;
}

/** Targets by status after a replay, for the summary line. */
export async function statusCounts(
  pool: Pool,
  scope: ReplayScope = {},
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const kind of KINDS) {
    const { where, params } = scopeSql(kind, scope);
    const { rows } = await pool.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM ${targetTable(kind)} ${where} GROUP BY status`,
      params,
    );
    for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + row.n;
  }
  return counts;
}
