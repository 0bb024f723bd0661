import { z } from 'zod';
import { TargetKind } from './events.js';
import { rpcOperation } from './rpc.js';
import { PathId } from './ids.js';

/**
 * Hybrid retrieval: the REST bodies of `POST /retrieve` and `POST /admin/retrieve/{report_id}`,
 * and the NATS request/reply contract of the retrieval service that the gateway (and the chat
 * service) call. See docs/adr/020-hybrid-retrieval.md.
 */

/** Name of the retrieval service in its callers' error texts (`the retrieval service did not answer`). */
export const RETRIEVAL_SERVICE = 'retrieval';
/** Queue group of the retrieve operation: each request goes to one replica. */
export const RETRIEVAL_QUEUE = 'retrieval';
/** Request/reply subject of the retrieve endpoint; served by a queue group, so replicas share the load. */
export const RETRIEVE_SUBJECT = 'svc.retrieval.retrieve';
/** How long a caller waits for a retrieval: HyDE (8 s) + embedding retries + rerank (8 s), with room. */
export const RETRIEVE_TIMEOUT_MS = 30_000;

/** `top_k` when the body has none. */
export const TOP_K_DEFAULT = 8;
/** Largest `top_k` the REST endpoints accept. */
export const TOP_K_MAX = 50;
/** Largest `top_k` of the NATS contract: internal callers (evaluation) may ask for up to 100. */
export const TOP_K_INTERNAL_MAX = 100;
/** Longest query accepted, in characters. */
export const QUERY_MAX_CHARS = 2000;
/** Reciprocal rank fusion constant (spec). */
export const RRF_K = 60;

/** Spec scope types (docs/adr/130-section-and-multi-report-scopes.md). */
export const ScopeType = z.enum(['folder', 'section', 'multi_report']);
export type ScopeType = z.infer<typeof ScopeType>;

/** Fewest and most reports of a `multi_report` scope. */
export const MULTI_REPORT_MIN = 2;
export const MULTI_REPORT_MAX = 20;

/**
 * What a retrieval searches: a report folder (`folder`); one section of a folder and its
 * subsections (`section`, by name or slug as `GET /reports/{id}/sections/{name}` accepts it);
 * or 2-20 folders ranked as one (`multi_report`, no duplicates).
 */
export const RetrieveScope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('folder'), report_id: z.uuid() }),
  z.object({
    type: z.literal('section'),
    report_id: z.uuid(),
    section: z
      .string()
      .max(500)
      .refine((s) => s.trim().length > 0, 'the section name must not be empty'),
  }),
  z.object({
    type: z.literal('multi_report'),
    report_ids: z
      .array(z.uuid())
      .min(MULTI_REPORT_MIN, `multi_report needs at least ${MULTI_REPORT_MIN} report_ids`)
      .max(MULTI_REPORT_MAX, `multi_report takes at most ${MULTI_REPORT_MAX} report_ids`)
      .refine((ids) => new Set(ids).size === ids.length, 'report_ids must not repeat a report'),
  }),
]);
export type RetrieveScope = z.infer<typeof RetrieveScope>;

const Query = z
  .string()
  .max(QUERY_MAX_CHARS)
  .refine((q) => q.trim().length > 0, 'the query must contain a word');

/** Body of `POST /retrieve`. */
export const RetrieveBody = z.object({
  query: Query,
  scope: RetrieveScope,
  top_k: z.number().int().min(1).max(TOP_K_MAX).default(TOP_K_DEFAULT),
});
export type RetrieveBody = z.infer<typeof RetrieveBody>;

/** Body of `POST /admin/retrieve/{report_id}` (folder scope of that report). */
export const AdminRetrieveBody = z.object({
  query: Query,
  top_k: z.number().int().min(1).max(TOP_K_MAX).default(TOP_K_DEFAULT),
});
export type AdminRetrieveBody = z.infer<typeof AdminRetrieveBody>;

/**
 * What a chunk holds (`content_type`): section text; a table (or a piece of a long one, header
 * row repeated; `table_id` set); a figure's caption and annotation (`figure_id` set).
 */
export const CHUNK_CONTENT_TYPES = ['text', 'table', 'figure'] as const;
export type ChunkContentType = (typeof CHUNK_CONTENT_TYPES)[number];

/**
 * One retrieved chunk (spec "Chunk (returned by retrieval)"). A chunk found by one leg only
 * has `null` rank and score for the other leg (outer join); `rerank_score` is `null` unless
 * the reranker ordered the list.
 */
export const RetrievedChunk = z.object({
  id: z.uuid(),
  report_id: z.uuid(),
  section_id: z.uuid().nullable(),
  attachment_id: z.uuid().nullable(),
  figure_id: z.uuid().nullable(),
  table_id: z.uuid().nullable(),
  content_type: z.string(),
  source_type: z.string(),
  section_name: z.string().nullable(),
  section_slug: z.string().nullable(),
  attachment_filename: z.string().nullable(),
  source_label: z.string().nullable(),
  content: z.string(),
  content_tokens: z.number().int(),
  order_in_doc: z.number().int(),
  /**
   * Pages of the source document the chunk comes from (1-based): a figure's page, else its
   * section's first and last page. Null for documents without pages (HTML, DOCX, images).
   */
  page_start: z.number().int().nullable(),
  page_end: z.number().int().nullable(),
  embedding_type: z.string(),
  rrf_score: z.number(),
  vector_rank: z.number().int().positive().nullable(),
  bm25_rank: z.number().int().positive().nullable(),
  vector_dist: z.number().nullable(),
  bm25_score: z.number().nullable(),
  rerank_score: z.number().nullable(),
});
export type RetrievedChunk = z.infer<typeof RetrievedChunk>;

/** Response of `POST /retrieve`: the spec's object plus the id of the retrieval log row. */
export const RetrieveResponse = z.object({
  chunks: z.array(RetrievedChunk),
  embed_ms: z.number().int().nonnegative(),
  retrieval_ms: z.number().int().nonnegative(),
  rerank_ms: z.number().int().nonnegative(),
  scope_type: ScopeType,
  top_k: z.number().int().positive(),
  fusion: z.literal('hybrid_rrf'),
  reranked: z.boolean(),
  used_hyde: z.boolean(),
  retrieval_log_id: z.uuid(),
});
export type RetrieveResponse = z.infer<typeof RetrieveResponse>;

/**
 * Whose request it is. A user's request is answered only inside `tenant_id` (a report of
 * another tenant is `not_found`); an admin's runs in the report's own tenant, whatever it is.
 */
export const RetrieveCaller = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), user_id: z.uuid(), tenant_id: z.uuid() }),
  z.object({ kind: z.literal('admin') }),
]);
export type RetrieveCaller = z.infer<typeof RetrieveCaller>;

/**
 * Diagnostic options (NATS only, not in the REST bodies). Defaults give the spec's flow; the
 * evaluation asks for one leg at a time.
 * `legs`: which legs run (`hybrid` = both, fused). `rerank`/`hyde`: `auto` follows the
 * configuration and the spec's rules, `off` disables for this request; `rerank: local` reranks
 * this request with the local reranker, whatever is configured (for measuring it).
 */
export const RetrieveOptions = z.object({
  legs: z.enum(['hybrid', 'keyword', 'vector']).default('hybrid'),
  rerank: z.enum(['auto', 'off', 'local']).default('auto'),
  hyde: z.enum(['auto', 'off']).default('auto'),
  /** Weight of the keyword leg in the fusion for this request; absent: `RETRIEVAL_KEYWORD_WEIGHT` (1 = spec). */
  keyword_weight: z.number().min(0).max(100).optional(),
  /**
   * Whether the keyword leg also searches each inflected question word by the start its forms
   * share for this request; absent: `RETRIEVAL_WORD_FAMILIES` (false = the spec's unstemmed leg).
   */
  word_families: z.boolean().optional(),
});
export type RetrieveOptions = z.infer<typeof RetrieveOptions>;

/** Request message on `RETRIEVE_SUBJECT` (JSON). */
export const RetrieveRequest = z.object({
  caller: RetrieveCaller,
  scope: RetrieveScope,
  query: Query,
  top_k: z.number().int().min(1).max(TOP_K_INTERNAL_MAX).default(TOP_K_DEFAULT),
  options: RetrieveOptions.default({ legs: 'hybrid', rerank: 'auto', hyde: 'auto' }),
});
export type RetrieveRequest = z.input<typeof RetrieveRequest>;
export type ParsedRetrieveRequest = z.output<typeof RetrieveRequest>;

/**
 * Catalogue codes the retrieval service answers with (in the `RpcReply` error envelope, as every
 * request/reply service does).
 */
export const RetrieveErrorCode = z.enum([
  'not_found',
  'scope_not_implemented',
  'embedding_unavailable',
  'validation_failed',
  'internal',
]);
export type RetrieveErrorCode = z.infer<typeof RetrieveErrorCode>;

/** Command stream for work that is not a fact yet (design.md section 3). */
export const COMMANDS_STREAM = 'COMMANDS';
export const COMMANDS_SUBJECTS = 'commands.>';
/** Durable consumer of the embedding service for embed commands. */
export const EMBED_COMMAND_DURABLE = 'command-embed';

/** `commands.embed.<tenant_id>.<report_id>`: re-embed one target of a report. */
export function embedCommandSubject(tenantId: string, reportId: string): string {
  return `commands.embed.${tenantId}.${reportId}`;
}
/** Every embed command, for the embedding service's consumer. */
export const EMBED_COMMAND_FILTER = 'commands.embed.>';

/**
 * `POST /admin/embed/{target_kind}/{target_id}`: re-chunk and re-embed one target. Idempotent:
 * the target's chunks are replaced in one transaction, so running it twice leaves the same state.
 */
export const EmbedTargetRequested = z.object({
  id: z.uuid(),
  type: z.literal('EmbedTargetRequested'),
  version: z.literal(1),
  requested_at: z.iso.datetime({ offset: true }),
  tenant_id: z.uuid(),
  report_id: z.uuid(),
  target_kind: TargetKind,
  target_id: z.uuid(),
});
export type EmbedTargetRequested = z.infer<typeof EmbedTargetRequested>;

export const EmbedTargetParams = z.object({ target_kind: TargetKind, target_id: PathId });
export type EmbedTargetParams = z.infer<typeof EmbedTargetParams>;

/** 202 body of the embed backfill. */
export const EmbedAccepted = z.object({
  command_id: z.uuid(),
  status: z.literal('queued'),
  target_kind: TargetKind,
  target_id: z.uuid(),
  report_id: z.uuid(),
});
export type EmbedAccepted = z.infer<typeof EmbedAccepted>;

/**
 * The retrieval service's request/reply operations (served with `serveRpc`, called through
 * `retrievalClient` in @reports/platform, like the admin and chat operations).
 */
export const RetrievalOps = {
  retrieve: rpcOperation(RETRIEVE_SUBJECT, RetrieveRequest, RetrieveResponse),
} as const;
export type RetrievalOpName = keyof typeof RetrievalOps;
