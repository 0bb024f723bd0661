import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { Logger } from 'pino';

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
}

export interface ConsumerHandle {
  /** Stops taking messages and waits for the ones in hand to settle. */
  stop(): Promise<void>;
  /** Settles when the loop ends. */
  done: Promise<void>;
}

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
  const inflight = new Set<Promise<void>>();
  const log = opts.logger.child({ consumer: opts.durable });
  const backoff = opts.backoffMs ?? exponentialBackoff;

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
      return;
    }
    const deliveryCount = msg.info.deliveryCount;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`attempt exceeded ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    const heartbeat = setInterval(
      () => msg.working(),
      Math.max(500, Math.floor(opts.ackWaitMs / 3)),
    );
    const ctx: DeliveryContext = {
      deliveryCount,
      lastAttempt: deliveryCount >= opts.maxDeliver,
      signal: controller.signal,
      seq: msg.seq,
    };
    let result: HandlerOutcome;
    try {
      result = await opts.handle(value, ctx);
    } catch (error) {
      result = { outcome: 'retry', reason: errorText(error) };
    } finally {
      clearTimeout(timer);
      clearInterval(heartbeat);
    }
    if (result.outcome === 'failed' || (result.outcome === 'retry' && ctx.lastAttempt)) {
      const reason = result.reason;
      try {
        await opts.onGiveUp?.(value, reason, ctx);
        msg.term();
        log.warn({ seq: msg.seq, deliveryCount, reason }, 'message terminated');
      } catch (error) {
        log.error({ seq: msg.seq, err: errorText(error) }, 'give-up failed; will retry');
        msg.nak(backoff(deliveryCount));
      }
      return;
    }
    if (result.outcome === 'retry') {
      const delay = result.delayMs ?? backoff(deliveryCount);
      log.warn({ seq: msg.seq, deliveryCount, delay, reason: result.reason }, 'retry later');
      msg.nak(delay);
      return;
    }
    msg.ack();
  }

  const done = (async () => {
    for await (const msg of messages) {
      const p: Promise<void> = settle(msg)
        .catch((error: unknown) => log.error({ err: errorText(error) }, 'settle failed'))
        .finally(() => inflight.delete(p));
      inflight.add(p);
      if (inflight.size >= opts.concurrency) await Promise.race(inflight);
    }
    await Promise.all(inflight);
  })();

  return {
    done,
    async stop() {
      await messages.close();
      await done;
    },
  };
}
