import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  Attachment,
  AttachmentIdParams,
  AttachmentList,
  DeletedAttachment,
  ErrorBody,
  ReportIdParams,
} from '@reports/contracts';
import type { GatewayDeps } from '../deps.js';
import { currentUser } from '../auth/types.js';
import { isTenantMember, reportExists } from '../reports/store.js';
import { readUploadForm, storeUpload } from '../ingest/upload.js';
import { deleteUserUpload, findAttachment, insertAttachment, listAttachments } from './store.js';
import { publishAttachmentUploaded } from './publish.js';
import { LIMITS } from '../limits/rateLimit.js';
import { attachmentKeyPrefix } from '@reports/platform';

const security = [{ bearerAuth: [] }];

/** A free-text multipart field, trimmed and capped; null when empty. */
function textField(value: unknown, max: number): string | null {
  return typeof value === 'string' ? value.trim().slice(0, max) || null : null;
}

/**
 * The attachments of a report folder as its users see them: upload one
 * (`user_upload`), list both kinds, delete a user upload. Every route answers
 * 404 for a report outside the caller's tenant.
 */
export async function attachmentRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/ingest/:report_id/uploads',
    {
      preHandler: app.authenticate,
      // The same budget as POST /ingest: it is the same kind of work.
      config: { rateLimit: LIMITS.upload },
      schema: {
        tags: ['attachments'],
        summary: 'Add a file to a report folder (attachment with source user_upload)',
        description:
          'multipart/form-data as POST /ingest: `file` (PDF, PNG, JPEG, WEBP, MHTML, HTML or DOCX; at most 50 MB), ' +
          'optional `note` (or `title`) and `attachment_type`. Answers 202 with the attachment; it runs through every stage.',
        security,
        consumes: ['multipart/form-data'],
        params: ReportIdParams,
        response: {
          202: Attachment,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const reportId = request.params.report_id;
      if (!(await reportExists(deps.pool, user.tenant_id, reportId))) {
        throw new AppError('not_found', 'report not found');
      }
      const id = randomUUID();
      const { upload, fields } = await readUploadForm(
        request,
        (file) =>
          storeUpload(file, {
            objectStore: deps.objectStore,
            config: deps.config,
            keyPrefix: attachmentKeyPrefix(user.tenant_id, reportId, id),
          }),
        (stored) => deps.objectStore.delete(stored.objectKey),
      );
      const { attachment } = await insertAttachment(deps.pool, {
        id,
        tenantId: user.tenant_id,
        reportId,
        source: 'user_upload',
        partnerId: null,
        attachmentType: textField(fields.attachment_type, 200),
        note: textField(fields.note, 4000) ?? textField(fields.title, 500),
        upload,
      }).catch(async (error: unknown) => {
        await deps.objectStore.delete(upload.objectKey).catch(() => undefined);
        throw error;
      });
      await publishAttachmentUploaded(
        { ...deps, log: request.log },
        user.tenant_id,
        attachment,
        upload,
      );
      return reply.status(202).send(attachment);
    },
  );

  app.get(
    '/ingest/:report_id/attachments',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['attachments'],
        summary: 'Attachments of a report folder (partner and user_upload), with their status',
        security,
        params: ReportIdParams,
        response: { 200: AttachmentList, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!(await reportExists(deps.pool, user.tenant_id, request.params.report_id))) {
        throw new AppError('not_found', 'report not found');
      }
      return listAttachments(deps.pool, user.tenant_id, request.params.report_id);
    },
  );

  app.delete(
    '/ingest/:report_id/attachments/:attachment_id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['attachments'],
        summary:
          'Delete a user upload with its sections, figures and chunks (stored files are kept)',
        description: 'Partner attachments are immutable: 409 `attachment_immutable`.',
        security,
        params: AttachmentIdParams,
        response: { 200: DeletedAttachment, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { report_id: reportId, attachment_id: attachmentId } = request.params;
      // Deleting is a member's act, as for DELETE /ingest/{id}; outside it nothing exists.
      const attachment = (await isTenantMember(deps.pool, user))
        ? await findAttachment(deps.pool, user.tenant_id, reportId, attachmentId)
        : null;
      if (!attachment) throw new AppError('not_found', 'attachment not found');
      if (attachment.source !== 'user_upload') throw new AppError('attachment_immutable');
      if (!(await deleteUserUpload(deps.pool, user.tenant_id, attachmentId))) {
        throw new AppError('not_found', 'attachment not found');
      }
      return { id: attachmentId, deleted: true as const };
    },
  );
}
