import { Svcm, type Service, type ServiceMsg } from '@nats-io/services';
import {
  AppError,
  ERRORS,
  isAppError,
  RETRIEVAL_SERVICE,
  RETRIEVE_SUBJECT,
  RetrieveRequest,
  type ErrorBody,
} from '@reports/contracts';
import { inServerSpan, type NatsConnection } from '@reports/platform';
import { retrieve, type RetrievalDeps } from '../retrieve/retrieve.js';

/** Queue group of the endpoint: each request goes to one replica. */
export const RETRIEVAL_QUEUE = 'retrieval';

/** Turns any failure into the error reply: catalogue code and detail, HTTP status as the service error code. */
export function errorReply(error: unknown): { status: number; body: ErrorBody } {
  if (isAppError(error))
    return { status: error.status, body: { code: error.code, detail: error.detail } };
  return { status: 500, body: { code: 'internal', detail: ERRORS.internal.detail } };
}

function decode(msg: ServiceMsg) {
  let raw: unknown;
  try {
    raw = msg.json();
  } catch {
    throw new AppError('validation_failed', 'the request is not JSON');
  }
  const parsed = RetrieveRequest.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError(
      'validation_failed',
      `invalid retrieve request: ${first?.path.join('.') || 'body'}: ${first?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

/**
 * Serves `RETRIEVE_SUBJECT` with the NATS services API (discoverable through `$SRV.PING`,
 * `$SRV.INFO` and `$SRV.STATS`, errors counted per endpoint). Each request is handled as it
 * arrives, without waiting for the one before. Errors answer with `respondError(status, detail,
 * ErrorBody)`.
 */
export async function startRetrievalEndpoint(
  nc: NatsConnection,
  deps: RetrievalDeps,
): Promise<Service> {
  // @nats-io/services is built against a pre-release of nats-core; the connection is the same object.
  const svcm = new Svcm(nc as unknown as ConstructorParameters<typeof Svcm>[0]);
  const service = await svcm.add({
    name: RETRIEVAL_SERVICE,
    version: '1.0.0',
    description: 'Hybrid retrieval over a report folder',
    queue: RETRIEVAL_QUEUE,
  });
  service.addEndpoint('retrieve', {
    subject: RETRIEVE_SUBJECT,
    handler: (error, msg) => {
      if (error) {
        deps.logger.error({ err: error.message }, 'retrieve endpoint stopped');
        return;
      }
      // The caller's trace continues here (W3C traceparent in the request headers).
      void inServerSpan(RETRIEVE_SUBJECT, msg.headers, async () => {
        try {
          const response = await retrieve(deps, decode(msg));
          msg.respond(JSON.stringify(response));
        } catch (failure) {
          const reply = errorReply(failure);
          if (reply.status >= 500 && reply.body.code === 'internal') {
            deps.logger.error({ err: failure }, 'retrieve failed');
          }
          msg.respondError(reply.status, reply.body.detail, JSON.stringify(reply.body));
        }
      });
    },
  });
  return service;
}
