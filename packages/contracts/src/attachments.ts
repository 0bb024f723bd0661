import { z } from 'zod';
import { ReportStatus } from './status.js';
import { PathId } from './ids.js';

/** Where an attachment came from (spec: Attachment.source). */
export const AttachmentSource = z.enum(['partner', 'user_upload']);
export type AttachmentSource = z.infer<typeof AttachmentSource>;

/** An attachment of a report folder (spec: Attachment), with its processing state. */
export const Attachment = z.object({
  id: z.uuid(),
  report_id: z.uuid(),
  source: AttachmentSource,
  /** Partner-assigned id (idempotency key of partner uploads); null for user uploads. */
  partner_id: z.string().nullable(),
  attachment_type: z.string().nullable(),
  note: z.string().nullable(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  status: ReportStatus,
  ingestion_error: z.string().nullable(),
  ingestion_cost_cents: z.number().int(),
  created_at: z.string(),
});
export type Attachment = z.infer<typeof Attachment>;

export const AttachmentList = z.array(Attachment);
export type AttachmentList = z.infer<typeof AttachmentList>;

export const AttachmentIdParams = z.object({ report_id: PathId, attachment_id: PathId });
export type AttachmentIdParams = z.infer<typeof AttachmentIdParams>;

export const DeletedAttachment = z.object({ id: z.uuid(), deleted: z.literal(true) });
export type DeletedAttachment = z.infer<typeof DeletedAttachment>;

/** Answer of the partner status endpoint: status and ingestion_cost_cents (spec), and when. */
export const PartnerAttachmentStatus = z.object({
  id: z.uuid(),
  report_id: z.uuid(),
  status: ReportStatus,
  ingestion_cost_cents: z.number().int(),
  ingestion_error: z.string().nullable(),
  ingestion_started_at: z.string().nullable(),
  ingestion_finished_at: z.string().nullable(),
});
export type PartnerAttachmentStatus = z.infer<typeof PartnerAttachmentStatus>;

// `|` separates the canonical string's parts; refusing it inside a part makes the
// string unambiguous, so one signature can never stand for a differently split request.
// Values are signed exactly as sent, so they are not trimmed here either.
const canonicalPart = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => v.trim() !== '', 'must not be blank')
    .refine((v) => !v.includes('|'), 'must not contain "|"');

/** Text fields of `POST /reports/{id}/attachments/system` (multipart, beside `file`). */
export const PartnerAttachmentFields = z.object({
  partner_id: canonicalPart(200),
  attachment_type: canonicalPart(200),
  note: z.string().max(4000).nullable(),
});
export type PartnerAttachmentFields = z.infer<typeof PartnerAttachmentFields>;

/**
 * Canonical string a partner signs for an upload (spec, HMAC rule 1):
 * `<report_id>|<partner_id>|<attachment_type>|<file_sha256>`, where file_sha256
 * is the lowercase hex SHA-256 of the file bytes.
 */
export function partnerUploadCanonicalString(parts: {
  report_id: string;
  partner_id: string;
  attachment_type: string;
  file_sha256: string;
}): string {
  return [parts.report_id, parts.partner_id, parts.attachment_type, parts.file_sha256].join('|');
}

/**
 * Canonical string a partner signs for `GET /reports/{report_id}/attachments/{attachment_id}/status`
 * (the spec leaves it open; see docs/adr/019): `<report_id>|<attachment_id>`, both ids exactly as
 * they appear in the request path.
 */
export function partnerStatusCanonicalString(parts: {
  report_id: string;
  attachment_id: string;
}): string {
  return [parts.report_id, parts.attachment_id].join('|');
}
