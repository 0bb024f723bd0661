import { createHash } from 'node:crypto';
import { AppError, providerApiKeyContext, type LlmProviderName } from '@reports/contracts';
import type { Logger, Pool, SecretBox } from '@reports/platform';
import {
  LocalExtractiveModel,
  MistralChatModel,
  OpenAIChatModel,
  type ChatModel,
} from '@reports/providers';
import {
  deploymentCatalogue,
  resolveModel,
  tenantCatalogue,
  type Catalogue,
  type ModelSettings,
  type ModelSpec,
  type OverrideSpec,
} from './catalogue.js';

export interface RegistryOptions {
  pool: Pool;
  settings: ModelSettings;
  /** Opens the overrides' sealed API keys; null when SECRETS_KEY is unset. */
  secrets: SecretBox | null;
  logger: Logger;
  /** Retries of 429/5xx before a stream opens. */
  maxRetries: number;
  /** Backoff of the first retry (Mistral's SDK; OpenAI's honours Retry-After). */
  initialBackoffMs?: number;
}

interface OverrideRow {
  provider_id: string;
  provider: LlmProviderName;
  model: string;
  base_url: string | null;
  api_key_encrypted: string | null;
}

const MAX_CACHED = 200;

/**
 * The chat models a tenant may use and the adapters that call them. The deployment's
 * models come from the configuration once; a tenant's overrides are read from
 * `provider_overrides` (written by the admin service) on every call, so a change in
 * the admin area applies to the next turn. Adapters are cached by what they are built
 * from (a changed key builds a new one).
 */
export class ModelRegistry {
  readonly deployment: Catalogue;
  private readonly cache = new Map<string, ChatModel>();

  constructor(private readonly opts: RegistryOptions) {
    this.deployment = deploymentCatalogue(opts.settings);
  }

  /** The models of a tenant (or of the deployment, for a caller without a token). */
  async catalogue(tenantId: string | null): Promise<Catalogue> {
    if (!tenantId) return this.deployment;
    const { rows } = await this.opts.pool.query<OverrideRow>(
      `SELECT provider_id, provider, model, base_url, api_key_encrypted
         FROM provider_overrides
        WHERE tenant_id = $1 AND enabled
        ORDER BY updated_at DESC, provider_id`,
      [tenantId],
    );
    const overrides: OverrideSpec[] = rows.map((row) => ({
      providerId: row.provider_id,
      provider: row.provider,
      model: row.model,
      baseUrl: row.base_url,
      apiKey: this.open(tenantId, row),
    }));
    const catalogue = tenantCatalogue(this.deployment, overrides, this.opts.settings);
    for (const warning of catalogue.warnings)
      this.opts.logger.warn({ tenant_id: tenantId }, warning);
    return catalogue;
  }

  /** The model a turn asked for (or the tenant's default); 422 `unknown_model` when it is not offered. */
  async resolve(tenantId: string, requested: string | null | undefined): Promise<ModelSpec> {
    const spec = resolveModel(await this.catalogue(tenantId), requested);
    if (!spec)
      throw new AppError(
        'unknown_model',
        `the model "${requested}" is not available here; GET /models lists the models you can choose`,
      );
    return spec;
  }

  /** The adapter that calls `spec`'s model. */
  instance(spec: ModelSpec): ChatModel {
    const key = [spec.provider, spec.model, spec.baseUrl ?? '', digest(spec.apiKey)].join('|');
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    const model = build(spec, this.opts);
    this.cache.set(key, model);
    return model;
  }

  private open(tenantId: string, row: OverrideRow): string | null {
    if (!row.api_key_encrypted) return null;
    if (!this.opts.secrets) {
      this.opts.logger.warn(
        { tenant_id: tenantId, provider_id: row.provider_id },
        'provider override has an API key but SECRETS_KEY is unset: the deployment key is used',
      );
      return null;
    }
    try {
      return this.opts.secrets.open(
        row.api_key_encrypted,
        providerApiKeyContext(tenantId, row.provider_id),
      );
    } catch {
      this.opts.logger.error(
        { tenant_id: tenantId, provider_id: row.provider_id },
        'provider override API key cannot be opened with SECRETS_KEY: the deployment key is used',
      );
      return null;
    }
  }
}

function digest(secret: string | null): string {
  return secret ? createHash('sha256').update(secret).digest('hex').slice(0, 16) : '';
}

function build(spec: ModelSpec, opts: RegistryOptions): ChatModel {
  switch (spec.provider) {
    case 'local':
      return new LocalExtractiveModel();
    case 'openai':
      return new OpenAIChatModel({
        apiKey: spec.apiKey ?? '',
        baseURL: spec.baseUrl ?? undefined,
        model: spec.model,
        maxRetries: opts.maxRetries,
      });
    case 'mistral':
      return new MistralChatModel({
        apiKey: spec.apiKey ?? '',
        serverURL: spec.baseUrl ?? undefined,
        model: spec.model,
        maxRetries: opts.maxRetries,
        ...(opts.initialBackoffMs ? { initialBackoffMs: opts.initialBackoffMs } : {}),
      });
    default: {
      const unreachable: never = spec.provider;
      return unreachable;
    }
  }
}
