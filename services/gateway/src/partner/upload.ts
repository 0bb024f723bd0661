import { createHash, randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  Attachment,
  ErrorBody,
  PartnerAttachmentFields,
  ReportIdParams,
  partnerUploadCanonicalString,
} from '@reports/contracts';
import { attachmentKeyPrefix } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import {
  MAX_UPLOAD_BYTES,
  OCR_KINDS,
  multipartError,
  readUploadForm,
  storeUpload,
  type StoredUpload,
} from '../ingest/upload.js';
import {
  findPartnerAttachment,
  findReportForPartner,
  insertAttachment,
} from '../attachments/store.js';
import { publishAttachmentUploaded } from '../attachments/publish.js';
import { LIMITS } from '../limits/rateLimit.js';
import { configuredSecret, partnerSecurity, signatureHeader } from './common.js';
import { parsePartnerSignature, partnerSignatureMatches } from './signature.js';

type PartnerReport = { id: string; tenant_id: string };
type PartnerFields = ReturnType<typeof PartnerAttachmentFields.parse>;

/** Reads a file part to its end for its SHA-256 only (a report that does not exist stores nothing). */
async function hashOnly(part: MultipartFile): Promise<string> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of part.file) {
      size += (chunk as Buffer).length;
      if (size > MAX_UPLOAD_BYTES) throw new AppError('file_too_large');
      hash.update(chunk as Buffer);
    }
  } catch (error) {
    throw multipartError(error);
  }
  if (part.file.truncated) throw new AppError('file_too_large');
  return hash.digest('hex');
}

/**
 * Step 1: the form. The signature covers the file's hash, so the file is read first: into the
 * store while hashing when the report exists, through the hash alone otherwise.
 */
async function receiveForm(
  request: FastifyRequest,
  deps: GatewayDeps,
  report: PartnerReport | null,
  attachmentId: string,
): Promise<{ upload: StoredUpload | null; sha256: string; fields: Record<string, unknown> }> {
  const { upload, fields } = await readUploadForm(
    request,
    async (part) => {
      if (!report) return { upload: null, sha256: await hashOnly(part) };
      const stored = await storeUpload(part, {
        objectStore: deps.objectStore,
        config: deps.config,
        keyPrefix: attachmentKeyPrefix(report.tenant_id, report.id, attachmentId),
        allowedKinds: OCR_KINDS,
      });
      return { upload: stored, sha256: stored.sha256 };
    },
    async (r) => {
      if (r.upload) await deps.objectStore.delete(r.upload.objectKey);
    },
  );
  return { upload: upload.upload, sha256: upload.sha256, fields };
}

/** Step 2: the text fields, checked (422 naming each problem). */
function partnerFields(fields: Record<string, unknown>): PartnerFields {
  const parsed = PartnerAttachmentFields.safeParse({
    partner_id: fields.partner_id,
    attachment_type: fields.attachment_type,
    note: typeof fields.note === 'string' && fields.note !== '' ? fields.note : null,
  });
  if (!parsed.success) {
    throw new AppError(
      'validation_failed',
      `request validation failed: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** Step 3: the signature over report, partner id, type and the file's hash (401 otherwise). */
function checkSignature(
  secret: string,
  presented: unknown,
  reportId: string,
  fields: PartnerFields,
  sha256: string,
): void {
  const canonical = partnerUploadCanonicalString({
    report_id: reportId,
    partner_id: fields.partner_id,
    attachment_type: fields.attachment_type,
    file_sha256: sha256,
  });
  if (!partnerSignatureMatches(secret, canonical, presented)) throw new AppError('invalid_hmac');
}

/**
 * `POST /reports/{report_id}/attachments/system` (HMAC): a partner's file becomes an attachment
 * of the report, once per (report, partner_id); the report is found by id alone (the shared
 * secret is the credential, docs/adr/019).
 */
export function partnerUploadRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  fastify.withTypeProvider<ZodTypeProvider>().post(
    '/reports/:report_id/attachments/system',
    {
      config: { rateLimit: LIMITS.partnerUpload },
      schema: {
        tags: ['partner'],
        summary: 'Partner upload of an attachment (HMAC)',
        description:
          'multipart/form-data: `file` (PDF or image), `partner_id` (idempotency key), `attachment_type`, optional `note`. ' +
          '`X-Partner-Signature`: lowercase hex HMAC-SHA-256 of `<report_id>|<partner_id>|<attachment_type>|<file_sha256>`. ' +
          '201 on creation; a repeat with the same (report_id, partner_id) answers 200 with the original attachment.',
        security: partnerSecurity,
        consumes: ['multipart/form-data'],
        params: ReportIdParams,
        headers: signatureHeader,
        response: {
          200: Attachment,
          201: Attachment,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          422: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const secret = configuredSecret(deps.config.PARTNER_HMAC_SECRET);
      const presented = request.headers['x-partner-signature'];
      // A signature that cannot be one is refused before the body is read.
      if (!parsePartnerSignature(presented)) throw new AppError('invalid_hmac');
      const reportId = request.params.report_id;
      const report = await findReportForPartner(deps.pool, reportId);
      const id = randomUUID();
      let upload: StoredUpload | null = null;
      let kept = false;
      try {
        const received = await receiveForm(request, deps, report, id);
        upload = received.upload;
        const fields = partnerFields(received.fields);
        checkSignature(secret, presented, reportId, fields, received.sha256);
        if (!report || !upload) throw new AppError('not_found', 'report not found');

        const existing = await findPartnerAttachment(deps.pool, report.id, fields.partner_id);
        if (existing) return reply.status(200).send(existing);
        const { attachment, created } = await insertAttachment(deps.pool, {
          id,
          tenantId: report.tenant_id,
          reportId: report.id,
          source: 'partner',
          partnerId: fields.partner_id,
          attachmentType: fields.attachment_type,
          note: fields.note,
          upload,
        });
        if (!created) return reply.status(200).send(attachment);
        kept = true;
        await publishAttachmentUploaded(
          { ...deps, log: request.log },
          report.tenant_id,
          attachment,
          upload,
        );
        return reply.status(201).send(attachment);
      } finally {
        // A refused or repeated upload leaves nothing behind in the store.
        if (upload && !kept) await deps.objectStore.delete(upload.objectKey).catch(() => undefined);
      }
    },
  );
}
