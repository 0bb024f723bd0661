import { reportEventsFilter, type IngestStatus } from '@reports/contracts';
import type { NatsConnection } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { findStatus } from '../reports/store.js';

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
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        sawEvent = false;
        const status = await findStatus(pool, tenantId, reportId);
        if (!status) return { kind: 'gone' };
        if (status.status === 'ready' || status.status === 'failed')
          return { kind: 'settled', status };
        const left = deadline - performance.now();
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
