import { createHash, randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  Attachment,
  AttachmentIdParams,
  ErrorBody,
  PartnerAttachmentFields,
  PartnerAttachmentStatus,
  ReportIdParams,
  partnerStatusCanonicalString,
  partnerUploadCanonicalString,
} from '@reports/contracts';
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
  partnerAttachmentStatus,
} from '../attachments/store.js';
import { publishAttachmentUploaded } from '../attachments/publish.js';
import { parsePartnerSignature, partnerSignatureMatches } from './signature.js';
import { LIMITS } from '../limits/rateLimit.js';
import { attachmentKeyPrefix } from '@reports/platform';

const signatureHeader = z.object({ 'x-partner-signature': z.string().optional() }).loose();
const security = [{ partnerSignature: [] }];

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

function configuredSecret(secret: string | undefined): string {
  if (!secret) throw new AppError('partner_hmac_disabled');
  return secret;
}

/**
 * The partner endpoints, authenticated by `X-Partner-Signature` (HMAC-SHA-256
 * with PARTNER_HMAC_SECRET) instead of a JWT. The report is found by id alone:
 * the shared secret is the credential, and it covers every tenant's reports
 * (docs/adr/019).
 */
export async function partnerRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
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
        security,
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
        // The signature covers the file's hash, so the file is read first: into the store
        // while hashing when the report exists, through the hash alone otherwise.
        const { upload: received, fields } = await readUploadForm(
          request,
          async (part) => {
            if (!report) return { upload: null, sha256: await hashOnly(part) };
            const stored = await storeUpload(part, {
              objectStore: deps.objectStore,
              config: deps.config,
              keyPrefix: attachmentKeyPrefix(report.tenant_id, report.id, id),
              allowedKinds: OCR_KINDS,
            });
            return { upload: stored, sha256: stored.sha256 };
          },
          async (r) => {
            if (r.upload) await deps.objectStore.delete(r.upload.objectKey);
          },
        );
        upload = received.upload;
        const sha256 = received.sha256;
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
        const canonical = partnerUploadCanonicalString({
          report_id: reportId,
          partner_id: parsed.data.partner_id,
          attachment_type: parsed.data.attachment_type,
          file_sha256: sha256,
        });
        if (!partnerSignatureMatches(secret, canonical, presented))
          throw new AppError('invalid_hmac');
        if (!report || !upload) throw new AppError('not_found', 'report not found');

        const existing = await findPartnerAttachment(deps.pool, report.id, parsed.data.partner_id);
        if (existing) return reply.status(200).send(existing);
        const { attachment, created } = await insertAttachment(deps.pool, {
          id,
          tenantId: report.tenant_id,
          reportId: report.id,
          source: 'partner',
          partnerId: parsed.data.partner_id,
          attachmentType: parsed.data.attachment_type,
          note: parsed.data.note,
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

  app.get(
    '/reports/:report_id/attachments/:attachment_id/status',
    {
      config: { rateLimit: LIMITS.partnerStatus },
      schema: {
        tags: ['partner'],
        summary: 'Processing status of a partner attachment (HMAC)',
        description:
          '`X-Partner-Signature`: lowercase hex HMAC-SHA-256 of `<report_id>|<attachment_id>` (the ids as in the path).',
        security,
        params: AttachmentIdParams,
        headers: signatureHeader,
        response: {
          200: PartnerAttachmentStatus,
          401: ErrorBody,
          404: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request) => {
      const secret = configuredSecret(deps.config.PARTNER_HMAC_SECRET);
      const { report_id: reportId, attachment_id: attachmentId } = request.params;
      const canonical = partnerStatusCanonicalString({
        report_id: reportId,
        attachment_id: attachmentId,
      });
      if (!partnerSignatureMatches(secret, canonical, request.headers['x-partner-signature'])) {
        throw new AppError('invalid_hmac');
      }
      const status = await partnerAttachmentStatus(deps.pool, reportId, attachmentId);
      if (!status) throw new AppError('not_found', 'attachment not found');
      return status;
    },
  );
}
