/**
 * The object-key layout, in one place (docs/adr/007). Everything a tenant stores lives under
 * `tenants/<tenant_id>/`; a report's files under its `reports/<report_id>/` folder:
 *
 * - `original/source.<kind>`: the uploaded file; `original/legacy.md` for a claimed v1 report;
 * - `attachments/<attachment_id>/original/source.<kind>`: an attachment's file;
 * - `figures/<figure_id>.<ext>` and `figures/<figure_id>.thumb.webp`: figure images.
 */

/** Prefix of every tenant's data: the only keys a signed file link may serve. */
export const TENANT_DATA_PREFIX = 'tenants/';

/** A report's folder (no trailing slash): the upload of its main file goes below it. */
export function reportKeyPrefix(tenantId: string, reportId: string): string {
  return `${TENANT_DATA_PREFIX}${tenantId}/reports/${reportId}`;
}

/** An attachment's folder inside its report's (no trailing slash). */
export function attachmentKeyPrefix(
  tenantId: string,
  reportId: string,
  attachmentId: string,
): string {
  return `${reportKeyPrefix(tenantId, reportId)}/attachments/${attachmentId}`;
}

/** The uploaded file below a report's or an attachment's folder; `kind` is its sniffed kind. */
export function originalKey(folder: string, kind: string): string {
  return `${folder}/original/source.${kind}`;
}

/** The clean text of a claimed v1 report, stored as its original. */
export function legacyOriginalKey(tenantId: string, reportId: string): string {
  return `${reportKeyPrefix(tenantId, reportId)}/original/legacy.md`;
}

/** Where a report's figure images go (with a trailing slash, for listing). */
export function figuresKeyPrefix(tenantId: string, reportId: string): string {
  return `${reportKeyPrefix(tenantId, reportId)}/figures/`;
}

/** A figure's image (`ext`: png, jpg, webp...). */
export function figureKey(
  tenantId: string,
  reportId: string,
  figureId: string,
  ext: string,
): string {
  return `${figuresKeyPrefix(tenantId, reportId)}${figureId}.${ext}`;
}

/** A figure's WEBP thumbnail. */
export function figureThumbnailKey(tenantId: string, reportId: string, figureId: string): string {
  return `${figuresKeyPrefix(tenantId, reportId)}${figureId}.thumb.webp`;
}
