import type { EventType, Stage } from './events.js';

/** The stream that holds every pipeline event (facts). */
export const REPORTS_STREAM = 'REPORTS';
/** Wildcard covering every subject of the REPORTS stream. */
export const REPORTS_SUBJECTS = 'reports.>';

/** `reports.<tenant_id>.<report_id>.<type>`: every event of a report sorts under its folder. */
export function reportEventSubject(tenantId: string, reportId: string, type: EventType): string {
  return `reports.${tenantId}.${reportId}.${type}`;
}

/** All events of one report, for the realtime channel. */
export function reportEventsFilter(tenantId: string, reportId: string): string {
  return `reports.${tenantId}.${reportId}.>`;
}

/** Events of one type across every report: what a stage consumer filters on. */
export function eventTypeFilter(type: EventType): string {
  return `reports.*.*.${type}`;
}

/** Which event starts each stage, and the durable consumer that runs it. */
export const STAGE_INPUT: Record<Stage, { trigger: EventType; durable: string }> = {
  scan: { trigger: 'ReportUploaded', durable: 'stage-scan' },
  parse: { trigger: 'ReportScanned', durable: 'stage-parse' },
  annotate: { trigger: 'ReportParsed', durable: 'stage-annotate' },
  embed: { trigger: 'FiguresAnnotated', durable: 'stage-embed' },
  finalize: { trigger: 'ChunksEmbedded', durable: 'stage-finalize' },
};

/** Durable consumer of the status projection (all events). */
export const PROJECTION_DURABLE = 'projection-status';

/**
 * Deterministic message id of a stage's output event, so a rerun after a crash
 * publishes a duplicate that JetStream drops.
 */
export function stageMessageId(
  targetId: string,
  stage: Stage | 'upload',
  generation: number,
  suffix?: string,
): string {
  return [targetId, stage, generation, ...(suffix ? [suffix] : [])].join(':');
}
