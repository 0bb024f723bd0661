import type { LlmProviderName, ModelInfo, ModelList, ModelSource } from '@reports/contracts';
import { LOCAL_EXTRACTIVE_MODEL } from '@reports/providers';

/** Everything needed to build one chat model, and how it is listed. */
export interface ModelSpec {
  /** What `model` names in `POST /chat` and `X-LLM-Model` answers. */
  id: string;
  provider: LlmProviderName;
  model: string;
  source: ModelSource;
  /** The tenant override's `provider_id`. */
  providerId: string | null;
  apiKey: string | null;
  baseUrl: string | null;
}

/** The configuration keys the model choice reads (a subset of the platform's Config). */
export interface ModelSettings {
  LLM_PROVIDER: LlmProviderName;
  LLM_MODEL?: string | undefined;
  CHAT_MODELS?: string | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  MISTRAL_API_KEY?: string | undefined;
  MISTRAL_BASE_URL?: string | undefined;
}

/** A tenant's provider override, its API key opened (or null when it has none or it cannot be opened). */
export interface OverrideSpec {
  providerId: string;
  provider: LlmProviderName;
  model: string;
  baseUrl: string | null;
  apiKey: string | null;
}

/** Default model of each provider when `LLM_MODEL` is unset. */
export const DEFAULT_MODELS: Readonly<Record<LlmProviderName, string>> = {
  openai: 'gpt-4o-mini',
  mistral: 'mistral-small-latest',
  local: LOCAL_EXTRACTIVE_MODEL,
};

export interface Catalogue {
  models: ModelSpec[];
  defaultId: string;
  /** Why configured models were left out (logged at start-up). */
  warnings: string[];
}

function credentials(
  s: ModelSettings,
  provider: LlmProviderName,
): { apiKey: string | null; baseUrl: string | null } {
  switch (provider) {
    case 'openai':
      return { apiKey: s.OPENAI_API_KEY ?? null, baseUrl: s.OPENAI_BASE_URL ?? null };
    case 'mistral':
      return { apiKey: s.MISTRAL_API_KEY ?? null, baseUrl: s.MISTRAL_BASE_URL ?? null };
    case 'local':
      return { apiKey: null, baseUrl: null };
    default: {
      const unreachable: never = provider;
      return unreachable;
    }
  }
}

const LOCAL: ModelSpec = {
  id: LOCAL_EXTRACTIVE_MODEL,
  provider: 'local',
  model: LOCAL_EXTRACTIVE_MODEL,
  source: 'configured',
  providerId: null,
  apiKey: null,
  baseUrl: null,
};

function usable(spec: Pick<ModelSpec, 'provider' | 'apiKey'>): boolean {
  return spec.provider === 'local' || spec.apiKey !== null;
}

/**
 * The deployment's models: the default (`LLM_PROVIDER`/`LLM_MODEL`), the `CHAT_MODELS`
 * entries, and always the local extractive answerer. A remote model without its
 * provider's key is left out; a default left out that way falls back to the local
 * answerer, with a warning, as the embed stage is skipped without its key. Pure.
 */
export function deploymentCatalogue(s: ModelSettings): Catalogue {
  const warnings: string[] = [];
  const byId = new Map<string, ModelSpec>();
  const add = (provider: LlmProviderName, model: string, source: ModelSource) => {
    const spec: ModelSpec =
      provider === 'local'
        ? { ...LOCAL, source }
        : { id: model, provider, model, source, providerId: null, ...credentials(s, provider) };
    if (!usable(spec)) {
      warnings.push(
        `chat model ${provider}:${model} left out: ${provider.toUpperCase()}_API_KEY is unset`,
      );
      return false;
    }
    if (!byId.has(spec.id)) byId.set(spec.id, spec);
    return true;
  };
  const defaultModel =
    s.LLM_PROVIDER === 'local'
      ? LOCAL_EXTRACTIVE_MODEL
      : (s.LLM_MODEL ?? DEFAULT_MODELS[s.LLM_PROVIDER]);
  let defaultId = defaultModel;
  if (!add(s.LLM_PROVIDER, defaultModel, 'default')) {
    warnings.push(`the default chat model is ${LOCAL_EXTRACTIVE_MODEL} instead`);
    defaultId = LOCAL_EXTRACTIVE_MODEL;
    add('local', LOCAL_EXTRACTIVE_MODEL, 'default');
  }
  for (const entry of (s.CHAT_MODELS ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf(':');
    const provider = entry.slice(0, at) as LlmProviderName;
    add(
      provider,
      provider === 'local' ? LOCAL_EXTRACTIVE_MODEL : entry.slice(at + 1),
      'configured',
    );
  }
  add('local', LOCAL_EXTRACTIVE_MODEL, 'configured');
  return { models: [...byId.values()], defaultId, warnings };
}

/**
 * The models of one tenant: its usable overrides first (newest first), replacing a
 * deployment model of the same id, then the deployment's. The tenant's default is its
 * newest usable override, else the deployment's default. An override without its own
 * key uses the deployment's key of that provider; without either it is left out. Pure.
 */
export function tenantCatalogue(
  deployment: Catalogue,
  overrides: readonly OverrideSpec[],
  s: ModelSettings,
): Catalogue {
  const warnings: string[] = [];
  const tenant: ModelSpec[] = [];
  for (const o of overrides) {
    const global = credentials(s, o.provider);
    const spec: ModelSpec =
      o.provider === 'local'
        ? { ...LOCAL, source: 'tenant_override', providerId: o.providerId }
        : {
            id: o.model,
            provider: o.provider,
            model: o.model,
            source: 'tenant_override',
            providerId: o.providerId,
            apiKey: o.apiKey ?? global.apiKey,
            baseUrl: o.baseUrl ?? global.baseUrl,
          };
    if (!usable(spec)) {
      warnings.push(`provider override ${o.providerId} left out: no API key for ${o.provider}`);
      continue;
    }
    if (!tenant.some((t) => t.id === spec.id)) tenant.push(spec);
  }
  const ids = new Set(tenant.map((t) => t.id));
  return {
    models: [...tenant, ...deployment.models.filter((m) => !ids.has(m.id))],
    defaultId: tenant[0]?.id ?? deployment.defaultId,
    warnings,
  };
}

/** The model `requested` names, or the catalogue's default when it names none; null when it names one not listed. Pure. */
export function resolveModel(
  catalogue: Catalogue,
  requested: string | null | undefined,
): ModelSpec | null {
  const id = requested ?? catalogue.defaultId;
  return catalogue.models.find((m) => m.id === id) ?? null;
}

/** `GET /models`: ids, providers and where each comes from, never a key or URL. Pure. */
export function modelList(catalogue: Catalogue): ModelList {
  const models: ModelInfo[] = catalogue.models.map((m) => ({
    id: m.id,
    provider: m.provider,
    source: m.source,
    provider_id: m.providerId,
    extractive: m.provider === 'local',
  }));
  return { default: catalogue.defaultId, models };
}
