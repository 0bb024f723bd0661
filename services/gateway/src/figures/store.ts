import type { Pool } from '@reports/platform';

/** The gateway's store of the `figures` table. Every query is filtered by the caller's tenant. */

export interface FigureRow {
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
