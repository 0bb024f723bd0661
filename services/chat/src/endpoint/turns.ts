import { SpanKind, SpanStatusCode, context } from '@opentelemetry/api';
import {
  AppError,
  CHAT_CANCEL_FILTER,
  CHAT_QUEUE,
  CHAT_TURN_SUBJECT,
  ChatTurnRequest,
  ERRORS,
  isAppError,
  type ChatStreamMessage,
  type RpcReply,
} from '@reports/contracts';
import {
  extractTraceContext,
  tracer,
  type HeaderCarrier,
  type Logger,
  type NatsConnection,
} from '@reports/platform';
import { checkTurn, runTurn, type TurnDeps, type TurnSink } from '../turn/turn.js';

type Unsequenced = ChatStreamMessage extends infer M
  ? M extends ChatStreamMessage
    ? Omit<M, 'seq'>
    : never
  : never;

/**
 * Publishes one turn's stream to the gateway's inbox, numbered from 0, and a heartbeat
 * whenever nothing else was sent for `heartbeatMs`, so the gateway can tell a quiet
 * turn (model thinking) from a chat service that is gone.
 */
export function streamPublisher(
  nc: NatsConnection,
  subject: string,
  heartbeatMs: number,
): TurnSink & { close(): void } {
  let seq = 0;
  let last = performance.now();
  const publish = (message: Unsequenced) => {
    nc.publish(subject, JSON.stringify({ seq: seq++, ...message }));
    last = performance.now();
  };
  const timer = setInterval(() => {
    if (performance.now() - last >= heartbeatMs * 0.9) publish({ type: 'heartbeat' });
  }, heartbeatMs);
  return {
    start: (data) => publish({ type: 'start', data }),
    chunk: (data) => publish({ type: 'chunk', data }),
    end: (data) => publish({ type: 'end', data }),
    error: (data) => publish({ type: 'error', data }),
    close: () => clearInterval(timer),
  };
}

/** What the turn handler uses of a NATS message. */
interface TurnMsg {
  json<T = unknown>(): T;
  respond(data: string): boolean;
  headers?: HeaderCarrier | undefined;
}

function reply(msg: TurnMsg, body: RpcReply): void {
  msg.respond(JSON.stringify(body));
}

function describeInvalid(error: unknown): string {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
  const first = issues?.[0];
  return first
    ? `invalid chat turn: ${first.path.join('.') || 'body'}: ${first.message}`
    : ERRORS.validation_failed.detail;
}

export interface TurnServer {
  /** Turns in progress (for the shutdown log). */
  active(): number;
  /**
   * Stops taking turns, lets those in progress finish for up to `graceMs`, then
   * cancels the rest (their partial answers are stored) and waits for them.
   */
  stop(graceMs: number): Promise<void>;
}

/**
 * Serves `CHAT_TURN_SUBJECT` in the `chat` queue group and listens for cancels on
 * `CHAT_CANCEL_FILTER` (every replica: the one running the turn aborts it). A turn is
 * checked first; the reply to the gateway's request is the check's verdict (a catalogue
 * error, or accepted), and only an accepted turn streams to its inbox.
 */
export async function serveTurns(
  nc: NatsConnection,
  deps: TurnDeps,
  opts: { heartbeatMs: number; logger: Logger },
): Promise<TurnServer> {
  const running = new Map<string, AbortController>();
  const inflight = new Set<Promise<void>>();
  const log = opts.logger.child({ rpc: CHAT_TURN_SUBJECT });
  const cancelPrefix = CHAT_CANCEL_FILTER.slice(0, -1);

  async function handle(msg: TurnMsg): Promise<void> {
    let turn;
    try {
      turn = ChatTurnRequest.parse(msg.json());
    } catch (error) {
      reply(msg, {
        ok: false,
        error: { code: 'validation_failed', detail: describeInvalid(error) },
      });
      return;
    }
    const parent = extractTraceContext(msg.headers);
    await context.with(parent, () =>
      tracer().startActiveSpan(
        'chat turn',
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'nats',
            'messaging.destination.name': CHAT_TURN_SUBJECT,
            'tenant.id': turn.caller.tenant_id,
            'report.id': turn.request.report_id,
          },
        },
        async (span) => {
          try {
            let checked;
            try {
              checked = await checkTurn(deps, turn.caller, turn.request);
            } catch (error) {
              if (!isAppError(error)) log.error({ err: error }, 'chat turn check failed');
              const e = isAppError(error) ? error : new AppError('internal');
              reply(msg, { ok: false, error: { code: e.code, detail: e.detail } });
              span.setAttribute('chat.refused', e.code);
              return;
            }
            span.setAttribute('chat.model', checked.model.id);
            const controller = new AbortController();
            running.set(turn.turn_id, controller);
            const sink = streamPublisher(nc, turn.stream_subject, opts.heartbeatMs);
            try {
              reply(msg, { ok: true, result: { turn_id: turn.turn_id } });
              await runTurn(deps, checked, sink, controller.signal);
              if (controller.signal.aborted) span.setAttribute('chat.cancelled', true);
            } finally {
              sink.close();
              running.delete(turn.turn_id);
            }
          } catch (error) {
            span.recordException(error as Error);
            span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
            throw error;
          } finally {
            span.end();
          }
        },
      ),
    );
  }

  const cancels = nc.subscribe(CHAT_CANCEL_FILTER, {
    callback: (error, msg) => {
      if (error) return;
      const turnId = msg.subject.slice(cancelPrefix.length);
      const controller = running.get(turnId);
      if (controller && !controller.signal.aborted) {
        log.info({ turn_id: turnId }, 'chat turn cancelled: the client went away');
        controller.abort();
      }
    },
  });
  const turns = nc.subscribe(CHAT_TURN_SUBJECT, {
    queue: CHAT_QUEUE,
    callback: (error, msg) => {
      if (error) {
        log.error({ err: error }, 'subscription error');
        return;
      }
      if (!msg.reply) return;
      const p: Promise<void> = handle(msg)
        .catch((failure: unknown) => log.error({ err: failure }, 'chat turn failed'))
        .finally(() => inflight.delete(p));
      inflight.add(p);
    },
  });
  // A turn sent right after start-up must find a responder.
  await nc.flush();

  return {
    active: () => running.size,
    async stop(graceMs) {
      await turns.drain();
      const all = Promise.all([...inflight]);
      const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([all, grace]);
      for (const controller of running.values()) controller.abort();
      await Promise.all([...inflight]);
      await cancels.drain();
    },
  };
}
