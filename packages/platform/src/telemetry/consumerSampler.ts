import type { JetStreamManager } from '@nats-io/jetstream';
import { consumerAckPending, consumerPending, consumerRedelivered } from './metrics.js';

/** One durable consumer as JetStream reports it. */
export interface ConsumerSample {
  stream: string;
  consumer: string;
  /** Not yet delivered (lag). */
  pending: number;
  /** Delivered, not yet acknowledged (in flight). */
  ack_pending: number;
  /** Delivered more than once and not yet acknowledged. */
  redelivered: number;
  /** Consumers' pull requests waiting: a rough count of idle workers. */
  waiting: number;
}

/** Reads a consumer's counters from JetStream. */
export async function sampleConsumer(
  jsm: JetStreamManager,
  stream: string,
  consumer: string,
): Promise<ConsumerSample> {
  const info = await jsm.consumers.info(stream, consumer);
  return {
    stream,
    consumer,
    pending: info.num_pending,
    ack_pending: info.num_ack_pending,
    redelivered: info.num_redelivered,
    waiting: info.num_waiting,
  };
}

/**
 * Samples the given consumers every `intervalMs` into the consumer gauges, so
 * `/metrics` shows lag, in-flight and redelivered work without asking JetStream
 * on every scrape. A failed sample leaves the last values.
 */
export function startConsumerSampler(
  jsm: JetStreamManager,
  consumers: () => Array<{ stream: string; consumer: string }>,
  intervalMs = 5_000,
): { stop(): void; sampleNow(): Promise<void> } {
  const sampleNow = async () => {
    await Promise.all(
      consumers().map(async ({ stream, consumer }) => {
        try {
          const s = await sampleConsumer(jsm, stream, consumer);
          const labels = { stream, consumer };
          consumerPending.set(labels, s.pending);
          consumerAckPending.set(labels, s.ack_pending);
          consumerRedelivered.set(labels, s.redelivered);
        } catch {
          // NATS away for a moment: keep the last sample.
        }
      }),
    );
  };
  void sampleNow();
  const timer = setInterval(() => void sampleNow(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), sampleNow };
}
