import { z } from 'zod';
import type { PipelineEvent, Stage } from './events.js';

/**
 * Report statuses. `uploaded`, `parsed`, `annotated`, `embedding` and `ready` are
 * the spec's; `scanned`, `embedded` and `failed` fill the gaps between them.
 */
export const ReportStatus = z.enum([
  'uploaded',
  'scanned',
  'parsed',
  'annotated',
  'embedding',
  'embedded',
  'ready',
  'failed',
]);
export type ReportStatus = z.infer<typeof ReportStatus>;

const ORDER: Record<ReportStatus, number> = {
  uploaded: 0,
  scanned: 1,
  parsed: 2,
  annotated: 3,
  embedding: 4,
  embedded: 5,
  ready: 6,
  failed: 6,
};

/** The projected state of one pipeline target, built only from its events. */
export interface TargetProjection {
  status: ReportStatus;
  ingestion_started_at: string | null;
  ingestion_finished_at: string | null;
  ingestion_error: string | null;
  /** Cost by stage, so a replayed event overwrites instead of adding twice. */
  stage_costs: Partial<Record<Stage, number>>;
  embedding_status: 'complete' | 'partial' | 'failed' | 'skipped' | null;
  generation: number;
}

export function initialProjection(): TargetProjection {
  return {
    status: 'uploaded',
    ingestion_started_at: null,
    ingestion_finished_at: null,
    ingestion_error: null,
    stage_costs: {},
    embedding_status: null,
    generation: 1,
  };
}

export function totalCost(p: TargetProjection): number {
  return Object.values(p.stage_costs).reduce((sum, c) => sum + (c ?? 0), 0);
}

function advance(p: TargetProjection, to: ReportStatus): ReportStatus {
  // A redelivered or replayed event never moves a target backwards, and a
  // finished target stays finished for its generation.
  if (p.status === 'ready' || p.status === 'failed') return p.status;
  return ORDER[to] >= ORDER[p.status] ? to : p.status;
}

/**
 * Applies one event to a projection. Pure: the same events in the same order
 * always give the same state, which is what makes the projection replayable.
 */
export function evolve(p: TargetProjection, event: PipelineEvent): TargetProjection {
  if (event.generation < p.generation) return p;
  const base: TargetProjection =
    event.generation > p.generation ? { ...initialProjection(), generation: event.generation } : p;
  switch (event.type) {
    case 'ReportUploaded':
      return { ...base, status: advance(base, 'uploaded') };
    case 'StageStarted':
      return {
        ...base,
        ingestion_started_at: base.ingestion_started_at ?? event.occurred_at,
        status: event.data.stage === 'embed' ? advance(base, 'embedding') : base.status,
      };
    case 'ReportScanned':
      return {
        ...base,
        status: advance(base, 'scanned'),
        stage_costs: { ...base.stage_costs, scan: event.data.cost_cents },
      };
    case 'ReportParsed':
      return {
        ...base,
        status: advance(base, 'parsed'),
        stage_costs: { ...base.stage_costs, parse: event.data.cost_cents },
      };
    case 'FiguresAnnotated':
      return {
        ...base,
        status: advance(base, 'annotated'),
        stage_costs: { ...base.stage_costs, annotate: event.data.cost_cents },
      };
    case 'ChunksEmbedded':
      return {
        ...base,
        status: advance(base, 'embedded'),
        embedding_status: event.data.embedding_status,
        stage_costs: { ...base.stage_costs, embed: event.data.cost_cents },
      };
    case 'ReportReady':
      return {
        ...base,
        status: advance(base, 'ready'),
        ingestion_finished_at: base.ingestion_finished_at ?? event.occurred_at,
        stage_costs: { ...base.stage_costs, finalize: event.data.cost_cents },
      };
    case 'StageFailed':
      if (base.status === 'ready' || base.status === 'failed') return base;
      return {
        ...base,
        status: 'failed',
        ingestion_error: `${event.data.stage} failed: ${event.data.error}`,
        ingestion_finished_at: event.occurred_at,
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
