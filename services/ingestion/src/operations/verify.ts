import { DeliverPolicy } from '@nats-io/jetstream';
import {
  REPORTS_STREAM,
  evolve,
  initialProjection,
  parseEvent,
  type EventOf,
  type PipelineEvent,
  type TargetKind,
  type TargetProjection,
} from '@reports/contracts';
import type { Nats, Pool } from '@reports/platform';
import { disagreements } from '../finalize/invariants.js';
import { countTargetRows, type TargetRowCounts } from '../finalize/store.js';
import { targetTable } from '../targets.js';
import type { ReplayScope } from './replay.js';

/** What the events of one target's latest generation say. */
export interface TargetEvents {
  tenant_id: string;
  report_id: string;
  target_kind: TargetKind;
  target_id: string;
  projection: TargetProjection;
  parsed: EventOf<'ReportParsed'>['data'] | null;
  annotated: EventOf<'FiguresAnnotated'>['data'] | null;
  embedded: EventOf<'ChunksEmbedded'>['data'] | null;
}

/** A target's row as the verify command reads it. */
export interface TargetRow {
  status: string;
  generation: number;
  embedding_status: string | null;
  /** Chunks the embed command (an operator's re-embed) recorded after the pipeline, if it ran. */
  command_chunks: { chunks: number; embedded: number } | null;
}

/** Folds events, in stream order, into what each target's latest generation says. */
export function foldEvents(events: Iterable<PipelineEvent>): Map<string, TargetEvents> {
  const targets = new Map<string, TargetEvents>();
  for (const event of events) {
    let t = targets.get(event.target_id);
    if (!t || event.generation > t.projection.generation) {
      t = {
        tenant_id: event.tenant_id,
        report_id: event.report_id,
        target_kind: event.target_kind,
        target_id: event.target_id,
        projection: { ...initialProjection(), generation: event.generation },
        parsed: null,
        annotated: null,
        embedded: null,
      };
      targets.set(event.target_id, t);
    }
    if (event.generation < t.projection.generation) continue;
    t.projection = evolve(t.projection, event);
    if (event.type === 'ReportParsed') t.parsed = event.data;
    if (event.type === 'FiguresAnnotated') t.annotated = event.data;
    if (event.type === 'ChunksEmbedded') t.embedded = event.data;
  }
  return targets;
}

/** Every way one target's rows disagree with its events (empty when they agree). */
export function verifyTarget(
  events: TargetEvents,
  row: TargetRow,
  rows: TargetRowCounts,
): string[] {
  const problems: string[] = [];
  const status = events.projection.status;
  if (row.status !== status) problems.push(`status ${row.status}, the events say ${status}`);
  if (row.generation !== events.projection.generation)
    problems.push(`generation ${row.generation}, the events say ${events.projection.generation}`);
  if (status === 'ready') {
    for (const [stage, data] of [
      ['ReportParsed', events.parsed],
      ['FiguresAnnotated', events.annotated],
      ['ChunksEmbedded', events.embedded],
    ] as const) {
      if (!data) problems.push(`ready without a ${stage} event`);
    }
    if (events.embedded && row.embedding_status !== events.embedded.embedding_status)
      problems.push(
        `embedding_status ${row.embedding_status ?? 'missing'}, the events say ${events.embedded.embedding_status}`,
      );
  }
  // Outputs are checked once the target is finished, or for every stage that has announced
  // its output (a stage in progress has not replaced anything yet: fenced writes).
  const embedded =
    events.embedded && row.command_chunks
      ? { ...events.embedded, ...row.command_chunks }
      : events.embedded;
  if (status !== 'failed' && (events.parsed || status === 'ready')) {
    problems.push(
      ...disagreements({ parsed: events.parsed, annotated: events.annotated, embedded }, rows),
    );
  }
  return problems;
}

export interface Disagreement {
  tenant_id: string;
  report_id: string;
  target_kind: TargetKind;
  target_id: string;
  status: string;
  problems: string[];
}

export interface VerifyResult {
  events: number;
  /** Targets whose rows were compared with their events. */
  targets: number;
  /** Targets in the database without any event in the stream (legacy, or aged out). */
  without_events: number;
  disagreements: Disagreement[];
}

/** Empty pulls in a row after which a read that has not reached the stream's end gives up. */
const MAX_EMPTY_PULLS = 10;

/**
 * Every event of the scope up to the stream's last sequence when the read began, as the stream
 * leader reports it. The read goes on until that sequence, not until the consumer says nothing is
 * pending: an ordered consumer placed on a replica that is still catching up (a restarted cluster
 * member) reports nothing pending before it has delivered everything, and a partial read shows
 * rows ahead of their events. So the whole stream is read (the scope is applied here), a stalled
 * read resumes after the last sequence it got, and it throws rather than answer from a partial
 * read.
 */
async function readEvents(nats: Nats, scope: ReplayScope): Promise<PipelineEvent[]> {
  const events: PipelineEvent[] = [];
  const { state } = await nats.jsm.streams.info(REPORTS_STREAM);
  if (state.messages === 0) return events;
  const lastSeq = state.last_seq;
  let nextSeq = state.first_seq;
  let emptyPulls = 0;
  while (nextSeq <= lastSeq) {
    const consumer = await nats.js.consumers.get(REPORTS_STREAM, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: nextSeq,
    });
    try {
      const batch = await consumer.fetch({ max_messages: 512, expires: 2_000 });
      let got = 0;
      for await (const msg of batch) {
        got += 1;
        nextSeq = msg.seq + 1;
        try {
          const event = parseEvent(msg.json());
          if (scope.tenant && event.tenant_id !== scope.tenant) continue;
          if (scope.report && event.report_id !== scope.report) continue;
          events.push(event);
        } catch {
          // Unreadable events are the replay command's to count.
        }
        if (msg.seq >= lastSeq) break;
      }
      emptyPulls = got === 0 ? emptyPulls + 1 : 0;
      if (emptyPulls >= MAX_EMPTY_PULLS)
        throw new Error(
          `could not read the event stream to its end (sequence ${nextSeq} of ${lastSeq}); try again`,
        );
    } finally {
      await consumer.delete().catch(() => undefined);
    }
  }
  return events;
}

interface DbTarget extends TargetRow {
  id: string;
  tenant_id: string;
  report_id: string;
  kind: TargetKind;
}

async function readTargets(pool: Pool, scope: ReplayScope): Promise<DbTarget[]> {
  const out: DbTarget[] = [];
  for (const kind of ['report', 'attachment'] as const) {
    const reportColumn = kind === 'report' ? 'id' : 'report_id';
    const params: string[] = [];
    const clauses: string[] = [];
    if (scope.tenant) clauses.push(`t.tenant_id = $${params.push(scope.tenant)}`);
    if (scope.report) clauses.push(`t.${reportColumn} = $${params.push(scope.report)}`);
    const { rows } = await pool.query<DbTarget>(
      `SELECT t.id, t.tenant_id, t.${reportColumn} AS report_id, '${kind}' AS kind, t.status, t.generation,
              t.parsed_metadata->>'embedding_status' AS embedding_status,
              CASE WHEN EXISTS (SELECT 1 FROM stage_runs r WHERE r.target_id = t.id AND r.stage = 'embed'
                                  AND r.units->>'command' = '1')
                   THEN jsonb_build_object('chunks', (t.parsed_metadata->>'chunks')::int,
                                           'embedded', (t.parsed_metadata->>'embedded_chunks')::int)
              END AS command_chunks
         FROM ${targetTable(kind)} t ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''}`,
      params,
    );
    out.push(...rows);
  }
  return out;
}

/**
 * Compares every target's rows (sections, tables, figures, chunks, embeddings, status) with
 * its events in the REPORTS stream. Run on a quiet system: work in flight shows as a status
 * the projector has not caught up with.
 */
export async function verifyOutputs(
  nats: Nats,
  pool: Pool,
  scope: ReplayScope = {},
): Promise<VerifyResult> {
  const events = await readEvents(nats, scope);
  const byTarget = foldEvents(events);
  const targets = await readTargets(pool, scope);
  const result: VerifyResult = {
    events: events.length,
    targets: 0,
    without_events: 0,
    disagreements: [],
  };
  for (const target of targets) {
    const said = byTarget.get(target.id);
    if (!said) {
      result.without_events += 1;
      continue;
    }
    result.targets += 1;
    const problems = verifyTarget(said, target, await countTargetRows(pool, target.id));
    if (problems.length > 0)
      result.disagreements.push({
        tenant_id: target.tenant_id,
        report_id: target.report_id,
        target_kind: target.kind,
        target_id: target.id,
        status: target.status,
        problems,
      });
  }
  return result;
}

export function formatVerify(result: VerifyResult): string[] {
  const lines = result.disagreements.map((d) => {
    const target =
      d.target_kind === 'report'
        ? `report ${d.report_id}`
        : `report ${d.report_id} attachment ${d.target_id}`;
    return `${target} tenant ${d.tenant_id} (${d.status}): ${d.problems.join('; ')}`;
  });
  lines.push(
    `verified ${result.targets} targets against ${result.events} events: ` +
      `${result.disagreements.length} disagree` +
      (result.without_events ? `, ${result.without_events} without events (not checked)` : ''),
  );
  return lines;
}
