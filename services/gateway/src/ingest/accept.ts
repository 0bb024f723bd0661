import type { FastifyRequest } from 'fastify';
import { AppError, stageMessageId } from '@reports/contracts';
import { awaitNatsConnected, newEvent, publishEvent, reportKeyPrefix } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import type { AuthUser } from '../auth/types.js';
import { deleteReportRow, insertReport } from '../reports/store.js';
import { newReportId, readUploadForm, storeUpload, type StoredUpload } from './upload.js';

/** A report stored and recorded, not yet handed to the pipeline. */
export interface RecordedUpload {
  id: string;
  upload: StoredUpload;
  title: string | null;
}

/**
 * Reads a multipart upload as `POST /ingest` does (file checked by its bytes,
 * 50 MB cap while streaming, optional `title`), stores it and inserts the
 * report record.
 */
export async function recordUpload(
  request: FastifyRequest,
  deps: Pick<GatewayDeps, 'objectStore' | 'config' | 'pool'>,
  user: AuthUser,
): Promise<RecordedUpload> {
  const id = newReportId();
  const { upload, fields } = await readUploadForm(
    request,
    (file) =>
      storeUpload(file, {
        objectStore: deps.objectStore,
        config: deps.config,
        keyPrefix: reportKeyPrefix(user.tenant_id, id),
      }),
    (stored) => deps.objectStore.delete(stored.objectKey),
  );
  const title = typeof fields.title === 'string' ? fields.title.trim().slice(0, 500) || null : null;
  try {
    await insertReport(deps.pool, { id, user, title, upload });
  } catch (error) {
    await deps.objectStore.delete(upload.objectKey).catch(() => undefined);
    throw error;
  }
  return { id, upload, title };
}

/** Publishes `ReportUploaded`; when that fails the record and object are removed and the answer is 503. */
export async function submitUpload(
  deps: Pick<GatewayDeps, 'objectStore' | 'pool' | 'nats' | 'clock'>,
  user: AuthUser,
  recorded: RecordedUpload,
  log: FastifyRequest['log'],
): Promise<void> {
  const { id, upload, title } = recorded;
  const event = newEvent(
    'ReportUploaded',
    {
      tenant_id: user.tenant_id,
      report_id: id,
      target_kind: 'report',
      target_id: id,
      generation: 1,
      correlation_id: id,
      causation_id: null,
    },
    {
      filename: upload.filename,
      content_type: upload.contentType,
      size_bytes: upload.sizeBytes,
      object_key: upload.objectKey,
      sha256: upload.sha256,
      title,
    },
    deps.clock,
  );
  try {
    await awaitNatsConnected(deps.nats.nc, 'the processing queue');
    await publishEvent(deps.nats.js, event, stageMessageId(id, 'upload', 1));
  } catch (error) {
    log.error({ err: error, report_id: id }, 'could not publish ReportUploaded');
    await deleteReportRow(deps.pool, user.tenant_id, id);
    await deps.objectStore.delete(upload.objectKey).catch(() => undefined);
    throw new AppError('service_unavailable', 'the processing queue is unavailable; try again');
  }
}
