import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { consumerMessages } from '../telemetry/metrics.js';
import { extractTraceContext, tracer } from '../telemetry/tracing.js';
import { logContextFromSubject, withLogContext, type LogContext } from '../telemetry/logContext.js';

/** What a handler says happened; the loop turns it into ack, delayed nak or term. */
export type HandlerOutcome =
  | { outcome: 'done' }
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'retry'; reason: string; delayMs?: number }
  | { outcome: 'failed'; reason: string };

export interface DeliveryContext {
  /** 1 on the first delivery. */
  deliveryCount: number;
  /** True when this is the last delivery a retry would get. */
  lastAttempt: boolean;
  /** Aborted when the attempt runs out of time. */
  signal: AbortSignal;
  seq: number;
}

export interface ConsumerLoopOptions<T> {
  js: JetStreamClient;
  stream: string;
  durable: string;
  /** Parses a message; a throw marks it poison: logged and terminated. */
  decode(msg: JsMsg): T;
  handle(value: T, ctx: DeliveryContext): Promise<HandlerOutcome>;
  /**
   * Called when the handler failed for good, or asked for a retry on its last
   * delivery, before the message is terminated. If it throws, the message is
   * nak'd so the give-up is tried again rather than lost.
   */
  onGiveUp?(value: T, reason: string, ctx: DeliveryContext): Promise<void>;
  concurrency: number;
  /** Deliveries before giving up; the durable's server-side max_deliver must be higher. */
  maxDeliver: number;
  ackWaitMs: number;
  timeoutMs: number;
  logger: Logger;
  backoffMs?(deliveryCount: number): number;
  /**
   * On stop, how long handlers in progress get to finish before their messages are
   * nak'd (for another worker to take at once) and their signal aborted. Default 10 s.
   */
  shutdownGraceMs?: number;
  /**
   * Tenant and report of a message for the log lines and spans of its handling.
   * Default: read from a REPORTS subject (`reports.<tenant>.<report>.<type>`).
   */
  logContext?(msg: JsMsg): LogContext;
}

export interface ConsumerHandle {
  /**
   * Stops taking messages: the ones fetched but not started are nak'd at once,
   * the ones in progress get `graceMs` (default: the loop's shutdownGraceMs) to
   * settle, then are nak'd. Resolves when every message in hand is settled.
   */
  stop(graceMs?: number): Promise<void>;
  /** Settles when the loop ends. */
  done: Promise<void>;
}

/** Stream and durable of every consumer loop running in this process, for the metrics sampler. */
export const runningConsumers = new Map<string, { stream: string; consumer: string }>();

export function exponentialBackoff(deliveryCount: number): number {
  return Math.min(1000 * 2 ** (deliveryCount - 1), 30_000);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// term() is sent without a reason: NATS 2.9 does not understand `+TERM <reason>`
// and would ignore the ack, redelivering the message. The reason is logged instead.

/**
 * Runs a durable pull consumer with bounded parallelism. Every message ends in
 * exactly one of ack (done, skipped), nak with delay (retry), or term (failed,
 * retries exhausted, poison). Long handlers keep their message with `working()`.
 */
export async function startConsumer<T>(opts: ConsumerLoopOptions<T>): Promise<ConsumerHandle> {
  const consumer = await opts.js.consumers.get(opts.stream, opts.durable);
  const messages = await consumer.consume({ max_messages: opts.concurrency });
  runningConsumers.set(`${opts.stream}/${opts.durable}`, {
    stream: opts.stream,
    consumer: opts.durable,
  });
  const inflight = new Set<Promise<void>>();
  /** Messages whose handler is running, with the means to give them back. */
  const holding = new Set<{
    msg: JsMsg;
    controller: AbortController;
    settled: boolean;
    heartbeat?: NodeJS.Timeout;
  }>();
  const log = opts.logger.child({ consumer: opts.durable });
  const backoff = opts.backoffMs ?? exponentialBackoff;
  const contextOf = opts.logContext ?? ((msg: JsMsg) => logContextFromSubject(msg.subject));
  const count = (settlement: 'ack' | 'nak' | 'term') =>
    consumerMessages.inc({ consumer: opts.durable, settlement });
  let stopping = false;
  let closed: Promise<void | Error> = Promise.resolve();
  /** Wakes the loop waiting for a free slot: a handler finished, or stop was asked. */
  let wake: (() => void) | null = null;
  const wakeLoop = () => {
    wake?.();
    wake = null;
  };

  async function settle(msg: JsMsg): Promise<void> {
    let value: T;
    try {
      value = opts.decode(msg);
    } catch (error) {
      log.error(
        { seq: msg.seq, subject: msg.subject, err: errorText(error) },
        'poison message terminated',
      );
      msg.term();
      count('term');
      return;
    }
    const deliveryCount = msg.info.deliveryCount;
    const controller = new AbortController();
    const held: {
      msg: JsMsg;
      controller: AbortController;
      settled: boolean;
      heartbeat?: NodeJS.Timeout;
    } = {
      msg,
      controller,
      settled: false,
    };
    holding.add(held);
    // The shutdown path may have given the message back already: settle once.
    const once = (settlement: 'ack' | 'nak' | 'term', fn: () => void): boolean => {
      if (held.settled) return false;
      held.settled = true;
      fn();
      count(settlement);
      return true;
    };
    const timer = setTimeout(
      () => controller.abort(new Error(`attempt exceeded ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    const heartbeat = setInterval(
      () => msg.working(),
      Math.max(500, Math.floor(opts.ackWaitMs / 3)),
    );
    held.heartbeat = heartbeat;
    const ctx: DeliveryContext = {
      deliveryCount,
      lastAttempt: deliveryCount >= opts.maxDeliver,
      signal: controller.signal,
      seq: msg.seq,
    };
    const parent = extractTraceContext(msg.headers);
    const span = tracer().startSpan(
      `process ${opts.durable}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'process',
          'messaging.destination.name': msg.subject,
          'messaging.consumer.group.name': opts.durable,
          'messaging.nats.stream_sequence': msg.seq,
          'messaging.nats.delivery_count': deliveryCount,
        },
      },
      parent,
    );
    const inSpan = <R>(fn: () => R): R =>
      withLogContext(contextOf(msg), () => context.with(trace.setSpan(parent, span), fn));
    try {
      let result: HandlerOutcome;
      try {
        result = await inSpan(() => opts.handle(value, ctx));
      } catch (error) {
        result = { outcome: 'retry', reason: errorText(error) };
      } finally {
        clearTimeout(timer);
        clearInterval(heartbeat);
      }
      span.setAttribute('outcome', result.outcome);
      if (result.outcome !== 'done' && result.outcome !== 'skipped') {
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.reason });
      }
      await inSpan(async () => {
        if (result.outcome === 'failed' || (result.outcome === 'retry' && ctx.lastAttempt)) {
          const reason = result.reason;
          if (held.settled) return;
          try {
            await opts.onGiveUp?.(value, reason, ctx);
            if (once('term', () => msg.term()))
              log.warn({ seq: msg.seq, deliveryCount, reason }, 'message terminated');
          } catch (error) {
            log.error({ seq: msg.seq, err: errorText(error) }, 'give-up failed; will retry');
            once('nak', () => msg.nak(backoff(deliveryCount)));
          }
          return;
        }
        if (result.outcome === 'retry') {
          const delay = result.delayMs ?? backoff(deliveryCount);
          if (once('nak', () => msg.nak(delay)))
            log.warn({ seq: msg.seq, deliveryCount, delay, reason: result.reason }, 'retry later');
          return;
        }
        if (!stopping) {
          once('ack', () => msg.ack());
          return;
        }
        // Stopping: wait for the server to confirm, so the ack is in before NATS is drained.
        if (held.settled) return;
        held.settled = true;
        count('ack');
        await msg.ackAck().catch(() => false);
      });
    } finally {
      holding.delete(held);
      span.end();
    }
  }

  const done = (async () => {
    for await (const msg of messages) {
      if (stopping) {
        // Fetched but not started: give it back now rather than run it while stopping.
        msg.nak();
        count('nak');
        continue;
      }
      const p: Promise<void> = settle(msg)
        .catch((error: unknown) => log.error({ err: errorText(error) }, 'settle failed'))
        .finally(() => {
          inflight.delete(p);
          wakeLoop();
        });
      inflight.add(p);
      // At capacity, wait for a slot, or for stop (which must not wait behind a long handler).
      if (inflight.size >= opts.concurrency && !stopping)
        await new Promise<void>((resolve) => (wake = resolve));
    }
    await Promise.all(inflight);
  })();

  return {
    done,
    async stop(graceMs = opts.shutdownGraceMs ?? 10_000) {
      if (!stopping) {
        stopping = true;
        wakeLoop();
        runningConsumers.delete(`${opts.stream}/${opts.durable}`);
        // Ends the pull; messages already fetched still come through the loop (and are nak'd).
        closed = messages.close();
      }
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace over'>((resolve) => {
        timer = setTimeout(() => resolve('grace over'), graceMs);
      });
      const first = await Promise.race([
        done.then(() => closed).then(() => 'done' as const),
        graceOver,
      ]);
      clearTimeout(timer);
      if (first === 'grace over') {
        for (const held of holding) {
          if (held.settled) continue;
          held.settled = true;
          clearInterval(held.heartbeat);
          held.controller.abort(new Error('the service is shutting down'));
          held.msg.nak();
          count('nak');
          log.warn({ seq: held.msg.seq }, 'shutting down: message given back unfinished');
        }
      }
    },
  };
}
