import {
  COMMANDS_STREAM,
  EMBED_COMMAND_DURABLE,
  EMBED_COMMAND_FILTER,
  EmbedTargetRequested,
} from '@reports/contracts';
import {
  ensureDurableConsumer,
  provisionCommandsStream,
  startConsumer,
  systemClock,
  type ConsumerHandle,
  type StageWorkerOptions,
} from '@reports/platform';
import { embedTarget, type EmbedDeps } from '../embed/embedStage.js';
import { recordCommandRun, recordEmbeddingOutcome } from '../embed/store.js';

/**
 * Consumes embed commands (`POST /admin/embed/{target_kind}/{target_id}`): re-chunks and
 * re-embeds the target exactly as the embed stage does (its chunks replaced in one transaction,
 * so a repeat or a redelivery is harmless), then records the outcome where the finalize stage
 * does (`parsed_metadata.embedding_status`, ...) and the attempt in `stage_runs` (stage `embed`,
 * for cost tracking). It publishes no pipeline event: the target's status does not move.
 */
export async function startEmbedCommands(
  deps: EmbedDeps,
  opts: StageWorkerOptions & { replicas: number },
): Promise<ConsumerHandle> {
  await provisionCommandsStream(opts.nats.jsm, opts.replicas);
  await ensureDurableConsumer(opts.nats.jsm, {
    stream: COMMANDS_STREAM,
    durable: EMBED_COMMAND_DURABLE,
    filterSubject: EMBED_COMMAND_FILTER,
    ackWaitMs: opts.ackWaitMs,
    maxDeliver: opts.maxDeliver + 2,
    maxAckPending: Math.max(opts.concurrency * 4, 16),
  });
  const logger = opts.logger.child({ consumer: EMBED_COMMAND_DURABLE });
  const clock = opts.clock ?? systemClock;
  return startConsumer({
    js: opts.nats.js,
    stream: COMMANDS_STREAM,
    durable: EMBED_COMMAND_DURABLE,
    concurrency: opts.concurrency,
    maxDeliver: opts.maxDeliver,
    ackWaitMs: opts.ackWaitMs,
    timeoutMs: opts.timeoutMs,
    logger,
    decode: (msg) => EmbedTargetRequested.parse(msg.json()),
    async handle(command, ctx) {
      const startedAt = clock.now();
      const outcome = await embedTarget(deps, command, ctx.signal);
      if (!outcome.written) return { outcome: 'skipped', reason: 'target deleted' };
      const generation = await recordEmbeddingOutcome(deps.pool, command, outcome);
      await recordCommandRun(deps.pool, command, {
        generation,
        attempt: ctx.deliveryCount,
        startedAt,
        finishedAt: clock.now(),
        provider: deps.embedder?.provider ?? 'none',
        outcome,
      });
      logger.info(
        { target_id: command.target_id, command_id: command.id, ...outcome },
        'embed command done',
      );
      return { outcome: 'done' };
    },
  });
}
