import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, MeResponse } from '@reports/contracts';
import type { Pool } from '@reports/platform';
import { emailLocalPart, findProfileById, profileToMe } from './issuer.js';
import { currentUser, type AuthUser } from './types.js';
import { LIMITS } from '../limits/rateLimit.js';

/** The profile of a caller known only from its token (a user of an external identity provider). */
export function meFromClaims(user: AuthUser): MeResponse {
  return {
    id: user.id,
    email: user.email,
    personal_tenant_id: user.personal_tenant_id,
    active_tenant_id: user.tenant_id,
    display_name: emailLocalPart(user.email),
  };
}

/** GET /me: the stored profile when there is one, else the profile the token's claims describe. */
export function registerMeRoute(parent: FastifyInstance, pool: Pool): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/me',
    {
      preHandler: app.authenticate,
      config: { rateLimit: LIMITS.profile },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        security: [{ bearerAuth: [] }],
        response: { 200: MeResponse, 401: ErrorBody },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const profile = await findProfileById(pool, user.id);
      return profile ? profileToMe(profile) : meFromClaims(user);
    },
  );
}
