import type { Clock } from '../time/clock.js';
import { context } from '@opentelemetry/api';
import { z } from 'zod';
import {
  REPORTS_STREAM,
  STAGE_INPUT,
  parseEvent,
  stageMessageId,
  type Stage,
} from '@reports/contracts';
import type { Logger } from 'pino';
import { ensureDurableConsumer, ensureStream, type Nats } from '../nats/connection.js';
import { startConsumer, type ConsumerHandle } from '../nats/consumer.js';
import { causedBy, newEvent, publishEvent } from '../nats/events.js';
import { stageFailures } from '../telemetry/metrics.js';
import { extractTraceContext } from '../telemetry/tracing.js';
import { logContextFromSubject, withLogContext } from '../telemetry/logContext.js';

/**
 * Stream that keeps JetStream's max-deliveries advisories of the REPORTS
 * consumers. Advisories are plain NATS messages: kept in a stream, one that is
 * published while no watchdog runs (the worker crashed again) still gets handled.
 */
export const ADVISORIES_STREAM = 'REPORTS_ADVISORIES';

/** Subject of the advisory JetStream sends when a message ran out of deliveries. */
export function maxDeliveriesSubject(stream: string, consumer: string): string {
  return `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${consumer}`;
}

/** `io.nats.jetstream.advisory.v1.max_deliver`, as much of it as we read. */
export const MaxDeliveriesAdvisory = z.object({
  type: z.string(),
  stream: z.string(),
  consumer: z.string(),
  stream_seq: z.number().int().positive(),
  deliveries: z.number().int().positive(),
});
export type MaxDeliveriesAdvisory = z.infer<typeof MaxDeliveriesAdvisory>;

/** Creates or updates the advisories stream (idempotent). */
export async function provisionAdvisoriesStream(nats: Nats, replicas: number): Promise<void> {
  await ensureStream(nats.jsm, {
    name: ADVISORIES_STREAM,
    subjects: [maxDeliveriesSubject(REPORTS_STREAM, '*')],
    replicas,
    duplicateWindowMs: 2 * 60_000,
    maxAgeMs: 7 * 24 * 3600_000,
  });
}

/** The text a target's `ingestion_error` gets when its worker never finished. */
export function exhaustedDeliveriesReason(deliveries: number): string {
  return `gave up after ${deliveries} deliveries: the worker never finished an attempt (crashed, killed or out of memory)`;
}

/**
 * Watches one stage's max-deliveries advisories and fails the target of each:
 * the message is read back from the stream and StageFailed is published with the
 * same message id the stage's own give-up uses, so a target is failed once
 * whichever comes first. This covers what the consumer loop cannot: a worker
 * that dies on every attempt never reaches its own give-up.
 */
export async function startStageWatchdog(opts: {
  nats: Nats;
  stage: Stage;
  logger: Logger;
  replicas?: number;
  /** Stamps the StageFailed events. Default the system clock. */
  clock?: Clock;
}): Promise<ConsumerHandle> {
  const { nats, stage } = opts;
  const input = STAGE_INPUT[stage];
  await provisionAdvisoriesStream(nats, opts.replicas ?? 1);
  const durable = `watchdog-${input.durable}`;
  await ensureDurableConsumer(nats.jsm, {
    stream: ADVISORIES_STREAM,
    durable,
    filterSubject: maxDeliveriesSubject(REPORTS_STREAM, input.durable),
    ackWaitMs: 30_000,
    maxDeliver: 20,
    maxAckPending: 16,
  });
  const log = opts.logger.child({ stage, component: 'watchdog' });
  return startConsumer<MaxDeliveriesAdvisory>({
    js: nats.js,
    stream: ADVISORIES_STREAM,
    durable,
    concurrency: 1,
    maxDeliver: 18,
    ackWaitMs: 30_000,
    timeoutMs: 20_000,
    logger: log,
    logContext: () => ({}),
    decode: (msg) => MaxDeliveriesAdvisory.parse(msg.json()),
    async handle(advisory) {
      let stored;
      try {
        stored = await nats.jsm.streams.getMessage(REPORTS_STREAM, { seq: advisory.stream_seq });
      } catch (error) {
        if (/no message found|not found/i.test((error as Error).message)) {
          return { outcome: 'skipped', reason: `message ${advisory.stream_seq} is gone` };
        }
        throw error;
      }
      if (!stored) return { outcome: 'skipped', reason: `message ${advisory.stream_seq} is gone` };
      const event = parseEvent(stored.json());
      // The failure joins the trace of the upload that led to it.
      const origin = extractTraceContext(stored.header);
      return withLogContext(logContextFromSubject(stored.subject), () =>
        context.with(origin, async () => {
          const reason = exhaustedDeliveriesReason(advisory.deliveries);
          const published = await publishEvent(
            nats.js,
            newEvent(
              'StageFailed',
              causedBy(event),
              { stage, error: reason, attempts: advisory.deliveries },
              opts.clock,
            ),
            stageMessageId(event.target_id, stage, event.generation, 'failed'),
          );
          if (!published.duplicate) stageFailures.inc({ stage, source: 'max_deliveries' });
          log.warn(
            {
              seq: advisory.stream_seq,
              deliveries: advisory.deliveries,
              duplicate: published.duplicate,
            },
            'stage out of deliveries: target failed',
          );
          return { outcome: 'done' as const };
        }),
      );
    },
  });
}
