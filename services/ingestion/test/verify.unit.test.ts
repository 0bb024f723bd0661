import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventOf, EventType, PipelineEvent } from '@reports/contracts';
import { foldEvents, verifyTarget, type TargetRow } from '../src/operations/verify.js';
import { disagreements } from '../src/finalize/invariants.js';

const target = randomUUID();
let clock = 0;
function event<K extends EventType>(
  type: K,
  data: EventOf<K>['data'],
  generation = 1,
): PipelineEvent {
  clock += 1;
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurred_at: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
    tenant_id: randomUUID(),
    report_id: target,
    target_kind: 'report',
    target_id: target,
    generation,
    correlation_id: target,
    causation_id: null,
    data,
  } as PipelineEvent;
}

const parsed = { sections: 4, figures: 2, tables: 1, pages: 3, cost_cents: 0 };
const annotated = { figures: 2, annotated: 2, cost_cents: 0 };
const embedded = {
  chunks: 41,
  embedded: 41,
  embedding_status: 'complete' as const,
  embedding_model: 'm',
  cost_cents: 0,
};
const whole = {
  sections: 4,
  tables: 1,
  figures: 2,
  pending_figures: 0,
  chunks: 41,
  embedded_chunks: 41,
};
const row: TargetRow = {
  status: 'ready',
  generation: 1,
  embedding_status: 'complete',
  command_chunks: null,
};

function readyTarget() {
  return foldEvents([
    event('ReportParsed', parsed),
    event('FiguresAnnotated', annotated),
    event('ChunksEmbedded', embedded),
    event('ReportReady', { cost_cents: 0 }),
  ]).get(target)!;
}

describe('verifying a target against its events', () => {
  it('finds nothing when the rows are what the events say', () => {
    expect(verifyTarget(readyTarget(), row, whole)).toEqual([]);
  });

  it("names the issue's case: ready, 41 chunks announced, none stored, figures pending", () => {
    expect(
      verifyTarget(readyTarget(), row, {
        ...whole,
        chunks: 0,
        embedded_chunks: 0,
        pending_figures: 2,
      }),
    ).toEqual([
      'figures: 2 still pending',
      'chunks: 0 rows, the events say 41',
      'embedded chunks: 0 rows, the events say 41',
    ]);
  });

  it('compares only the latest generation', () => {
    const folded = foldEvents([
      event('ReportParsed', parsed, 1),
      event('ReportParsed', { ...parsed, sections: 9 }, 2),
    ]).get(target)!;
    expect(folded.projection.generation).toBe(2);
    expect(folded.parsed?.sections).toBe(9);
  });

  it('takes an operator re-embed recorded on the row over the embed event', () => {
    const rerun: TargetRow = { ...row, command_chunks: { chunks: 30, embedded: 30 } };
    expect(
      verifyTarget(readyTarget(), rerun, { ...whole, chunks: 30, embedded_chunks: 30 }),
    ).toEqual([]);
  });

  it('flags a ready status without the events that make it ready', () => {
    const folded = foldEvents([event('ReportParsed', parsed)]).get(target)!;
    expect(verifyTarget(folded, row, whole)).toContain('status ready, the events say parsed');
  });

  it('flags an embedding status that the counts contradict', () => {
    expect(
      disagreements(
        { parsed, annotated, embedded: { ...embedded, embedded: 40 } },
        { ...whole, embedded_chunks: 40 },
      ),
    ).toEqual(['embedding_status complete with 40 of 41 chunks embedded']);
  });
});
