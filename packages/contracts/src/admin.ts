import { z } from 'zod';
import {
  ClaimResult,
  MigrateCaller,
  MigrateStats,
  MigrateStatus,
  PreauthRequest,
  PreauthResult,
  ReverseClaimRequest,
  ReverseClaimResult,
} from './legacy.js';
import { rpcOperation } from './rpc.js';
import { PathId } from './ids.js';

/** `GET /admin/verify`: answered only for a valid hash (a wrong one is 403, as for every admin call). */
export const AdminVerify = z.object({ ok: z.boolean() });
export type AdminVerify = z.infer<typeof AdminVerify>;

const paging = {
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

/** A thumbs up or down. */
export const FeedbackValue = z.enum(['up', 'down']);
export type FeedbackValue = z.infer<typeof FeedbackValue>;

/** One feedback row: one user's thumbs on one assistant message (written by the chat). */
export const FeedbackRow = z.object({
  id: z.uuid(),
  message_id: z.uuid(),
  user_id: z.uuid(),
  tenant_id: z.uuid(),
  report_id: z.uuid(),
  conversation_id: z.uuid().nullable(),
  value: FeedbackValue,
  comment: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FeedbackRow = z.infer<typeof FeedbackRow>;
export const FeedbackList = z.array(FeedbackRow);
export type FeedbackList = z.infer<typeof FeedbackList>;

/** Filters of `GET /admin/feedback`, newest first. */
export const FeedbackListQuery = z.object({
  tenant_id: z.uuid().optional(),
  report_id: z.uuid().optional(),
  value: FeedbackValue.optional(),
  ...paging,
});
export type FeedbackListQuery = z.infer<typeof FeedbackListQuery>;

/** `GET /admin/feedback/stats`: per report, most rated first. */
export const FeedbackStat = z.object({
  report_id: z.uuid(),
  tenant_id: z.uuid(),
  title: z.string().nullable(),
  total: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
});
export type FeedbackStat = z.infer<typeof FeedbackStat>;
export const FeedbackStatList = z.array(FeedbackStat);
export type FeedbackStatList = z.infer<typeof FeedbackStatList>;

export const FeedbackStatsQuery = z.object({ tenant_id: z.uuid().optional(), ...paging });
export type FeedbackStatsQuery = z.infer<typeof FeedbackStatsQuery>;

/** Client-chosen key of a provider override within its tenant (`openai`, `team-mistral`...). */
export const ProviderId = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, {
  message: 'lowercase letters, digits, ".", "_" or "-", at most 64',
});

/** LLM providers an override may name (the values of LLM_PROVIDER). */
export const LlmProviderName = z.enum(['openai', 'mistral', 'local']);
export type LlmProviderName = z.infer<typeof LlmProviderName>;

/**
 * A per-tenant LLM provider override as the admin area shows it. The API key is
 * stored encrypted and never returned: `has_api_key` says whether one is set.
 */
export const ProviderOverride = z.object({
  tenant_id: z.uuid(),
  provider_id: z.string(),
  provider: LlmProviderName,
  model: z.string(),
  base_url: z.string().nullable(),
  enabled: z.boolean(),
  has_api_key: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProviderOverride = z.infer<typeof ProviderOverride>;
export const ProviderOverrideList = z.array(ProviderOverride);
export type ProviderOverrideList = z.infer<typeof ProviderOverrideList>;

export const ProviderListQuery = z.object({ tenant_id: z.uuid().optional() });
export type ProviderListQuery = z.infer<typeof ProviderListQuery>;

export const ProviderIdParams = z.object({ provider_id: ProviderId });

/**
 * `PUT /admin/providers/{provider_id}`: creates or replaces the override of
 * (`tenant_id`, `provider_id`). `api_key` absent keeps the stored key, `null`
 * removes it, a string replaces it (needs SECRETS_KEY).
 */
export const ProviderPutBody = z.object({
  tenant_id: z.uuid(),
  provider: LlmProviderName,
  model: z.string().trim().min(1).max(200),
  base_url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .nullable()
    .optional(),
  api_key: z.string().min(1).max(4096).nullable().optional(),
  enabled: z.boolean().default(true),
});
export type ProviderPutBody = z.infer<typeof ProviderPutBody>;

export const ProviderPutRequest = ProviderPutBody.extend({ provider_id: ProviderId });
export type ProviderPutRequest = z.infer<typeof ProviderPutRequest>;

/** `?days=N` of the cost endpoints: the last N days, 30 by default. */
export const CostQuery = z.object({ days: z.coerce.number().int().min(1).max(3650).default(30) });
export type CostQuery = z.infer<typeof CostQuery>;

export const TenantCost = z.object({
  tenant_id: z.uuid(),
  tenant_name: z.string().nullable(),
  cost_cents: z.number().int(),
  reports: z.number().int(),
  runs: z.number().int(),
});
export type TenantCost = z.infer<typeof TenantCost>;

/** `GET /admin/cost/global`: the 10 tenants that cost most in the window. */
export const CostGlobal = z.object({
  days: z.number().int(),
  since: z.string(),
  total_cost_cents: z.number().int(),
  tenants: z.array(TenantCost),
});
export type CostGlobal = z.infer<typeof CostGlobal>;

export const CostTenantParams = z.object({ tenant_id: PathId });
export const CostTenantRequest = CostQuery.extend({ tenant_id: z.uuid() });
export type CostTenantRequest = z.infer<typeof CostTenantRequest>;

const CostLine = { cost_cents: z.number().int(), runs: z.number().int() };

/** `GET /admin/cost/tenant/{tenant_id}`: the tenant's cost by stage, by model, and its 10 costliest reports. */
export const CostTenant = z.object({
  tenant_id: z.uuid(),
  tenant_name: z.string().nullable(),
  days: z.number().int(),
  since: z.string(),
  total_cost_cents: z.number().int(),
  by_stage: z.array(z.object({ stage: z.string(), ...CostLine })),
  by_model: z.array(
    z.object({ provider: z.string().nullable(), model: z.string().nullable(), ...CostLine }),
  ),
  top_reports: z.array(
    z.object({ report_id: z.uuid(), title: z.string().nullable(), ...CostLine }),
  ),
});
export type CostTenant = z.infer<typeof CostTenant>;

/** Queue group of the admin service: replicas share its requests. */
export const ADMIN_QUEUE = 'admin';

const Empty = z.object({});

/**
 * The admin service's request/reply operations over NATS. The gateway checks the
 * admin hash (or the JWT, for the claim flow) before calling any of them.
 */
// ---------------------------------------------------------------------------
// Retrieval analytics (docs/adr/134-retrieval-analytics.md)

/** `?days=N` of the retrieval analytics: the last N calendar days (UTC), today included. */
const analyticsWindow = {
  days: z.coerce.number().int().min(1).max(365).default(7),
  tenant_id: z.uuid().optional(),
};

export const RetrievalStatsQuery = z.object(analyticsWindow);
export type RetrievalStatsQuery = z.infer<typeof RetrievalStatsQuery>;

/**
 * A latency distribution from the daily histograms: each percentile is the upper bound of the
 * bucket it falls in (buckets 1 ms wide up to 10 ms, then about a fifth of their value).
 */
export const LatencyPercentiles = z.object({ p50: z.number().int(), p95: z.number().int() });
export type LatencyPercentiles = z.infer<typeof LatencyPercentiles>;

export const RetrievalStats = z.object({
  days: z.number().int(),
  tenant_id: z.uuid().nullable(),
  /** First day of the window (UTC, `YYYY-MM-DD`). */
  since: z.string(),
  queries: z.number().int(),
  zero_results: z.number().int(),
  zero_result_rate: z.number(),
  per_day: z.array(
    z.object({ day: z.string(), queries: z.number().int(), zero_results: z.number().int() }),
  ),
  latency_ms: z.object({
    embed: LatencyPercentiles,
    retrieval: LatencyPercentiles,
    rerank: LatencyPercentiles,
    total: LatencyPercentiles,
  }),
  hyde_rate: z.number(),
  rerank_rate: z.number(),
  /** Retrievals whose rerank failed and fell back to the fused order. */
  rerank_fallbacks: z.number().int(),
  chat: z.object({
    /** Single-report turns (rag and full_fallback). */
    turns: z.number().int(),
    fallback_turns: z.number().int(),
    fallback_rate: z.number(),
    fallback_reasons: z.array(z.object({ reason: z.string(), turns: z.number().int() })),
    /** Thumbs on answers, per chat mode; `up_ratio` is null without any thumbs. */
    feedback: z.array(
      z.object({
        mode: z.string(),
        up: z.number().int(),
        down: z.number().int(),
        up_ratio: z.number().nullable(),
      }),
    ),
  }),
});
export type RetrievalStats = z.infer<typeof RetrievalStats>;

const queriesPaging = {
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
};

/** The query string of `GET /admin/retrieval/queries`. */
export const RetrievalQueriesQuery = z.object({
  ...analyticsWindow,
  zero_results: z.stringbool().optional().describe('true: only the queries that found nothing'),
  ...queriesPaging,
});
export type RetrievalQueriesQuery = z.infer<typeof RetrievalQueriesQuery>;

/** The same, as the admin service is asked it (JSON: a boolean stays a boolean). */
export const RetrievalQueriesRequest = z.object({
  ...analyticsWindow,
  zero_results: z.boolean().optional(),
  ...queriesPaging,
});
export type RetrievalQueriesRequest = z.infer<typeof RetrievalQueriesRequest>;

export const RetrievalQueryRow = z.object({
  id: z.uuid(),
  created_at: z.string(),
  tenant_id: z.uuid(),
  report_id: z.uuid(),
  caller: z.enum(['user', 'admin']),
  scope_type: z.string(),
  query: z.string(),
  result_count: z.number().int(),
  total_ms: z.number().int(),
});
export const RetrievalQueryList = z.array(RetrievalQueryRow);
export type RetrievalQueryList = z.infer<typeof RetrievalQueryList>;

export const AdminOps = {
  feedbackList: rpcOperation('admin.feedback.list', FeedbackListQuery, FeedbackList),
  feedbackStats: rpcOperation('admin.feedback.stats', FeedbackStatsQuery, FeedbackStatList),
  retrievalStats: rpcOperation('admin.retrieval.stats', RetrievalStatsQuery, RetrievalStats),
  retrievalQueries: rpcOperation(
    'admin.retrieval.queries',
    RetrievalQueriesRequest,
    RetrievalQueryList,
  ),
  providersList: rpcOperation('admin.providers.list', ProviderListQuery, ProviderOverrideList),
  providersPut: rpcOperation('admin.providers.put', ProviderPutRequest, ProviderOverride),
  costGlobal: rpcOperation('admin.cost.global', CostQuery, CostGlobal),
  costTenant: rpcOperation('admin.cost.tenant', CostTenantRequest, CostTenant),
  migratePreauth: rpcOperation('admin.migrate.preauth', PreauthRequest, PreauthResult),
  migrateStats: rpcOperation('admin.migrate.stats', Empty, MigrateStats),
  migrateReverseClaim: rpcOperation(
    'admin.migrate.reverse-claim',
    ReverseClaimRequest,
    ReverseClaimResult,
  ),
  migrateStatus: rpcOperation('admin.migrate.status', MigrateCaller, MigrateStatus),
  migrateClaim: rpcOperation('admin.migrate.claim', MigrateCaller, ClaimResult),
} as const;
export type AdminOpName = keyof typeof AdminOps;

/**
 * Associated data a provider override's API key is sealed with (see SecretBox in
 * platform): the sealed value opens only on the row it was written for. The chat
 * opens it with the same context.
 */
export function providerApiKeyContext(tenantId: string, providerId: string): string {
  return `provider_overrides:${tenantId}:${providerId}`;
}
