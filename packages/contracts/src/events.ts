import { z } from 'zod';

/** What a pipeline target is: the main file of a report, or one of its attachments. */
export const TargetKind = z.enum(['report', 'attachment']);
export type TargetKind = z.infer<typeof TargetKind>;

/** The five processing stages, in the order they run. */
export const Stage = z.enum(['scan', 'parse', 'annotate', 'embed', 'finalize']);
export type Stage = z.infer<typeof Stage>;

/** Document types accepted at upload, as detected from their bytes. */
export const DocumentKind = z.enum(['pdf', 'png', 'jpeg', 'webp', 'mhtml', 'html', 'docx']);
export type DocumentKind = z.infer<typeof DocumentKind>;

const cost = z.number().int().nonnegative().default(0);

/** Data of each event type, keyed by type. Schemas only grow; a breaking change is a new version. */
export const EventData = {
  ReportUploaded: z.object({
    filename: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int().nonnegative(),
    object_key: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    title: z.string().nullable(),
  }),
  StageStarted: z.object({ stage: Stage, attempt: z.number().int().positive() }),
  ReportScanned: z.object({
    document_kind: DocumentKind,
    page_count: z.number().int().nonnegative().nullable(),
    cost_cents: cost,
  }),
  ReportParsed: z.object({
    sections: z.number().int().nonnegative(),
    figures: z.number().int().nonnegative(),
    tables: z.number().int().nonnegative(),
    pages: z.number().int().nonnegative().nullable(),
    cost_cents: cost,
  }),
  FiguresAnnotated: z.object({
    figures: z.number().int().nonnegative(),
    annotated: z.number().int().nonnegative(),
    cost_cents: cost,
  }),
  ChunksEmbedded: z.object({
    chunks: z.number().int().nonnegative(),
    embedded: z.number().int().nonnegative(),
    embedding_status: z.enum(['complete', 'partial', 'failed', 'skipped']),
    embedding_model: z.string().nullable(),
    cost_cents: cost,
  }),
  ReportReady: z.object({ cost_cents: cost }),
  StageFailed: z.object({
    stage: Stage,
    error: z.string(),
    attempts: z.number().int().positive(),
  }),
} as const;

export type EventType = keyof typeof EventData;
export const EventType = z.enum(Object.keys(EventData) as [EventType, ...EventType[]]);

/** Fields every event carries, whatever its type. */
export const EventEnvelopeBase = z.object({
  id: z.uuid(),
  type: EventType,
  version: z.number().int().positive(),
  occurred_at: z.iso.datetime({ offset: true }),
  tenant_id: z.uuid(),
  report_id: z.uuid(),
  target_kind: TargetKind,
  target_id: z.uuid(),
  generation: z.number().int().positive(),
  correlation_id: z.uuid(),
  causation_id: z.uuid().nullable(),
  data: z.unknown(),
});
export type EventEnvelopeBase = z.infer<typeof EventEnvelopeBase>;

/** An envelope whose data has been checked against its type's schema. */
export type PipelineEvent = {
  [K in EventType]: Omit<EventEnvelopeBase, 'type' | 'data'> & {
    type: K;
    data: z.infer<(typeof EventData)[K]>;
  };
}[EventType];

export type EventOf<K extends EventType> = Extract<PipelineEvent, { type: K }>;

/** Current schema version of each event type. */
export const EVENT_VERSION = 1;

/**
 * Parses an envelope and its data. Throws a ZodError naming the bad field when
 * either does not match, so a consumer can terminate a poison message.
 */
export function parseEvent(raw: unknown): PipelineEvent {
  const base = EventEnvelopeBase.parse(raw);
  const data = EventData[base.type].parse(base.data);
  return { ...base, data } as PipelineEvent;
}

/** Stages that end a target's processing. */
export function isTerminal(type: EventType): boolean {
  return type === 'ReportReady' || type === 'StageFailed';
}
