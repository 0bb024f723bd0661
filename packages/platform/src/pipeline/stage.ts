import { systemClock, type Clock } from '../time/clock.js';
import { randomUUID } from 'node:crypto';
import {
  REPORTS_STREAM,
  STAGE_INPUT,
  eventTypeFilter,
  parseEvent,
  stageMessageId,
  type EventOf,
  type EventType,
  type PipelineEvent,
  type Stage,
} from '@reports/contracts';
import type { Logger } from 'pino';
import type { Nats } from '../nats/connection.js';
import { ensureDurableConsumer } from '../nats/connection.js';
import {
  startConsumer,
  type ConsumerHandle,
  type DeliveryContext,
  type HandlerOutcome,
} from '../nats/consumer.js';
import { causedBy, newEvent, publishEvent } from '../nats/events.js';
import type { Pool } from '../postgres/pool.js';
import type { Config } from '../config/config.js';
import { trace } from '@opentelemetry/api';
import { recordProviderUsage, stageDuration, stageFailures } from '../telemetry/metrics.js';
import { startStageWatchdog } from './watchdog.js';

/** Provider usage of one attempt, recorded in stage_runs for cost tracking. */
export interface StageUsage {
  provider?: string;
  model?: string;
  cost_cents?: number;
  units?: Record<string, number>;
}

/** The event a successful stage emits: any type but the pipeline's bookkeeping ones. */
export type StageOutput = {
  [K in EventType]: { type: K; data: EventOf<K>['data'] };
}[Exclude<EventType, 'StageStarted' | 'StageFailed' | 'ReportUploaded'>];

export type StageResult =
  | { outcome: 'done'; emit: StageOutput; usage?: StageUsage }
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'retry'; reason: string; delayMs?: number; usage?: StageUsage }
  | { outcome: 'failed'; reason: string; usage?: StageUsage };

export interface StageContext extends DeliveryContext {
  logger: Logger;
}

export interface StageDefinition<K extends EventType> {
  stage: Stage;
  run(event: EventOf<K>, ctx: StageContext): Promise<StageResult>;
}

export interface StageWorkerOptions {
  nats: Nats;
  pool: Pool;
  logger: Logger;
  concurrency: number;
  maxDeliver: number;
  ackWaitMs: number;
  timeoutMs: number;
  /** On shutdown, how long an attempt in progress gets before its message is nak'd. */
  shutdownGraceMs?: number;
  /**
   * Fail targets whose messages ran out of deliveries (JetStream's max-deliveries
   * advisory: the worker died on every attempt). Default true.
   */
  watchdog?: boolean;
  /** Replicas of the advisories stream (as NATS_STREAM_REPLICAS). Default 1. */
  streamReplicas?: number;
  /** Stamps events and stage runs. Default the system clock. */
  clock?: Clock;
}

/** Worker settings from the STAGE_* configuration. */
export function stageWorkerOptions(rt: {
  config: Config;
  logger: Logger;
  pool: Pool;
  nats: Nats;
  clock?: Clock;
}): StageWorkerOptions {
  return {
    clock: rt.clock,
    nats: rt.nats,
    pool: rt.pool,
    logger: rt.logger,
    concurrency: rt.config.STAGE_CONCURRENCY,
    maxDeliver: rt.config.STAGE_MAX_DELIVER,
    ackWaitMs: rt.config.STAGE_ACK_WAIT_MS,
    timeoutMs: rt.config.STAGE_TIMEOUT_MS,
    shutdownGraceMs: rt.config.SHUTDOWN_GRACE_MS,
    streamReplicas: rt.config.NATS_STREAM_REPLICAS,
  };
}

/** Provisions the stage's durable consumer (idempotent). */
export async function provisionStage(
  nats: Nats,
  stage: Stage,
  opts: Pick<StageWorkerOptions, 'ackWaitMs' | 'maxDeliver' | 'concurrency'>,
): Promise<void> {
  const input = STAGE_INPUT[stage];
  await ensureDurableConsumer(nats.jsm, {
    stream: REPORTS_STREAM,
    durable: input.durable,
    filterSubject: eventTypeFilter(input.trigger),
    ackWaitMs: opts.ackWaitMs,
    // Headroom above our own limit, so a failed give-up still gets redelivered.
    maxDeliver: opts.maxDeliver + 2,
    maxAckPending: Math.max(opts.concurrency * 4, 16),
  });
}

async function recordRun(
  pool: Pool,
  event: PipelineEvent,
  stage: Stage,
  attempt: number,
  outcome: HandlerOutcome['outcome'],
  error: string | null,
  startedAt: Date,
  finishedAt: Date,
  usage: StageUsage | undefined,
): Promise<void> {
  await pool.query(
    `INSERT INTO stage_runs (id, tenant_id, report_id, target_kind, target_id, stage, generation, attempt,
       outcome, error, started_at, finished_at, duration_ms, provider, model, cost_cents, units)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)`,
    [
      randomUUID(),
      event.tenant_id,
      event.report_id,
      event.target_kind,
      event.target_id,
      stage,
      event.generation,
      attempt,
      outcome,
      error,
      startedAt,
      finishedAt,
      finishedAt.getTime() - startedAt.getTime(),
      usage?.provider ?? null,
      usage?.model ?? null,
      usage?.cost_cents ?? 0,
      JSON.stringify(usage?.units ?? {}),
    ],
  );
}

/**
 * Runs one stage as a durable JetStream consumer: announces the attempt
 * (StageStarted), runs the stage, records the attempt in stage_runs, publishes
 * the stage's event with the deterministic id `<target_id>:<stage>:<generation>`,
 * and only then acks. On a permanent failure or exhausted retries it publishes
 * StageFailed and terminates the message.
 */
export async function startStageWorker<K extends EventType>(
  definition: StageDefinition<K>,
  opts: StageWorkerOptions,
): Promise<ConsumerHandle> {
  const { stage } = definition;
  const input = STAGE_INPUT[stage];
  await provisionStage(opts.nats, stage, opts);
  const logger = opts.logger.child({ stage });
  const clock = opts.clock ?? systemClock;
  const watchdog =
    opts.watchdog === false
      ? null
      : await startStageWatchdog({
          nats: opts.nats,
          stage,
          logger: opts.logger,
          replicas: opts.streamReplicas,
          clock,
        });

  const worker = await startConsumer<EventOf<K>>({
    js: opts.nats.js,
    stream: REPORTS_STREAM,
    durable: input.durable,
    concurrency: opts.concurrency,
    maxDeliver: opts.maxDeliver,
    ackWaitMs: opts.ackWaitMs,
    timeoutMs: opts.timeoutMs,
    shutdownGraceMs: opts.shutdownGraceMs,
    logger,
    decode(msg) {
      const event = parseEvent(msg.json());
      if (event.type !== input.trigger)
        throw new Error(`expected ${input.trigger}, got ${event.type}`);
      return event as EventOf<K>;
    },
    async handle(event, delivery) {
      const log = logger.child({
        tenant_id: event.tenant_id,
        report_id: event.report_id,
        target_id: event.target_id,
      });
      const startedAt = clock.now();
      const started = performance.now();
      trace.getActiveSpan()?.setAttributes({
        stage,
        'tenant.id': event.tenant_id,
        'report.id': event.report_id,
        'target.id': event.target_id,
        'target.kind': event.target_kind,
      });
      await publishEvent(
        opts.nats.js,
        newEvent(
          'StageStarted',
          causedBy(event),
          { stage, attempt: delivery.deliveryCount },
          clock,
        ),
        stageMessageId(
          event.target_id,
          stage,
          event.generation,
          `started-${delivery.deliveryCount}`,
        ),
      );
      let result: StageResult;
      try {
        result = await definition.run(event, { ...delivery, logger: log });
      } catch (error) {
        result = {
          outcome: 'retry',
          reason: error instanceof Error ? error.message : String(error),
        };
      }
      const reason = result.outcome === 'done' ? null : result.reason;
      const usage = result.outcome === 'skipped' ? undefined : result.usage;
      stageDuration.observe(
        { stage, outcome: result.outcome },
        (performance.now() - started) / 1000,
      );
      if (usage?.provider) {
        recordProviderUsage({
          provider: usage.provider,
          model: usage.model ?? 'unknown',
          units: usage.units,
          cost_cents: usage.cost_cents,
        });
      }
      await recordRun(
        opts.pool,
        event,
        stage,
        delivery.deliveryCount,
        result.outcome,
        reason,
        startedAt,
        clock.now(),
        usage,
      ).catch((error: unknown) =>
        log.warn({ err: (error as Error).message }, 'could not record stage run'),
      );
      if (result.outcome === 'done') {
        const output = newEvent(
          result.emit.type,
          causedBy(event),
          result.emit.data as never,
          clock,
        );
        await publishEvent(
          opts.nats.js,
          output,
          stageMessageId(event.target_id, stage, event.generation),
        );
        log.info(
          { duration_ms: Math.round(performance.now() - started), emitted: output.type },
          'stage done',
        );
        return { outcome: 'done' };
      }
      if (result.outcome === 'skipped') log.info({ reason: result.reason }, 'stage skipped');
      return result;
    },
    async onGiveUp(event, reason, delivery) {
      stageFailures.inc({ stage, source: 'handler' });
      await publishEvent(
        opts.nats.js,
        newEvent(
          'StageFailed',
          causedBy(event),
          { stage, error: reason, attempts: delivery.deliveryCount },
          clock,
        ),
        stageMessageId(event.target_id, stage, event.generation, 'failed'),
      );
    },
  });
  if (!watchdog) return worker;
  return {
    done: Promise.all([worker.done, watchdog.done]).then(() => undefined),
    async stop(graceMs?: number) {
      await Promise.all([worker.stop(graceMs), watchdog.stop(graceMs)]);
    },
  };
}
