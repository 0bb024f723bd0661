import { z } from 'zod';
import { ReportStatus } from './status.js';
import { PathId } from './ids.js';

/** Report generations (spec: Versioning): 2 has parsed sections, 1 is a legacy report with clean text. */
export const ReportVersion = z.union([z.literal(1), z.literal(2)]);
export type ReportVersion = z.infer<typeof ReportVersion>;

/** One report in the list of `GET /reports`. */
export const ReportSummary = z.object({
  id: z.uuid(),
  title: z.string().nullable(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  status: ReportStatus,
  report_version: ReportVersion,
  ingestion_started_at: z.string().nullable(),
  ingestion_finished_at: z.string().nullable(),
  ingestion_error: z.string().nullable(),
  ingestion_cost_cents: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReportSummary = z.infer<typeof ReportSummary>;

export const ReportSummaryList = z.array(ReportSummary);

/** Query of `GET /reports`: newest first, paged by `limit` and `offset`. */
export const ReportListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ReportListQuery = z.infer<typeof ReportListQuery>;

/**
 * `GET /reports/{id}`: the summary with the parse output. `parsed_markdown` is the
 * whole document as markdown (for a v1 report, its clean text); `clean_text` is the
 * plain text the chat falls back to; `parsed_metadata` holds `embedding_status`.
 */
export const ReportDetail = ReportSummary.extend({
  parsed_markdown: z.string().nullable(),
  clean_text: z.string().nullable(),
  parsed_metadata: z.record(z.string(), z.unknown()),
  attachments: z.number().int(),
  sections: z.number().int(),
});
export type ReportDetail = z.infer<typeof ReportDetail>;

/** One entry of `GET /reports/{id}/sections`: what a table of contents needs, without the body. */
export const SectionInfo = z.object({
  section_name: z.string(),
  section_slug: z.string(),
  level: z.number().int(),
  order_in_doc: z.number().int(),
  page_start: z.number().int().nullable(),
  page_end: z.number().int().nullable(),
  char_count: z.number().int(),
});
export type SectionInfo = z.infer<typeof SectionInfo>;

export const SectionInfoList = z.array(SectionInfo);

/** `GET /reports/{id}/sections/{section_name}`: one section with its full markdown. */
export const SectionDetail = SectionInfo.extend({ markdown: z.string() });
export type SectionDetail = z.infer<typeof SectionDetail>;

export const SectionParams = z.object({
  report_id: PathId,
  section_name: z.string().min(1).max(1000),
});
export type SectionParams = z.infer<typeof SectionParams>;
