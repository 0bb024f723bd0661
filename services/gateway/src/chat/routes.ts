import type { FastifyInstance } from 'fastify';
import { chatClient } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { conversationRoutes } from './conversations.js';
import { modelsRoute } from './modelsRoute.js';
import { chatTurnRoute } from './turnRoute.js';

/**
 * `POST /chat` (SSE relayed from the chat service over NATS), `GET /models`, and the
 * conversations and feedback endpoints (request/reply to the chat service).
 */
export async function chatRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  chatTurnRoute(fastify, deps);
  modelsRoute(fastify, chatClient(deps.nats.nc));
  await fastify.register(conversationRoutes, { deps });
}
