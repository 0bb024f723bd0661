import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  EmbedAccepted,
  EmbedTargetParams,
  ErrorBody,
  embedCommandSubject,
  type EmbedTargetRequested,
} from '@reports/contracts';
import { awaitNatsConnected, provisionCommandsStream } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { adminGuard } from '../admin/adminHash.js';
import { findTarget } from './store.js';

/**
 * `POST /admin/embed/{target_kind}/{target_id}`: publishes an embed command on the COMMANDS
 * stream; the embedding service re-chunks and re-embeds the target, replacing its chunks in one
 * transaction (idempotent). Answers 202 once the command is stored.
 */
export async function embeddingAdminRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  let provisioned = false;

  app.post(
    '/admin/embed/:target_kind/:target_id',
    {
      preHandler: adminGuard(deps.config.ADMIN_HASH),
      schema: {
        tags: ['admin'],
        summary: 'Re-embed a report or an attachment (idempotent backfill)',
        description:
          "`target_kind` is `report` or `attachment`; no body. The embedding service deletes the target's chunks and " +
          'writes them again, with embeddings, in one transaction; `parsed_metadata.embedding_status` is updated. ' +
          'Admin hash in `X-Admin-Hash` (or query `hash`).',
        security: [{ adminHash: [] }],
        params: EmbedTargetParams,
        response: { 202: EmbedAccepted, 403: ErrorBody, 404: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const { target_kind, target_id } = request.params;
      const target = await findTarget(deps.pool, target_kind, target_id);
      if (!target) throw new AppError('not_found', `${target_kind} not found`);
      const command: EmbedTargetRequested = {
        id: randomUUID(),
        type: 'EmbedTargetRequested',
        version: 1,
        requested_at: deps.clock.now().toISOString(),
        tenant_id: target.tenant_id,
        report_id: target.report_id,
        target_kind,
        target_id,
      };
      try {
        await awaitNatsConnected(deps.nats.nc, 'the command queue');
        if (!provisioned) {
          await provisionCommandsStream(deps.nats.jsm, deps.config.NATS_STREAM_REPLICAS);
          provisioned = true;
        }
        await deps.nats.js.publish(
          embedCommandSubject(target.tenant_id, target.report_id),
          JSON.stringify(command),
          { msgID: command.id, timeout: 10_000 },
        );
      } catch (error) {
        request.log.error({ err: error, target_id }, 'could not publish the embed command');
        throw new AppError('service_unavailable', 'the command queue is unavailable; try again');
      }
      return reply.status(202).send({
        command_id: command.id,
        status: 'queued' as const,
        target_kind,
        target_id,
        report_id: target.report_id,
      });
    },
  );
}
