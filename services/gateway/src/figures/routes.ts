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
import { currentUser } from '../auth/types.js';
import type { FileLinks } from '../files/links.js';

interface FigureRow {
  id: string;
  report_id: string;
  attachment_id: string | null;
  section_name: string | null;
  page_number: number | null;
  order_in_doc: number;
  object_key: string;
  thumbnail_key: string | null;
  mime_type: string | null;
  width: number | null;
  height: number | null;
  annotation_source: string;
  annotation_quality_score: number | null;
  annotation_json: Record<string, unknown> | null;
}

/**
 * Figures of a report folder (main file first, then attachments in upload
 * order), or null when the report is outside the caller's tenant.
 */
export async function listFigureRows(
  pool: Pool,
  tenantId: string,
  reportId: string,
): Promise<FigureRow[] | null> {
  const { rowCount } = await pool.query('SELECT 1 FROM reports WHERE id = $1 AND tenant_id = $2', [
    reportId,
    tenantId,
  ]);
  if (!rowCount) return null;
  const { rows } = await pool.query<FigureRow>(
    `SELECT f.id, f.report_id, f.attachment_id, f.section_name, f.page_number, f.order_in_doc, f.object_key,
            f.thumbnail_key, f.mime_type, f.width, f.height, f.annotation_source, f.annotation_quality_score,
            f.annotation_json
       FROM figures f LEFT JOIN attachments a ON a.id = f.attachment_id
      WHERE f.report_id = $1 AND f.tenant_id = $2
      ORDER BY f.attachment_id IS NOT NULL, a.created_at, f.attachment_id, f.order_in_doc`,
    [reportId, tenantId],
  );
  return rows;
}

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
