import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  AttachmentIdParams,
  ErrorBody,
  PartnerAttachmentStatus,
  partnerStatusCanonicalString,
} from '@reports/contracts';
import type { GatewayDeps } from '../deps.js';
import { partnerAttachmentStatus } from '../attachments/store.js';
import { LIMITS } from '../limits/rateLimit.js';
import { configuredSecret, partnerSecurity, signatureHeader } from './common.js';
import { partnerSignatureMatches } from './signature.js';

/** `GET /reports/{report_id}/attachments/{attachment_id}/status` (HMAC). */
export function partnerStatusRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/reports/:report_id/attachments/:attachment_id/status',
    {
      config: { rateLimit: LIMITS.partnerStatus },
      schema: {
        tags: ['partner'],
        summary: 'Processing status of a partner attachment (HMAC)',
        description:
          '`X-Partner-Signature`: lowercase hex HMAC-SHA-256 of `<report_id>|<attachment_id>` (the ids as in the path).',
        security: partnerSecurity,
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
