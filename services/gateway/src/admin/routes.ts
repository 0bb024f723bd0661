import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { adminClient } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { checkAdminHash, presentedAdminHash } from './adminHash.js';
import { verifyRoutes } from './routes/verify.js';
import { feedbackRoutes } from './routes/feedback.js';
import { analyticsRoutes } from './routes/analytics.js';
import { providerRoutes } from './routes/providers.js';
import { adminMigrateRoutes } from './routes/migrate.js';
import { costRoutes } from './routes/cost.js';

/** True for a request to the operations area, whether or not a route matches it. */
export function isAdminRequest(request: Pick<FastifyRequest, 'url' | 'routeOptions'>): boolean {
  const pattern = request.routeOptions.url;
  if (pattern !== undefined) return pattern === '/admin' || pattern.startsWith('/admin/');
  const path = request.url.split('?')[0] ?? '';
  return path === '/admin' || path.startsWith('/admin/');
}

/**
 * The operations area. One hook guards every `/admin` request, whichever plugin
 * registered its route (and unknown admin paths too, so routes cannot be
 * discovered without the hash). It runs in preParsing: after the rate limit (so
 * guessing the hash is limited like any call) and before the body is read or
 * validated (so a caller without the hash learns nothing about a route). The
 * routes then call the admin service over NATS; `GET /admin/verify` is the hash
 * check alone. Registered before the other route plugins, so that every one
 * inherits the hook.
 */
async function adminArea(fastify: FastifyInstance, { deps }: { deps: GatewayDeps }): Promise<void> {
  fastify.addHook('preParsing', async (request) => {
    if (isAdminRequest(request))
      checkAdminHash(presentedAdminHash(request), deps.config.ADMIN_HASH);
  });
  const admin = adminClient(deps.nats.nc);

  verifyRoutes(fastify);
  feedbackRoutes(fastify, admin);
  analyticsRoutes(fastify, admin);
  providerRoutes(fastify, admin);
  adminMigrateRoutes(fastify, admin);
  costRoutes(fastify, admin);
}

/** `/admin/*`: the guard for every admin route, and the admin service's routes. */
export const adminRoutes = fp(adminArea, { name: 'admin-area', fastify: '5.x' });
