import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  DeletedReport,
  ErrorBody,
  IngestAccepted,
  IngestStatus,
  ParsedSectionList,
  ReportIdParams,
} from '@reports/contracts';
import type { GatewayDeps } from '../deps.js';
import { currentUser } from '../auth/types.js';
import { deleteReportRow, findStatus, isTenantMember, listSections } from '../reports/store.js';
import { recordUpload, submitUpload } from './accept.js';
import { streamReportEvents } from './events.js';
import { LIMITS } from '../limits/rateLimit.js';

const errors = { 401: ErrorBody, 404: ErrorBody };
const security = [{ bearerAuth: [] }];

/** `POST /ingest`. */
function uploadRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/ingest',
    {
      preHandler: app.authenticate,
      config: { rateLimit: LIMITS.upload },
      schema: {
        tags: ['ingestion'],
        summary: 'Upload a report; processing continues asynchronously',
        description:
          'multipart/form-data with `file` (PDF, PNG, JPEG, WEBP, MHTML, HTML or DOCX; at most 50 MB; type checked by its bytes) and optional `title`.',
        security,
        consumes: ['multipart/form-data'],
        response: {
          202: IngestAccepted,
          400: ErrorBody,
          401: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const recorded = await recordUpload(request, deps, user);
      await submitUpload(deps, user, recorded, request.log);
      const { id, upload, title } = recorded;
      return reply.status(202).send({
        id,
        status: 'uploaded' as const,
        filename: upload.filename,
        size_bytes: upload.sizeBytes,
        content_type: upload.contentType,
        title,
      });
    },
  );
}

/** `GET /ingest/:report_id/status`. */
function statusRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/ingest/:report_id/status',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['ingestion'],
        summary: 'Processing status (polling fallback of the realtime channel)',
        security,
        params: ReportIdParams,
        response: { 200: IngestStatus, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const status = await findStatus(deps.pool, user.tenant_id, request.params.report_id);
      if (!status) throw new AppError('not_found', 'report not found');
      return status;
    },
  );
}

/** `GET /ingest/:report_id/sections`. */
function sectionsRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/ingest/:report_id/sections',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['ingestion'],
        summary: 'Parsed sections of the main file (available once the status is parsed)',
        security,
        params: ReportIdParams,
        response: { 200: ParsedSectionList, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!(await findStatus(deps.pool, user.tenant_id, request.params.report_id))) {
        throw new AppError('not_found', 'report not found');
      }
      return listSections(deps.pool, user.tenant_id, request.params.report_id);
    },
  );
}

/** `GET /ingest/:report_id/events`. */
function eventsRoute(
  fastify: FastifyInstance,
  deps: GatewayDeps,
  openChannels: Set<() => void>,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/ingest/:report_id/events',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['ingestion'],
        summary: 'Realtime channel report-{id} as Server-Sent Events',
        description:
          'History first, then live events, until the report is ready or failed. Each SSE message has `id` (stream sequence), ' +
          '`event` (the event type) and `data` (a RealtimeEvent). Send `Last-Event-ID` to resume after a given id.',
        security,
        params: ReportIdParams,
        headers: z
          .object({
            'last-event-id': z
              .string()
              .regex(/^\d{1,15}$/)
              .optional(),
          })
          .loose(),
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const reportId = request.params.report_id;
      if (!(await findStatus(deps.pool, user.tenant_id, reportId))) {
        throw new AppError('not_found', 'report not found');
      }
      const lastEventId = Number(request.headers['last-event-id'] ?? 0);
      await streamReportEvents(request, reply, deps.nats, {
        tenantId: user.tenant_id,
        reportId,
        after: lastEventId,
        open: openChannels,
      });
    },
  );
}

/** `DELETE /ingest/:report_id`. */
function deleteRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.delete(
    '/ingest/:report_id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['ingestion'],
        summary:
          'Delete a report with its attachments, figures, sections and chunks (stored files are kept)',
        security,
        params: ReportIdParams,
        response: { 200: DeletedReport, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const reportId = request.params.report_id;
      // Outside the tenant scope (or not a member of it) the report does not exist for the caller.
      if (
        !(await isTenantMember(deps.pool, user)) ||
        !(await deleteReportRow(deps.pool, user.tenant_id, reportId))
      ) {
        throw new AppError('not_found', 'report not found');
      }
      return { id: reportId, deleted: true as const };
    },
  );
}

export async function ingestRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Realtime channels in progress: ended on shutdown so the server can close.
  const openChannels = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const close of [...openChannels]) close();
  });

  uploadRoute(fastify, deps);
  statusRoute(fastify, deps);
  sectionsRoute(fastify, deps);
  eventsRoute(fastify, deps, openChannels);
  deleteRoute(fastify, deps);
}
