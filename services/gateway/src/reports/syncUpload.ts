import type { FastifyRequest } from 'fastify';
import {
  AppError,
  reportEventsFilter,
  stageMessageId,
  type IngestStatus,
} from '@reports/contracts';
import { newEvent, publishEvent, type NatsConnection } from '@reports/platform';
import type { GatewayDeps } from '../app.js';
import type { AuthUser } from '../auth/types.js';
import { deleteReportRow, findStatus, insertReport } from '../ingest/reports.js';
import { newReportId, storeUpload, type StoredUpload } from '../ingest/upload.js';

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
  if (!request.isMultipart()) {
    throw new AppError(
      'unsupported_media_type',
      'unsupported media type: send multipart/form-data',
    );
  }
  const id = newReportId();
  let upload: StoredUpload | null = null;
  let title: string | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || upload) {
        part.file.resume();
        continue;
      }
      upload = await storeUpload(part, {
        objectStore: deps.objectStore,
        config: deps.config,
        keyPrefix: `tenants/${user.tenant_id}/reports/${id}`,
      });
    } else if (part.fieldname === 'title' && typeof part.value === 'string') {
      title = part.value.trim().slice(0, 500) || null;
    }
  }
  if (!upload) throw new AppError('missing_file');
  await insertReport(deps.pool, { id, user, title, upload });
  return { id, upload, title };
}

/** Publishes `ReportUploaded`; when that fails the record and object are removed and the answer is 503. */
export async function submitUpload(
  deps: Pick<GatewayDeps, 'objectStore' | 'pool' | 'nats'>,
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
  );
  try {
    await publishEvent(deps.nats.js, event, stageMessageId(id, 'upload', 1));
  } catch (error) {
    log.error({ err: error, report_id: id }, 'could not publish ReportUploaded');
    await deleteReportRow(deps.pool, user.tenant_id, id);
    await deps.objectStore.delete(upload.objectKey).catch(() => undefined);
    throw new AppError('service_unavailable', 'the processing queue is unavailable; try again');
  }
}

/** How a wait for a report ended. */
export type SyncOutcome =
  | { kind: 'settled'; status: IngestStatus }
  | { kind: 'timeout'; status: IngestStatus }
  | { kind: 'gone' };

/** Watches one report's events; created before the upload is published so nothing is missed. */
export interface ReportWatch {
  /**
   * Resolves once the report's status (the projection in Postgres) is `ready`
   * or `failed`, when `timeoutMs` runs out, when `signal` aborts, or when the
   * report was deleted meanwhile.
   */
  settle(timeoutMs: number, signal: AbortSignal): Promise<SyncOutcome>;
  close(): void;
}

// The projection trails the events by a moment; after a terminal event it is re-read this often.
const RECHECK_AFTER_EVENT_MS = 100;
// Without events (a missed one, a slow projection) the status is still re-read at this pace.
const RECHECK_IDLE_MS = 1000;

/**
 * The report's events (any target) wake the waiter; the decision is always
 * taken on the status projection, the same answer `GET /ingest/{id}/status` gives.
 */
export function watchReport(
  nc: NatsConnection,
  pool: GatewayDeps['pool'],
  tenantId: string,
  reportId: string,
): ReportWatch {
  let wake: (() => void) | null = null;
  let sawEvent = false;
  const sub = nc.subscribe(reportEventsFilter(tenantId, reportId), {
    callback: () => {
      sawEvent = true;
      wake?.();
    },
  });
  return {
    async settle(timeoutMs, signal) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        sawEvent = false;
        const status = await findStatus(pool, tenantId, reportId);
        if (!status) return { kind: 'gone' };
        if (status.status === 'ready' || status.status === 'failed')
          return { kind: 'settled', status };
        const left = deadline - Date.now();
        if (left <= 0 || signal.aborted) return { kind: 'timeout', status };
        if (sawEvent) {
          // An event arrived while reading: look again soon rather than sleep a full idle period.
          await new Promise((r) => setTimeout(r, Math.min(RECHECK_AFTER_EVENT_MS, left)));
          continue;
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wake = null;
            resolve();
          };
          const timer = setTimeout(done, Math.min(RECHECK_IDLE_MS, left));
          signal.addEventListener('abort', done, { once: true });
          wake = () => {
            // Let the projector apply the event first.
            clearTimeout(timer);
            setTimeout(done, RECHECK_AFTER_EVENT_MS);
          };
        });
      }
    },
    close() {
      sub.unsubscribe();
    },
  };
}
