import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  evolve,
  initialProjection,
  totalCost,
  type PipelineEvent,
  type TargetProjection,
} from '../src/index.js';

const target = randomUUID();
let clock = Date.parse('2026-01-01T00:00:00Z');

function event<T extends PipelineEvent['type']>(
  type: T,
  data: Extract<PipelineEvent, { type: T }>['data'],
  generation = 1,
): PipelineEvent {
  clock += 1000;
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurred_at: new Date(clock).toISOString(),
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

const fold = (events: PipelineEvent[], from: TargetProjection = initialProjection()) =>
  events.reduce(evolve, from);

const happyPath = () => [
  event('ReportUploaded', {
    filename: 'a.pdf',
    content_type: 'application/pdf',
    size_bytes: 10,
    object_key: 'k',
    sha256: 'a'.repeat(64),
    title: null,
  }),
  event('StageStarted', { stage: 'scan', attempt: 1 }),
  event('ReportScanned', { document_kind: 'pdf', page_count: null, cost_cents: 0 }),
  event('ReportParsed', { sections: 3, figures: 0, tables: 1, pages: 2, cost_cents: 7 }),
  event('FiguresAnnotated', { figures: 0, annotated: 0, cost_cents: 0 }),
  event('StageStarted', { stage: 'embed', attempt: 1 }),
  event('ChunksEmbedded', {
    chunks: 4,
    embedded: 4,
    embedding_status: 'complete',
    embedding_model: 'm',
    cost_cents: 3,
  }),
  event('ReportReady', { cost_cents: 0 }),
];

describe('report status projection', () => {
  it('walks uploaded, scanned, parsed, annotated, embedding, embedded, ready in order', () => {
    const seen: string[] = [];
    happyPath().reduce((p, e) => {
      const next = evolve(p, e);
      if (seen.at(-1) !== next.status) seen.push(next.status);
      return next;
    }, initialProjection());
    expect(seen).toEqual([
      'uploaded',
      'scanned',
      'parsed',
      'annotated',
      'embedding',
      'embedded',
      'ready',
    ]);
  });

  it('sets the start time from the first stage start and the finish time from ready', () => {
    const events = happyPath();
    const p = fold(events);
    expect(p.ingestion_started_at).toBe(events[1]!.occurred_at);
    expect(p.ingestion_finished_at).toBe(events[7]!.occurred_at);
  });

  it('counts the cost of a replayed event once', () => {
    const events = happyPath();
    const once = fold(events);
    const twice = fold([...events.slice(0, 5), events[3]!, ...events.slice(5), events[6]!]);
    expect(totalCost(once)).toBe(10);
    expect(totalCost(twice)).toBe(10);
  });

  it('never moves backwards when an earlier event is redelivered late', () => {
    const events = happyPath();
    const p = fold([...events.slice(0, 4), events[2]!]);
    expect(p.status).toBe('parsed');
  });

  it('ends failed with the stage and reason as ingestion_error', () => {
    const p = fold([
      ...happyPath().slice(0, 3),
      event('StageFailed', { stage: 'parse', error: 'the PDF is damaged', attempts: 1 }),
    ]);
    expect(p.status).toBe('failed');
    expect(p.ingestion_error).toBe('parse failed: the PDF is damaged');
    expect(p.ingestion_finished_at).not.toBeNull();
  });

  it('keeps a ready target ready when a late failure arrives', () => {
    const p = fold([
      ...happyPath(),
      event('StageFailed', { stage: 'embed', error: 'late', attempts: 5 }),
    ]);
    expect(p.status).toBe('ready');
    expect(p.ingestion_error).toBeNull();
  });

  it('starts over for a new generation and ignores older generations', () => {
    const done = fold(happyPath());
    const rerun = evolve(done, event('StageStarted', { stage: 'embed', attempt: 1 }, 2));
    expect(rerun.status).toBe('embedding');
    expect(rerun.generation).toBe(2);
    expect(evolve(rerun, event('ReportReady', { cost_cents: 0 }, 1))).toBe(rerun);
  });
});
