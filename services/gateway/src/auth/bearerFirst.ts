import fp from 'fastify-plugin';
import type { FastifyInstance, FastifySchema } from 'fastify';

/** True when every security alternative of a route's schema needs the bearer token (not an optional JWT). */
export function requiresBearer(schema: FastifySchema | undefined): boolean {
  const security = (schema as { security?: Array<Record<string, unknown>> } | undefined)?.security;
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    security.every((requirement) => 'bearerAuth' in requirement)
  );
}

/**
 * Verifies the token of every route that declares `security: [{ bearerAuth: [] }]`,
 * in preParsing: after the rate limit, before the body is read or validated,
 * whichever hook the route itself uses for `app.authenticate` (which then finds
 * the caller already verified). A caller without a valid token gets 401, never a
 * validation answer that would describe the route to it. Registered before the
 * route plugins, so every one inherits the hook.
 */
async function bearerFirst(app: FastifyInstance): Promise<void> {
  app.addHook('preParsing', async (request) => {
    if (requiresBearer(request.routeOptions.schema)) await app.authenticate(request);
  });
}

export const bearerFirstPlugin = fp(bearerFirst, {
  name: 'bearer-first',
  fastify: '5.x',
  dependencies: ['auth'],
});
