import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, ModelList } from '@reports/contracts';
import type { ChatClient } from '@reports/platform';
import { LIMITS } from '../limits/rateLimit.js';

/** `GET /models`: the chat models a caller may name, from the chat service. */
export function modelsRoute(fastify: FastifyInstance, chat: ChatClient): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/models',
    {
      // JWT optional: with one, the tenant's provider override is listed (and may be the default).
      preHandler: async (request) => {
        if (request.headers.authorization !== undefined) await app.authenticate(request);
      },
      config: { rateLimit: LIMITS.models },
      schema: {
        tags: ['chat'],
        summary: 'The chat models that may be named in POST /chat, and the default',
        description:
          "Without a token: the deployment's models (`LLM_PROVIDER`/`LLM_MODEL`, `CHAT_MODELS`, and always the local " +
          "extractive answerer `local-extractive`). With a token, the caller's tenant's provider overrides come first " +
          'and the newest of them is the default. Keys and URLs are never shown.',
        security: [{}, { bearerAuth: [] }],
        response: { 200: ModelList, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => chat.models({ tenant_id: request.user?.tenant_id ?? null }),
  );
}
