import { PathId } from './ids.js';
import { z } from 'zod';
import { ReportStatus } from './status.js';
import { EventType } from './events.js';

/** Body of every error answer. `code` is from the error catalogue; `detail` is for people. */
export const ErrorBody = z.object({
  code: z.string(),
  detail: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const DependencyState = z.object({
  status: z.enum(['up', 'down']),
  latency_ms: z.number().int().nonnegative(),
  error: z.string().optional(),
});
export type DependencyState = z.infer<typeof DependencyState>;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  dependencies: z.record(z.string(), DependencyState),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

export const MeResponse = z.object({
  id: z.uuid(),
  email: z.string().nullable(),
  personal_tenant_id: z.uuid(),
  active_tenant_id: z.uuid(),
  display_name: z.string(),
});
export type MeResponse = z.infer<typeof MeResponse>;

export const ReportIdParams = z.object({ report_id: PathId });
export type ReportIdParams = z.infer<typeof ReportIdParams>;

export const IngestAccepted = z.object({
  id: z.uuid(),
  status: z.literal('uploaded'),
  filename: z.string(),
  size_bytes: z.number().int(),
  content_type: z.string(),
  title: z.string().nullable(),
});
export type IngestAccepted = z.infer<typeof IngestAccepted>;

export const IngestStatus = z.object({
  id: z.uuid(),
  status: ReportStatus,
  ingestion_started_at: z.string().nullable(),
  ingestion_finished_at: z.string().nullable(),
  ingestion_error: z.string().nullable(),
  ingestion_cost_cents: z.number().int(),
});
export type IngestStatus = z.infer<typeof IngestStatus>;

export const ParsedSection = z.object({
  id: z.uuid(),
  section_name: z.string(),
  section_slug: z.string(),
  level: z.number().int(),
  order_in_doc: z.number().int(),
  page_start: z.number().int().nullable(),
  page_end: z.number().int().nullable(),
  markdown: z.string(),
});
export type ParsedSection = z.infer<typeof ParsedSection>;

export const ParsedSectionList = z.array(ParsedSection);

export const DeletedReport = z.object({ id: z.uuid(), deleted: z.literal(true) });
export type DeletedReport = z.infer<typeof DeletedReport>;

/**
 * Payload of one message on the realtime channel `report-{id}`
 * (`GET /ingest/{id}/events`). The SSE `id` is `seq`, so `Last-Event-ID` resumes after it.
 */
export const RealtimeEvent = z.object({
  seq: z.number().int().positive(),
  type: EventType,
  status: ReportStatus,
  occurred_at: z.string(),
  target_kind: z.enum(['report', 'attachment']),
  target_id: z.uuid(),
  data: z.record(z.string(), z.unknown()),
});
export type RealtimeEvent = z.infer<typeof RealtimeEvent>;

export const MagicLinkRequest = z.object({ email: z.email().max(320) });
export type MagicLinkRequest = z.infer<typeof MagicLinkRequest>;

export const MagicLinkAccepted = z.object({ sent: z.literal(true) });

export const ConfirmQuery = z.object({
  token_hash: z.string().min(16).max(256),
  type: z.literal('magiclink'),
});
export type ConfirmQuery = z.infer<typeof ConfirmQuery>;

export const RefreshRequest = z.object({ refresh_token: z.string().min(16).max(256) });
export type RefreshRequest = z.infer<typeof RefreshRequest>;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  user: MeResponse,
});
export type TokenResponse = z.infer<typeof TokenResponse>;
