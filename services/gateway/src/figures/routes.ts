import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  ErrorBody,
  FigureList,
  FigureListQuery,
  ReportIdParams,
  type Figure,
} from '@reports/contracts';
import type { Pool } from '@reports/platform';
import { listFigureRows } from './store.js';
import { currentUser } from '../auth/types.js';
import type { FileLinks } from '../files/links.js';

export async function figureRoutes(
  fastify: FastifyInstance,
  { pool, links, ttlSeconds }: { pool: Pool; links: FileLinks; ttlSeconds: number },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/ingest/:report_id/figures',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['ingestion'],
        summary: 'Figures of the report and its attachments, with expiring signed links',
        description:
          '`storage_url` is the thumbnail (the original when there is none), `original_url` the original image; ' +
          'both expire at `url_expires_at`. `ttl_seconds` asks for links that expire sooner than the configured lifetime.',
        security: [{ bearerAuth: [] }],
        params: ReportIdParams,
        querystring: FigureListQuery,
        response: { 200: FigureList, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await listFigureRows(pool, user.tenant_id, request.params.report_id);
      if (!rows) throw new AppError('not_found', 'report not found');
      const ttl = Math.min(request.query.ttl_seconds ?? ttlSeconds, ttlSeconds);
      return Promise.all(
        rows.map(async (row): Promise<Figure> => {
          const original = await links.signedUrl(row.object_key, ttl);
          const thumbnail = row.thumbnail_key
            ? await links.signedUrl(row.thumbnail_key, ttl)
            : original;
          return {
            id: row.id,
            report_id: row.report_id,
            attachment_id: row.attachment_id,
            section_name: row.section_name,
            page_number: row.page_number,
            order_in_doc: row.order_in_doc,
            storage_url: thumbnail.url,
            original_url: original.url,
            url_expires_at: original.expiresAt.toISOString(),
            mime_type: row.mime_type,
            width: row.width,
            height: row.height,
            annotation_source: row.annotation_source,
            annotation_quality_score: row.annotation_quality_score,
            annotation_json: row.annotation_json,
          };
        }),
      );
    },
  );
}
