import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  ErrorBody,
  IngestStatus,
  ReportDetail,
  ReportIdParams,
  ReportListQuery,
  ReportSummaryList,
  SectionDetail,
  SectionInfoList,
  SectionParams,
} from '@reports/contracts';
import type { GatewayDeps } from '../deps.js';
import { currentUser } from '../auth/types.js';
import { LIMITS } from '../limits/rateLimit.js';
import { findReportDetail, findSection, listReports, listSectionInfos } from './store.js';
import { recordUpload, submitUpload } from '../ingest/accept.js';
import { watchReport } from './syncUpload.js';

const security = [{ bearerAuth: [] }];
const errors = { 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };
const TAGS = ['reports'];
const REPORT_NOT_FOUND = 'report not found';

/** `GET /reports`. */
function listRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/reports',
    {
      preParsing: app.authenticate,
      schema: {
        tags: TAGS,
        summary: "The tenant's reports, newest first",
        security,
        querystring: ReportListQuery,
        response: { 200: ReportSummaryList, 401: ErrorBody, 422: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => listReports(deps.pool, currentUser(request).tenant_id, request.query),
  );
}

/** `POST /reports`. */
function syncUploadRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/reports',
    {
      preParsing: app.authenticate,
      config: { rateLimit: LIMITS.upload },
      schema: {
        tags: TAGS,
        summary: 'Legacy synchronous upload: answers once the report is ready (or failed)',
        description:
          'The same multipart/form-data as `POST /ingest` (`file`, optional `title`). The upload goes through the ' +
          'normal pipeline; the answer waits until the report is `ready` (201 with the ReportDetail) or `failed` ' +
          '(422 `ingestion_failed`, detail = the ingestion error), at most REPORTS_SYNC_TIMEOUT_MS (default 120 s). ' +
          'When that runs out the answer is 202 with the current status and a `Location` of the status endpoint; ' +
          'processing continues. New clients use `POST /ingest` and the realtime channel.',
        security,
        consumes: ['multipart/form-data'],
        response: {
          201: ReportDetail,
          202: IngestStatus,
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
      const user = currentUser(request);
      const recorded = await recordUpload(request, deps, user);
      // Subscribed before the upload is published, so not even the first event is missed.
      const watch = watchReport(deps.nats.nc, deps.pool, user.tenant_id, recorded.id);
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once('close', onClose);
      try {
        await submitUpload(deps, user, recorded, request.log);
        const outcome = await watch.settle(deps.config.REPORTS_SYNC_TIMEOUT_MS, gone.signal);
        if (outcome.kind === 'gone') throw new AppError('not_found', REPORT_NOT_FOUND);
        if (outcome.kind === 'timeout') {
          return reply
            .status(202)
            .header('location', `/ingest/${recorded.id}/status`)
            .send(outcome.status);
        }
        if (outcome.status.status === 'failed') {
          throw new AppError(
            'ingestion_failed',
            outcome.status.ingestion_error ?? 'the report could not be processed',
          );
        }
        const detail = await findReportDetail(deps.pool, user.tenant_id, recorded.id);
        if (!detail) throw new AppError('not_found', REPORT_NOT_FOUND);
        return reply.status(201).header('location', `/reports/${recorded.id}`).send(detail);
      } finally {
        reply.raw.off('close', onClose);
        watch.close();
      }
    },
  );
}

/** `GET /reports/:report_id`. */
function detailRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/reports/:report_id',
    {
      preParsing: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'One report with its parse output (`parsed_markdown`, `parsed_metadata`)',
        security,
        params: ReportIdParams,
        response: { 200: ReportDetail, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const detail = await findReportDetail(deps.pool, user.tenant_id, request.params.report_id);
      if (!detail) throw new AppError('not_found', REPORT_NOT_FOUND);
      return detail;
    },
  );
}

/** `GET /reports/:report_id/sections`. */
function sectionsRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/reports/:report_id/sections',
    {
      preParsing: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Sections of a report (v2: parsed sections; v1: heading split of its clean text)',
        security,
        params: ReportIdParams,
        response: { 200: SectionInfoList, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sections = await listSectionInfos(deps.pool, user.tenant_id, request.params.report_id);
      if (!sections) throw new AppError('not_found', REPORT_NOT_FOUND);
      return sections;
    },
  );
}

/** `GET /reports/:report_id/sections/:section_name`. */
function sectionRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/reports/:report_id/sections/:section_name',
    {
      preParsing: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'One section with its full markdown',
        description:
          '`section_name` is the section name (URL-encoded) or its slug: the first section in document order ' +
          'whose name matches exactly, else whose slug matches, else whose name matches ignoring case.',
        security,
        params: SectionParams,
        response: { 200: SectionDetail, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const found = await findSection(
        deps.pool,
        user.tenant_id,
        request.params.report_id,
        request.params.section_name,
      );
      if (!found.report) throw new AppError('not_found', REPORT_NOT_FOUND);
      if (!found.section) throw new AppError('not_found', 'section not found');
      return found.section;
    },
  );
}

/**
 * Report reads (`GET /reports...`) and the legacy synchronous upload
 * (`POST /reports`). Every read is scoped to the caller's effective tenant; a
 * report outside it answers exactly as one that does not exist. Authentication
 * runs in preParsing: after the rate limit, which so also counts callers
 * without a token, and before the body is read.
 */
export async function reportRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  listRoute(fastify, deps);
  syncUploadRoute(fastify, deps);
  detailRoute(fastify, deps);
  sectionsRoute(fastify, deps);
  sectionRoute(fastify, deps);
}
