import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminVerify } from '@reports/contracts';
import { HashQuery, security, TAGS, errors } from '../schemas.js';

/** `GET /admin/verify`: the hash check alone (the area hook does it). */
export function verifyRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/admin/verify',
    {
      schema: {
        tags: TAGS,
        summary: 'Checks the admin hash',
        description:
          'Answers `{ ok: true }` for a valid hash. A missing or wrong hash answers 403 `forbidden`, and 403 ' +
          '`admin disabled` when no hash is configured, as every admin call does.',
        security,
        querystring: HashQuery,
        response: { 200: AdminVerify, ...errors },
      },
    },
    async () => ({ ok: true }),
  );
}
