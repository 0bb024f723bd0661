import { AppError, stageMessageId, type Attachment } from '@reports/contracts';
import {
  awaitNatsConnected,
  newEvent,
  publishEvent,
  type Clock,
  type Nats,
  type ObjectStore,
  type Pool,
} from '@reports/platform';
import type { FastifyBaseLogger } from 'fastify';
import type { StoredUpload } from '../ingest/upload.js';
import { deleteAttachmentRow } from './store.js';

/**
 * Starts an attachment's ingestion: `ReportUploaded` with target_kind
 * `attachment` on the parent report's subject, so it runs through the same
 * stages as a main file and its outputs carry the parent report_id. If the
 * event cannot be published the attachment and its file are removed and the
 * answer is 503: nothing is accepted that the pipeline does not have.
 */
export async function publishAttachmentUploaded(
  deps: { nats: Nats; pool: Pool; objectStore: ObjectStore; clock: Clock; log: FastifyBaseLogger },
  tenantId: string,
  attachment: Attachment,
  upload: StoredUpload,
): Promise<void> {
  const event = newEvent(
    'ReportUploaded',
    {
      tenant_id: tenantId,
      report_id: attachment.report_id,
      target_kind: 'attachment',
      target_id: attachment.id,
      generation: 1,
      correlation_id: attachment.id,
      causation_id: null,
    },
    {
      filename: upload.filename,
      content_type: upload.contentType,
      size_bytes: upload.sizeBytes,
      object_key: upload.objectKey,
      sha256: upload.sha256,
      title: null,
    },
    deps.clock,
  );
  try {
    await awaitNatsConnected(deps.nats.nc, 'the processing queue');
    await publishEvent(deps.nats.js, event, stageMessageId(attachment.id, 'upload', 1));
  } catch (error) {
    deps.log.error(
      { err: error, report_id: attachment.report_id, attachment_id: attachment.id },
      'could not publish ReportUploaded for an attachment',
    );
    await deleteAttachmentRow(deps.pool, attachment.id);
    await deps.objectStore.delete(upload.objectKey).catch(() => undefined);
    throw new AppError('service_unavailable', 'the processing queue is unavailable; try again');
  }
}
