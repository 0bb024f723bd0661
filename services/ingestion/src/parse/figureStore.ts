import { createHash } from 'node:crypto';
import { makeThumbnail, type FigureDraft } from '@reports/documents';
import { figureKey, figureThumbnailKey, type ObjectStore } from '@reports/platform';

const EXTENSION: Record<FigureDraft['mime_type'], string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * A figure's id, derived from its target and place in the document: a rerun of parse writes
 * the same ids and so the same object keys, and a crash between storing and committing leaves
 * nothing behind that the next run does not overwrite.
 */
export function figureId(targetId: string, order: number): string {
  const h = createHash('sha256').update(`figure:${targetId}:${order}`).digest('hex');
  // Formatted as a version-8 (custom) RFC 9562 UUID.
  const variant = ((parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface StoredFigure {
  id: string;
  draft: FigureDraft;
  object_key: string;
  thumbnail_key: string | null;
}

/** Stores each figure's image and a WEBP thumbnail (at most 512 px); returns their keys. */
export async function storeFigures(
  store: ObjectStore,
  ids: { tenantId: string; reportId: string; targetId: string },
  figures: FigureDraft[],
  signal?: AbortSignal,
): Promise<StoredFigure[]> {
  const out: StoredFigure[] = [];
  for (const draft of figures) {
    signal?.throwIfAborted();
    const id = figureId(ids.targetId, draft.order);
    const objectKey = figureKey(ids.tenantId, ids.reportId, id, EXTENSION[draft.mime_type]);
    await store.put(objectKey, draft.bytes, { contentType: draft.mime_type });
    let thumbnailKey: string | null = figureThumbnailKey(ids.tenantId, ids.reportId, id);
    try {
      const thumb = await makeThumbnail(draft.bytes);
      await store.put(thumbnailKey, thumb.bytes, { contentType: thumb.mime_type });
    } catch {
      thumbnailKey = null; // the original is still served; a thumbnail is a convenience
    }
    out.push({ id, draft, object_key: objectKey, thumbnail_key: thumbnailKey });
  }
  return out;
}
