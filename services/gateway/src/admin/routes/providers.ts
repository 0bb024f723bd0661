import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  ErrorBody,
  ProviderId,
  ProviderListQuery,
  ProviderOverride,
  ProviderOverrideList,
  ProviderPutBody,
} from '@reports/contracts';
import type { AdminClient } from '@reports/platform';
import { HashQuery, security, TAGS, errors, withoutHash } from '../schemas.js';

/** `GET /admin/providers` and `PUT /admin/providers/{provider_id}`: tenant provider overrides. */
export function providerRoutes(fastify: FastifyInstance, admin: AdminClient): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/admin/providers',
    {
      schema: {
        tags: TAGS,
        summary: 'Per-tenant LLM provider overrides (API keys are never returned)',
        security,
        querystring: ProviderListQuery.extend(HashQuery.shape),
        response: { 200: ProviderOverrideList, ...errors },
      },
    },
    async (request) => admin.providersList(withoutHash(request.query)),
  );

  app.put(
    '/admin/providers/:provider_id',
    {
      schema: {
        tags: TAGS,
        summary: "Create or replace a tenant's LLM provider override",
        description:
          "`provider_id` is the override's key within its tenant (`^[a-z0-9][a-z0-9._-]{0,63}$`). `api_key` absent " +
          'keeps the stored key, `null` removes it, a string replaces it; it is stored encrypted (AES-256-GCM with ' +
          'SECRETS_KEY) and never returned. Without SECRETS_KEY a key is refused with 503 `secrets_unavailable`.',
        security,
        params: z.object({ provider_id: z.string().max(200) }),
        querystring: HashQuery,
        body: ProviderPutBody,
        response: { 200: ProviderOverride, 400: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const providerId = ProviderId.safeParse(request.params.provider_id);
      if (!providerId.success)
        throw new AppError(
          'validation_failed',
          'provider_id: lowercase letters, digits, ".", "_" or "-", at most 64',
        );
      return admin.providersPut({ ...request.body, provider_id: providerId.data });
    },
  );
}
