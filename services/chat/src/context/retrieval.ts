import {
  AppError,
  RETRIEVE_SUBJECT,
  decodeRetrieveReply,
  type RetrieveRequest,
  type RetrieveResponse,
} from '@reports/contracts';
import { inClientSpan, traceHeaders, type NatsConnection } from '@reports/platform';

/** Folder retrieval, as the turn needs it. */
export interface Retrieval {
  retrieve(request: RetrieveRequest): Promise<RetrieveResponse>;
}

/** As long as the gateway waits: HyDE (8 s) + embedding retries + rerank (8 s). */
export const RETRIEVE_TIMEOUT_MS = 30_000;

/**
 * The retrieval service over NATS request/reply. Every failure (no responder, no answer
 * in time, an error reply) is thrown; the turn then falls back to the full text.
 */
export function natsRetrieval(nc: NatsConnection, timeoutMs = RETRIEVE_TIMEOUT_MS): Retrieval {
  return {
    async retrieve(request) {
      let reply;
      try {
        reply = await inClientSpan(RETRIEVE_SUBJECT, () =>
          nc.request(RETRIEVE_SUBJECT, JSON.stringify(request), {
            timeout: timeoutMs,
            headers: traceHeaders(),
          }),
        );
      } catch (error) {
        throw new AppError('service_unavailable', 'the retrieval service did not answer', {
          cause: error,
        });
      }
      let body: unknown = null;
      try {
        body = reply.json();
      } catch {
        body = null;
      }
      return decodeRetrieveReply(reply.headers?.get('Nats-Service-Error-Code') || undefined, body);
    },
  };
}
