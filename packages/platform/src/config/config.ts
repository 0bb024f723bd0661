import { z } from 'zod';
import { parseSecretsKey } from '../secrets/secretBox.js';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

/**
 * Every environment variable the system reads. The names are part of the
 * interface (design.md section 6); the `STAGE_*`, `PUBLIC_URL` and `NATS_*`
 * tuning knobs are ours and documented in the README.
 */
export const ConfigSchema = z.object({
  PORT: int(0, 65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: optionalString,
  /**
   * Proxies whose X-Forwarded-For is believed when finding the client IP for rate
   * limits (fastify trustProxy syntax: `loopback`, CIDRs, comma-separated).
   */
  TRUST_PROXY: z.string().default('loopback'),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/reports'),
  DATABASE_POOL_MAX: int(1, 200).default(10),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  NATS_STREAM_REPLICAS: int(1, 5).default(1),
  /** Longest pause between attempts to reach NATS at start-up (the pause doubles up to it). */
  NATS_CONNECT_BACKOFF_MAX_MS: int(100, 300_000).default(10_000),
  OBJECT_STORE_URL: optionalString,
  S3_ENDPOINT: optionalString,
  S3_ACCESS_KEY: optionalString,
  S3_SECRET_KEY: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  OPENSEARCH_URL: optionalString,
  /** Index of the OpenSearch keyword backend (one per environment). */
  OPENSEARCH_INDEX: z.string().default('report-chunks'),
  AUTH_JWKS_URL: optionalString,
  AUTH_ISSUER: optionalString,
  AUTH_AUDIENCE: z.string().default('authenticated'),
  AUTH_BUILTIN_ISSUER: bool.optional(),
  /**
   * Longest access-token lifetime accepted (`exp - iat`, and `exp` from now): a token minted to
   * live for years is refused even when its signature is good (docs/adr/097). One day by default.
   */
  AUTH_MAX_TOKEN_LIFETIME_SECONDS: int(60, 30 * 24 * 3600).default(24 * 3600),
  ADMIN_HASH: optionalString,
  PARTNER_HMAC_SECRET: optionalString,
  /**
   * Key of the signed file links the gateway hands out for the local object store
   * (`/files/...`). Unset: a random key per gateway process, so links die with the process
   * and several replicas must share a configured one (docs/adr/018).
   */
  FILE_URL_SECRET: optionalString,
  /** Lifetime of signed figure links (thumbnail and original), at most 7 days as in S3. */
  FILE_URL_TTL_SECONDS: int(1, 604_800).default(900),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => !list.includes('*'), 'a wildcard origin is not allowed; list the origins'),
  OCR_PROVIDER: z.enum(['local', 'mistral']).default('local'),
  /** Mistral OCR model (`OCR_PROVIDER=mistral`). */
  MISTRAL_OCR_MODEL: z.string().default('mistral-ocr-latest'),
  /** Time budget of one Mistral OCR call (spec: 900000 ms). */
  OCR_TIMEOUT_MS: int(1000, 3_600_000).default(900_000),
  LLM_PROVIDER: z.enum(['local', 'openai', 'mistral']).default('local'),
  LLM_MODEL: optionalString,
  EMBEDDING_PROVIDER: z.enum(['local', 'openai', 'mistral']).default('local'),
  EMBEDDING_MODEL: optionalString,
  ANNOTATION_PROVIDER: z.enum(['local', 'openai', 'mistral']).default('local'),
  /** Vision model of the annotation provider; defaults per provider (docs/adr/017). */
  ANNOTATION_MODEL: optionalString,
  /**
   * `annotation_source` written for the OpenAI-compatible provider; by default `gemini` when
   * OPENAI_BASE_URL is Google's, else `openai` (docs/adr/017).
   */
  ANNOTATION_SOURCE: optionalString.refine(
    (v) => v === undefined || /^[a-z0-9][a-z0-9_-]{0,31}$/.test(v),
    'lowercase letters, digits, - and _, at most 32',
  ),
  /** Figures annotated at the same time by one annotate stage attempt. */
  ANNOTATION_CONCURRENCY: int(1, 32).default(4),
  /** Time budget of one annotation model call (the SDK's retries included). */
  ANNOTATION_TIMEOUT_MS: int(1000, 600_000).default(60_000),
  RERANK_URL: optionalString,
  RERANK_ENABLED: bool.default(false),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  MISTRAL_API_KEY: optionalString,
  /** Mistral API base URL (a proxy, or a local server in tests); the SDK's default when unset. */
  MISTRAL_BASE_URL: optionalString,
  RERANK_API_KEY: optionalString,
  /** Model sent to the Cohere-compatible reranker (`RERANK_URL` is the full `/rerank` endpoint URL). */
  RERANK_MODEL: z.string().default('rerank-v3.5'),
  /**
   * Weight of the keyword leg in reciprocal rank fusion: w/(60 + bm25_rank) + 1/(60 + vector_rank).
   * 1 is the spec's formula; more favours BM25 when the embedder is weak (the local one).
   */
  RETRIEVAL_KEYWORD_WEIGHT: z.coerce.number().min(0).max(100).default(1),
  /**
   * Whether the keyword leg also searches each inflected question word by the start its forms
   * share ("zoned" finds "Zoning"; ADR 076). Off is the spec's unstemmed keyword leg.
   */
  RETRIEVAL_WORD_FAMILIES: bool.default(false),
  /**
   * Memory the retrieval service may hold for report folders in memory (ADR 135); 0 turns the
   * in-memory legs off (every query reads Postgres).
   */
  RETRIEVAL_MEMORY_BUDGET_MB: z.coerce.number().int().min(0).max(65536).default(256),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Parallel handlers per stage consumer in one process. */
  STAGE_CONCURRENCY: int(1, 64).default(2),
  /** How long JetStream waits for an ack before redelivering (a crashed worker's message). */
  STAGE_ACK_WAIT_MS: int(1000, 3_600_000).default(30_000),
  /** Deliveries of one message before its stage is declared failed. */
  STAGE_MAX_DELIVER: int(1, 100).default(5),
  /** Time budget of one stage attempt. */
  STAGE_TIMEOUT_MS: int(1000, 3_600_000).default(120_000),
  /**
   * Port of a stage service's operations endpoint (`/metrics`, `/healthz`, `/readyz`).
   * Unset: the service's own default (see `defaultMetricsPort`); 0: off. The gateway
   * serves `/metrics` on its own port instead.
   */
  METRICS_PORT: int(0, 65535).optional(),
  /**
   * On SIGTERM, how long handlers in progress get to finish before their messages are
   * given back (nak'd) for another worker.
   */
  SHUTDOWN_GRACE_MS: int(0, 600_000).default(10_000),
  /**
   * Hard limit of a whole shutdown (grace, NATS drain, closing the pool): past it the
   * process exits with code 1. Keep it under Kubernetes' terminationGracePeriodSeconds.
   */
  SHUTDOWN_TIMEOUT_MS: int(1000, 600_000).default(25_000),
  /**
   * Key that encrypts provider API keys at rest (AES-256-GCM): 32 bytes as 64 hex
   * digits or base64. Unset: overrides without a key still work, storing a key answers 503.
   */
  SECRETS_KEY: optionalString.refine(
    (v) => v === undefined || parseSecretsKey(v) !== null,
    'must be 32 bytes as 64 hex digits or base64',
  ),
  /**
   * Redis for the rate-limit counters, shared by every gateway replica
   * (`redis://host:port/db`). Unset: each gateway process counts on its own.
   */
  RATE_LIMIT_REDIS_URL: optionalString,
  /** How long the legacy synchronous `POST /reports` waits for the report to be ready. */
  REPORTS_SYNC_TIMEOUT_MS: int(1000, 900_000).default(120_000),
  /**
   * Chat models offered besides the default (`LLM_PROVIDER`/`LLM_MODEL`), comma-separated
   * `provider:model` (`openai:gpt-4.1-mini,mistral:mistral-large-latest`). A model whose
   * provider has no key is left out. `local-extractive` is always offered (docs/adr/041).
   */
  CHAT_MODELS: optionalString.refine(
    (v) =>
      v === undefined ||
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => /^(openai|mistral|local):[A-Za-z0-9][\w.:/@-]{0,199}$/.test(s)),
    'comma-separated provider:model entries (provider openai, mistral or local)',
  ),
  /**
   * A marker put in the chat's system prompt; an answer that contains it has it redacted
   * (and a warning logged): a prompt leak shows up instead of reaching the user.
   */
  CHAT_PROMPT_CANARY: optionalString,
  /** The chat gives up on a model that sends nothing (first token included) for this long. */
  CHAT_MODEL_IDLE_TIMEOUT_MS: int(1000, 600_000).default(60_000),
  /** Retries of a chat model call answered 429 or 5xx, before the answer starts. */
  CHAT_MODEL_MAX_RETRIES: int(0, 10).default(2),
  /** Most tokens one chat answer may have. */
  CHAT_MAX_OUTPUT_TOKENS: int(64, 32_000).default(1500),
  /** Most characters of document text put in one turn's context (full text, compare, snapshot). */
  CHAT_CONTEXT_MAX_CHARS: int(1000, 2_000_000).default(120_000),
  /** How often the chat service tells the gateway a quiet turn is still alive. */
  CHAT_HEARTBEAT_MS: int(100, 60_000).default(5_000),
  /**
   * The gateway ends a chat stream with an error event after this long without any
   * message from the chat service (heartbeats included): the service is gone.
   */
  CHAT_SILENCE_TIMEOUT_MS: int(1000, 600_000).default(20_000),
  /**
   * Sign-in mail of the built-in issuer: `smtp://host:port` (or `smtps://user:pass@host`).
   * Unset: the sign-in link is written to the log only.
   */
  SMTP_URL: optionalString.refine(
    (v) => v === undefined || /^smtps?:\/\/[^\s]+$/.test(v),
    'an smtp:// or smtps:// URL',
  ),
  /** Sender of the sign-in mail. */
  MAIL_FROM: z.string().default('Property reports <no-reply@localhost>'),
  /**
   * Base URL of the web app: sign-in links open its confirm route
   * (`<AUTH_SITE_URL>/auth/confirm?token_hash=...&type=magiclink`). Unset: the gateway's own.
   */
  AUTH_SITE_URL: optionalString.refine(
    (v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v),
    'an http:// or https:// URL',
  ),
  /** Partner sign-in exchange (`POST /auth/partner-exchange`): RS256 public key, PEM (SPKI). */
  PARTNER_JWT_PUBLIC_KEY: optionalString,
  PARTNER_JWT_AUDIENCE: optionalString,
  PARTNER_JWT_ISSUER: optionalString,
});
export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once. A bad value throws a ConfigError whose message
 * names each offending variable, so a service stops with a message an operator can act on.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  return result.data;
}

/** The built-in issuer is on when asked for, or by default when no external JWKS is set. */
export function builtinIssuerEnabled(config: Config): boolean {
  return config.AUTH_BUILTIN_ISSUER ?? config.AUTH_JWKS_URL === undefined;
}

/** Default object store: a local directory beside the working directory. */
export function objectStoreUrl(config: Config, cwd: string = process.cwd()): string {
  return config.OBJECT_STORE_URL ?? `file://${cwd}/.data/objects`;
}
