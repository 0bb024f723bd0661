import {
  AppError,
  RETRIEVE_SUBJECT,
  decodeRetrieveReply,
  type RetrieveRequest,
  type RetrieveResponse,
} from '@reports/contracts';
import type { NatsConnection } from '@reports/platform';

/** Longer than the worst legitimate case: HyDE (8 s) + embedding retries + rerank (8 s). */
export const RETRIEVE_TIMEOUT_MS = 30_000;

/**
 * Asks the retrieval service (NATS request/reply). No service listening, or no answer in time,
 * is 503: the dependency is down, not the caller's fault.
 */
export async function requestRetrieval(
  nc: NatsConnection,
  request: RetrieveRequest,
  timeoutMs = RETRIEVE_TIMEOUT_MS,
): Promise<RetrieveResponse> {
  let reply;
  try {
    reply = await nc.request(RETRIEVE_SUBJECT, JSON.stringify(request), { timeout: timeoutMs });
  } catch (error) {
    // By name: the error classes live in @nats-io/nats-core, which the gateway does not import.
    const name = error instanceof Error ? error.name : '';
    if (name === 'NoRespondersError' || name === 'RequestError') {
      throw new AppError('service_unavailable', 'the retrieval service is unavailable; try again', {
        cause: error,
      });
    }
    if (name === 'TimeoutError') {
      throw new AppError('service_unavailable', 'the retrieval service did not answer in time', {
        cause: error,
      });
    }
    throw error;
  }
  let body: unknown;
  try {
    body = reply.json();
  } catch {
    body = null;
  }
  return decodeRetrieveReply(reply.headers?.get('Nats-Service-Error-Code') || undefined, body);
}
