import { randomUUID } from 'node:crypto';
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
  type ConsumerHandle,
  type StageWorkerOptions,
} from '@reports/platform';
import { embedTarget, type EmbedDeps } from '../embed/embedStage.js';

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
      const startedAt = new Date();
      const outcome = await embedTarget(deps, command, ctx.signal);
      if (!outcome.written) return { outcome: 'skipped', reason: 'target deleted' };
      const table = command.target_kind === 'report' ? 'reports' : 'attachments';
      const { rows } = await deps.pool.query<{ generation: number }>(
        `UPDATE ${table}
            SET parsed_metadata = parsed_metadata || jsonb_build_object('embedding_status', $2::text,
                  'chunks', $3::int, 'embedded_chunks', $4::int, 'embedding_model', $5::text),
                updated_at = now()
          WHERE id = $1
        RETURNING generation`,
        [
          command.target_id,
          outcome.embedding_status,
          outcome.chunks,
          outcome.embedded,
          outcome.embedding_model,
        ],
      );
      const finishedAt = new Date();
      await deps.pool.query(
        `INSERT INTO stage_runs (id, tenant_id, report_id, target_kind, target_id, stage, generation, attempt,
           outcome, error, started_at, finished_at, duration_ms, provider, model, cost_cents, units)
         VALUES ($1,$2,$3,$4,$5,'embed',$6,$7,'done',NULL,$8,$9,$10,$11,$12,0,$13)`,
        [
          randomUUID(),
          command.tenant_id,
          command.report_id,
          command.target_kind,
          command.target_id,
          rows[0]?.generation ?? 1,
          ctx.deliveryCount,
          startedAt,
          finishedAt,
          finishedAt.getTime() - startedAt.getTime(),
          deps.embedder?.provider ?? 'none',
          outcome.embedding_model,
          JSON.stringify({ chunks: outcome.chunks, tokens: outcome.tokens, command: 1 }),
        ],
      );
      logger.info(
        { target_id: command.target_id, command_id: command.id, ...outcome },
        'embed command done',
      );
      return { outcome: 'done' };
    },
  });
}
