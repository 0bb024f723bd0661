import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import cors from '@fastify/cors';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { registerErrorHandling } from './errors/errorHandler.js';
import { registerRateLimit } from './limits/rateLimit.js';
import { gatewayLogger } from './observability/logging.js';
import { registerTextHygiene } from './validation/text.js';
import { observabilityPlugin } from './observability/plugin.js';
import { docsPlugin } from './docs/docs.js';
import { healthRoutes } from './health/health.js';
import { authPlugin } from './auth/plugin.js';
import { bearerFirstPlugin } from './auth/bearerFirst.js';
import { ingestRoutes } from './ingest/routes.js';
import { folderRoutes } from './folder/routes.js';
import { retrievalRoutes } from './retrieval/routes.js';
import { embeddingAdminRoutes } from './embedding/adminRoutes.js';
import { reportRoutes } from './reports/routes.js';
import { migrateRoutes } from './migrate/routes.js';
import { adminRoutes } from './admin/routes.js';
import { chatRoutes } from './chat/routes.js';
import { MAX_UPLOAD_BYTES, UPLOAD_FORM_LIMITS } from './ingest/upload.js';
import type { GatewayDeps } from './deps.js';

export type { GatewayDeps } from './deps.js';

export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  // Request lines are logged with secret query parameters (`?hash=`) redacted.
  const loggerInstance: FastifyBaseLogger = gatewayLogger(deps.logger);
  const app = Fastify({
    loggerInstance,
    trustProxy: deps.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerTextHygiene(app);
  await app.register(observabilityPlugin);

  await app.register(cors, {
    // An explicit allowlist, never a wildcard (config refuses '*').
    origin: deps.config.CORS_ORIGINS.length > 0 ? deps.config.CORS_ORIGINS : false,
    // The plugin's default is GET, HEAD, POST: browsers would refuse PUT, PATCH and DELETE.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    maxAge: 600,
    exposedHeaders: [
      'X-Conversation-Id',
      'X-LLM-Model',
      'X-Chat-Mode',
      'X-Retrieval-Log-Id',
      'Retry-After',
    ],
  });
  await registerRateLimit(app, deps.config, deps.logger);
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, ...UPLOAD_FORM_LIMITS },
  });
  await app.register(docsPlugin);
  await app.register(authPlugin, {
    config: deps.config,
    pool: deps.pool,
    publicUrl: deps.publicUrl,
    clock: deps.clock,
  });
  await app.register(bearerFirstPlugin);
  // First of the route plugins: its hook guards every /admin route registered after it.
  await app.register(adminRoutes, { deps });
  await app.register(healthRoutes, { deps });
  await app.register(ingestRoutes, { deps });
  await app.register(folderRoutes, { deps });
  await app.register(retrievalRoutes, { deps });
  await app.register(embeddingAdminRoutes, { deps });
  await app.register(reportRoutes, { deps });
  await app.register(migrateRoutes, { deps });
  await app.register(chatRoutes, { deps });
  return app;
}
