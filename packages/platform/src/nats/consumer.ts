import type { Consumer, ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
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

/** A message whose handler is running, with the means to give it back. */
interface Held {
  msg: JsMsg;
  controller: AbortController;
  settled: boolean;
  heartbeat?: NodeJS.Timeout;
}

/** How long one pull waits for messages before asking again. */
const FETCH_EXPIRES_MS = 5_000;
/** Pause before pulling again after a pull failed (NATS away, consumer being recreated). */
const FETCH_ERROR_PAUSE_MS = 1_000;

/** The state one consumer loop shares between its steps. */
interface LoopState<T> {
  opts: ConsumerLoopOptions<T>;
  log: Logger;
  backoff: (deliveryCount: number) => number;
  contextOf: (msg: JsMsg) => LogContext;
  inflight: Set<Promise<void>>;
  holding: Set<Held>;
  stopping: boolean;
  /** The pull in progress, closed on stop. */
  batch: ConsumerMessages | null;
  /** Wakes the loop waiting for a free slot: a handler finished, or stop was asked. */
  wake: (() => void) | null;
}

function count(state: LoopState<unknown>, settlement: 'ack' | 'nak' | 'term'): void {
  consumerMessages.inc({ consumer: state.opts.durable, settlement });
}

/** Settles a held message once: the shutdown path may have given it back already. */
function settleOnce(
  state: LoopState<unknown>,
  held: Held,
  settlement: 'ack' | 'nak' | 'term',
  fn: () => void,
): boolean {
  if (held.settled) return false;
  held.settled = true;
  fn();
  count(state, settlement);
  return true;
}

/** Decodes a message; a poison one is logged and terminated (returns undefined). */
function decodeOrTerminate<T>(state: LoopState<T>, msg: JsMsg): { value: T } | undefined {
  try {
    return { value: state.opts.decode(msg) };
  } catch (error) {
    state.log.error(
      { seq: msg.seq, subject: msg.subject, err: errorText(error) },
      'poison message terminated',
    );
    msg.term();
    count(state, 'term');
    return undefined;
  }
}

function startSpan<T>(state: LoopState<T>, msg: JsMsg) {
  const parent = extractTraceContext(msg.headers);
  const span = tracer().startSpan(
    `process ${state.opts.durable}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.destination.name': msg.subject,
        'messaging.consumer.group.name': state.opts.durable,
        'messaging.nats.stream_sequence': msg.seq,
        'messaging.nats.delivery_count': msg.info.deliveryCount,
      },
    },
    parent,
  );
  const inSpan = <R>(fn: () => R): R =>
    withLogContext(state.contextOf(msg), () => context.with(trace.setSpan(parent, span), fn));
  return { span, inSpan };
}

/** Runs the handler with a deadline and an in-progress heartbeat; a throw is a retry. */
async function runHandler<T>(
  state: LoopState<T>,
  held: Held,
  value: T,
  ctx: DeliveryContext,
): Promise<HandlerOutcome> {
  const { opts } = state;
  const timer = setTimeout(
    () => held.controller.abort(new Error(`attempt exceeded ${opts.timeoutMs} ms`)),
    opts.timeoutMs,
  );
  held.heartbeat = setInterval(
    () => held.msg.working(),
    Math.max(500, Math.floor(opts.ackWaitMs / 3)),
  );
  try {
    return await opts.handle(value, ctx);
  } catch (error) {
    return { outcome: 'retry', reason: errorText(error) };
  } finally {
    clearTimeout(timer);
    clearInterval(held.heartbeat);
  }
}

/** Turns the handler's outcome into ack, delayed nak or term (after the give-up hook). */
async function applyOutcome<T>(
  state: LoopState<T>,
  held: Held,
  value: T,
  ctx: DeliveryContext,
  result: HandlerOutcome,
): Promise<void> {
  const { opts, log } = state;
  const { msg } = held;
  if (result.outcome === 'failed' || (result.outcome === 'retry' && ctx.lastAttempt)) {
    const reason = result.reason;
    if (held.settled) return;
    try {
      await opts.onGiveUp?.(value, reason, ctx);
      if (settleOnce(state, held, 'term', () => msg.term()))
        log.warn({ seq: msg.seq, deliveryCount: ctx.deliveryCount, reason }, 'message terminated');
    } catch (error) {
      log.error({ seq: msg.seq, err: errorText(error) }, 'give-up failed; will retry');
      settleOnce(state, held, 'nak', () => msg.nak(state.backoff(ctx.deliveryCount)));
    }
    return;
  }
  if (result.outcome === 'retry') {
    const delay = result.delayMs ?? state.backoff(ctx.deliveryCount);
    if (settleOnce(state, held, 'nak', () => msg.nak(delay)))
      log.warn(
        { seq: msg.seq, deliveryCount: ctx.deliveryCount, delay, reason: result.reason },
        'retry later',
      );
    return;
  }
  if (!state.stopping) {
    settleOnce(state, held, 'ack', () => msg.ack());
    return;
  }
  // Stopping: wait for the server to confirm, so the ack is in before NATS is drained.
  if (held.settled) return;
  held.settled = true;
  count(state, 'ack');
  await msg.ackAck().catch(() => false);
}

/** Handles one message from decode to settlement. */
async function processMessage<T>(state: LoopState<T>, msg: JsMsg): Promise<void> {
  const decoded = decodeOrTerminate(state, msg);
  if (!decoded) return;
  const held: Held = { msg, controller: new AbortController(), settled: false };
  state.holding.add(held);
  const deliveryCount = msg.info.deliveryCount;
  const ctx: DeliveryContext = {
    deliveryCount,
    lastAttempt: deliveryCount >= state.opts.maxDeliver,
    signal: held.controller.signal,
    seq: msg.seq,
  };
  const { span, inSpan } = startSpan(state, msg);
  try {
    const result = await inSpan(() => runHandler(state, held, decoded.value, ctx));
    span.setAttribute('outcome', result.outcome);
    if (result.outcome !== 'done' && result.outcome !== 'skipped') {
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.reason });
    }
    await inSpan(() => applyOutcome(state, held, decoded.value, ctx, result));
  } finally {
    state.holding.delete(held);
    span.end();
  }
}

/** Starts a message's handling at once, in a slot the pull reserved for it. */
function dispatch<T>(state: LoopState<T>, msg: JsMsg): void {
  const p: Promise<void> = processMessage(state, msg)
    .catch((error: unknown) => state.log.error({ err: errorText(error) }, 'settle failed'))
    .finally(() => {
      state.inflight.delete(p);
      state.wake?.();
      state.wake = null;
    });
  state.inflight.add(p);
}

/**
 * Pulls only as many messages as there are free handler slots, and starts each as it
 * arrives: no message ever waits in a buffer without its in-progress heartbeat (a waiting
 * one would pass its ack wait and be delivered again while still in hand).
 */
async function pullLoop<T>(state: LoopState<T>, consumer: Consumer): Promise<void> {
  const { opts } = state;
  while (!state.stopping) {
    if (state.inflight.size >= opts.concurrency) {
      await new Promise<void>((resolve) => (state.wake = resolve));
      continue;
    }
    try {
      state.batch = await consumer.fetch({
        max_messages: opts.concurrency - state.inflight.size,
        expires: FETCH_EXPIRES_MS,
      });
      // Stop was asked while the pull was being set up.
      if (state.stopping) state.batch.stop();
      for await (const msg of state.batch) {
        if (state.stopping) {
          // Fetched but not started: give it back now rather than run it while stopping.
          msg.nak();
          count(state, 'nak');
          continue;
        }
        dispatch(state, msg);
      }
    } catch (error) {
      if (state.stopping) break;
      state.log.warn({ err: errorText(error) }, 'pull failed; pulling again shortly');
      await new Promise((r) => setTimeout(r, FETCH_ERROR_PAUSE_MS));
    } finally {
      state.batch = null;
    }
  }
  await Promise.all(state.inflight);
}

/** Gives back (nak) every message still in hand after the grace period, aborting its handler. */
function giveBackUnfinished(state: LoopState<unknown>): void {
  for (const held of state.holding) {
    if (held.settled) continue;
    held.settled = true;
    clearInterval(held.heartbeat);
    held.controller.abort(new Error('the service is shutting down'));
    held.msg.nak();
    count(state, 'nak');
    state.log.warn({ seq: held.msg.seq }, 'shutting down: message given back unfinished');
  }
}

/**
 * Runs a durable pull consumer with bounded parallelism. Every message ends in
 * exactly one of ack (done, skipped), nak with delay (retry), or term (failed,
 * retries exhausted, poison). Long handlers keep their message with `working()`.
 */
export async function startConsumer<T>(opts: ConsumerLoopOptions<T>): Promise<ConsumerHandle> {
  const consumer = await opts.js.consumers.get(opts.stream, opts.durable);
  const key = `${opts.stream}/${opts.durable}`;
  runningConsumers.set(key, { stream: opts.stream, consumer: opts.durable });
  const state: LoopState<T> = {
    opts,
    log: opts.logger.child({ consumer: opts.durable }),
    backoff: opts.backoffMs ?? exponentialBackoff,
    contextOf: opts.logContext ?? ((msg: JsMsg) => logContextFromSubject(msg.subject)),
    inflight: new Set(),
    holding: new Set(),
    stopping: false,
    batch: null,
    wake: null,
  };
  const done = pullLoop(state, consumer);

  return {
    done,
    async stop(graceMs = opts.shutdownGraceMs ?? 10_000) {
      if (!state.stopping) {
        state.stopping = true;
        state.wake?.();
        state.wake = null;
        runningConsumers.delete(key);
        // Ends the pull at once (closing it would wait for the pull to expire); a message the
        // server sent meanwhile is delivered again after its ack wait.
        state.batch?.stop();
      }
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace over'>((resolve) => {
        timer = setTimeout(() => resolve('grace over'), graceMs);
      });
      const first = await Promise.race([done.then(() => 'done' as const), graceOver]);
      clearTimeout(timer);
      if (first === 'grace over') giveBackUnfinished(state as LoopState<unknown>);
    },
  };
}
