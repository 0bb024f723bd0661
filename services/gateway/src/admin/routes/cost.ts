import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CostGlobal, CostQuery, CostTenant, CostTenantParams, ErrorBody } from '@reports/contracts';
import type { AdminClient } from '@reports/platform';
import { HashQuery, security, TAGS, errors } from '../schemas.js';

/** `GET /admin/cost/global` and `GET /admin/cost/tenant/{tenant_id}`. */
export function costRoutes(fastify: FastifyInstance, admin: AdminClient): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/admin/cost/global',
    {
      schema: {
        tags: TAGS,
        summary: 'The 10 tenants that cost most over the last `days` days (default 30)',
        security,
        querystring: CostQuery.extend(HashQuery.shape),
        response: { 200: CostGlobal, ...errors },
      },
    },
    async (request) => admin.costGlobal({ days: request.query.days }),
  );

  app.get(
    '/admin/cost/tenant/:tenant_id',
    {
      schema: {
        tags: TAGS,
        summary: "One tenant's cost by stage and by model, and its 10 costliest reports",
        security,
        params: CostTenantParams,
        querystring: CostQuery.extend(HashQuery.shape),
        response: { 200: CostTenant, 404: ErrorBody, ...errors },
      },
    },
    async (request) =>
      admin.costTenant({ tenant_id: request.params.tenant_id, days: request.query.days }),
  );
}
