import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminVerify,
  AppError,
  CostGlobal,
  CostQuery,
  CostTenant,
  CostTenantParams,
  ErrorBody,
  FeedbackList,
  FeedbackListQuery,
  FeedbackStatList,
  FeedbackStatsQuery,
  MigrateStats,
  PreauthRequest,
  PreauthResult,
  ProviderId,
  ProviderListQuery,
  ProviderOverride,
  ProviderOverrideList,
  ProviderPutBody,
  ReverseClaimRequest,
  ReverseClaimResult,
} from '@reports/contracts';
import { adminClient } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { checkAdminHash, presentedAdminHash } from './adminHash.js';

/**
 * `hash` is the spec's fallback for the admin hash when the X-Admin-Hash header
 * is absent. The guard reads it before validation; it is listed for the docs.
 */
const HashQuery = z.object({
  hash: z.string().optional().describe('The admin hash, when the X-Admin-Hash header is absent'),
});

const security = [{ adminHash: [] }];
const TAGS = ['admin'];
const errors = { 403: ErrorBody, 422: ErrorBody, 429: ErrorBody, 503: ErrorBody };

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
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const admin = adminClient(deps.nats.nc);
  const withoutHash = <T extends { hash?: string | undefined }>({ hash: _h, ...rest }: T) => rest;

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

  app.get(
    '/admin/feedback',
    {
      schema: {
        tags: TAGS,
        summary: 'Feedback rows (thumbs on assistant messages), newest first',
        security,
        querystring: FeedbackListQuery.extend(HashQuery.shape),
        response: { 200: FeedbackList, ...errors },
      },
    },
    async (request) => admin.feedbackList(withoutHash(request.query)),
  );

  app.get(
    '/admin/feedback/stats',
    {
      schema: {
        tags: TAGS,
        summary: 'Feedback per report: total, up, down',
        security,
        querystring: FeedbackStatsQuery.extend(HashQuery.shape),
        response: { 200: FeedbackStatList, ...errors },
      },
    },
    async (request) => admin.feedbackStats(withoutHash(request.query)),
  );

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

  app.post(
    '/admin/migrate/preauth',
    {
      schema: {
        tags: TAGS,
        summary: "Pre-authorise an email so that its owner's claim of v1 reports is ready",
        security,
        querystring: HashQuery,
        body: PreauthRequest,
        response: { 200: PreauthResult, 400: ErrorBody, ...errors },
      },
    },
    async (request) => admin.migratePreauth(request.body),
  );

  app.get(
    '/admin/migrate/stats',
    {
      schema: {
        tags: TAGS,
        summary: 'Claim-flow analytics',
        security,
        querystring: HashQuery,
        response: { 200: MigrateStats, ...errors },
      },
    },
    async () => admin.migrateStats({}),
  );

  app.post(
    '/admin/migrate/reverse-claim',
    {
      schema: {
        tags: TAGS,
        summary: 'Undo a claim: remove the reports it imported and make the claim ready again',
        description: '404 for an email that was never pre-authorised, 409 when it has no claim.',
        security,
        querystring: HashQuery,
        body: ReverseClaimRequest,
        response: {
          200: ReverseClaimResult,
          400: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          ...errors,
        },
      },
    },
    async (request) => admin.migrateReverseClaim(request.body),
  );

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

/** `/admin/*`: the guard for every admin route, and the admin service's routes. */
export const adminRoutes = fp(adminArea, { name: 'admin-area', fastify: '5.x' });
