import {
  RequestError,
  TimeoutError,
  headers as natsHeaders,
  type Msg,
  type NatsConnection,
} from '@nats-io/nats-core';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { awaitNatsConnected } from './liveness.js';
import { extractTraceContext, injectTraceContext, tracer } from '../telemetry/tracing.js';
import { z } from 'zod';
import {
  AppError,
  ERRORS,
  RpcReply,
  isAppError,
  type ErrorCode,
  type RpcOperation,
} from '@reports/contracts';

/** Time a caller waits for an answer before telling its client the service is unavailable. */
export const RPC_TIMEOUT_MS = 15_000;

export interface RpcServer {
  /** Stops taking requests and waits for those in hand to be answered. */
  stop(): Promise<void>;
}

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

function reply(msg: Msg, body: RpcReply): void {
  msg.respond(JSON.stringify(body));
}

/**
 * Serves one request/reply operation on its subject in a queue group, so the
 * replicas of a service share the requests. The request is checked against the
 * operation's schema (422 to the caller when it does not match), the handler's
 * `AppError`s travel back as codes, and anything else is logged and answered
 * `internal` without detail. `invalidDetail` words the 422 detail from the schema's complaint
 * (default: the catalogue's generic detail).
 */
export function serveRpc<Req extends z.ZodType, Res extends z.ZodType>(
  nc: NatsConnection,
  op: RpcOperation<Req, Res>,
  opts: { queue: string; logger: Logger; invalidDetail?: (error: z.ZodError | null) => string },
  handler: (request: z.output<Req>) => Promise<z.input<Res>>,
): RpcServer {
  const inflight = new Set<Promise<void>>();
  const log = opts.logger.child({ rpc: op.subject });

  async function answer(msg: Msg): Promise<void> {
    let request: z.output<Req>;
    try {
      request = op.request.parse(msg.json());
    } catch (error) {
      const detail = opts.invalidDetail
        ? opts.invalidDetail(error instanceof z.ZodError ? error : null)
        : ERRORS.validation_failed.detail;
      reply(msg, { ok: false, error: { code: 'validation_failed', detail } });
      return;
    }
    try {
      const result: unknown = op.response.parse(await handler(request));
      reply(msg, { ok: true, result });
    } catch (error) {
      if (isAppError(error)) {
        reply(msg, { ok: false, error: { code: error.code, detail: error.detail } });
        return;
      }
      log.error({ err: error }, 'request failed');
      reply(msg, { ok: false, error: { code: 'internal', detail: ERRORS.internal.detail } });
    }
  }

  const sub = nc.subscribe(op.subject, {
    queue: opts.queue,
    callback: (error, msg) => {
      if (error) {
        log.error({ err: error }, 'subscription error');
        return;
      }
      // A request without a reply subject cannot be answered: nothing to do.
      if (!msg.reply) return;
      // The caller's trace continues here (W3C traceparent in the request headers).
      const parent = extractTraceContext(msg.headers);
      const span = tracer().startSpan(
        `rpc ${op.subject}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'rpc.system': 'nats', 'messaging.destination.name': op.subject },
        },
        parent,
      );
      const p: Promise<void> = context
        .with(trace.setSpan(parent, span), () => answer(msg))
        .finally(() => {
          span.end();
          inflight.delete(p);
        });
      inflight.add(p);
    },
  });

  return {
    async stop() {
      await sub.drain();
      await Promise.all([...inflight]);
    },
  };
}

/**
 * Calls an operation and returns its checked result. A catalogue error from the
 * service is rethrown as the same `AppError`; no responder, or no answer within
 * the timeout, is 503 `service_unavailable`.
 */
export async function requestRpc<Req extends z.ZodType, Res extends z.ZodType>(
  nc: NatsConnection,
  op: RpcOperation<Req, Res>,
  request: z.input<Req>,
  opts: { timeoutMs?: number; service: string } = { service: 'a service' },
): Promise<z.output<Res>> {
  // A request sent while the connection is down would wait in the reconnect buffer for the whole
  // timeout: answer 503 after a short grace instead.
  await awaitNatsConnected(nc, `the ${opts.service} service`);
  let msg: Msg;
  const span = tracer().startSpan(`rpc ${op.subject}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'rpc.system': 'nats', 'messaging.destination.name': op.subject },
  });
  try {
    const h = natsHeaders();
    injectTraceContext(h, trace.setSpan(context.active(), span));
    msg = await nc.request(op.subject, JSON.stringify(request), {
      timeout: opts.timeoutMs ?? RPC_TIMEOUT_MS,
      headers: h,
    });
    span.end();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    span.end();
    if (error instanceof RequestError && error.isNoResponders())
      throw new AppError('service_unavailable', `the ${opts.service} service is unavailable`, {
        cause: error,
      });
    if (error instanceof TimeoutError || error instanceof RequestError)
      throw new AppError('service_unavailable', `the ${opts.service} service did not answer`, {
        cause: error,
      });
    throw new AppError('service_unavailable', `the ${opts.service} service is unreachable`, {
      cause: error,
    });
  }
  const body = RpcReply.parse(msg.json());
  if (!body.ok) {
    const code = isErrorCode(body.error.code) ? body.error.code : 'internal';
    throw new AppError(code, body.error.detail);
  }
  return op.response.parse(body.result);
}
