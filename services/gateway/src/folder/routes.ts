import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.js';
import { attachmentRoutes } from '../attachments/routes.js';
import { figureRoutes } from '../figures/routes.js';
import { createFileLinks, fileUrlSecret } from '../files/links.js';
import { fileRoutes } from '../files/routes.js';
import { partnerRoutes } from '../partner/routes.js';

/**
 * What a report folder holds beyond its main file: figures with expiring signed
 * links (and the `/files` route that serves local-store links), attachments
 * uploaded by users, and the partner endpoints.
 */
export async function folderRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const secret = fileUrlSecret(deps.config, deps.logger);
  const links = createFileLinks({
    objectStore: deps.objectStore,
    publicUrl: deps.publicUrl,
    secret,
    clock: deps.clock,
  });
  await fastify.register(fileRoutes, { objectStore: deps.objectStore, secret, clock: deps.clock });
  await fastify.register(figureRoutes, {
    pool: deps.pool,
    links,
    ttlSeconds: deps.config.FILE_URL_TTL_SECONDS,
  });
  await fastify.register(attachmentRoutes, { deps });
  await fastify.register(partnerRoutes, { deps });
}
