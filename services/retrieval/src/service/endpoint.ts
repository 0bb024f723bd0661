import { RETRIEVAL_QUEUE, RetrievalOps } from '@reports/contracts';
import { serveRpc, type NatsConnection, type RpcServer } from '@reports/platform';
import { retrieve, type RetrievalDeps } from '../retrieve/retrieve.js';

export { RETRIEVAL_QUEUE };

/**
 * Serves `RETRIEVE_SUBJECT` with `serveRpc`, as every request/reply service does (queue group
 * `retrieval`, the caller's trace continued, catalogue errors in the `RpcReply` envelope,
 * anything else logged and answered `internal`). Each request is handled as it arrives,
 * without waiting for the one before. See docs/adr/060-one-request-reply-mechanism.md.
 */
export async function startRetrievalEndpoint(
  nc: NatsConnection,
  deps: RetrievalDeps,
): Promise<RpcServer> {
  const server = serveRpc(
    nc,
    RetrievalOps.retrieve,
    {
      queue: RETRIEVAL_QUEUE,
      logger: deps.logger,
      invalidDetail: (error) => {
        if (!error) return 'the request is not JSON';
        const first = error.issues[0];
        return `invalid retrieve request: ${first?.path.join('.') || 'body'}: ${first?.message ?? 'invalid'}`;
      },
    },
    (request) => retrieve(deps, request),
  );
  // A request sent right after start-up must find a responder.
  await nc.flush();
  return server;
}
