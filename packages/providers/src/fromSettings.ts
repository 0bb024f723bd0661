import { LocalEmbedder } from './embedding/localEmbedder.js';
import type { Embedder } from './embedding/embedder.js';
import { MistralEmbedder, OpenAIEmbedder, type RetryOptions } from './embedding/remoteEmbedders.js';
import { LocalReranker } from './rerank/localReranker.js';
import { CohereReranker, type Reranker } from './rerank/reranker.js';
import {
  MistralTextGenerator,
  OpenAITextGenerator,
  type TextGenerator,
} from './text/textGenerator.js';

/** The configuration keys the provider choice reads (a subset of the platform's Config). */
export interface ProviderSettings {
  EMBEDDING_PROVIDER: 'local' | 'openai' | 'mistral';
  EMBEDDING_MODEL?: string | undefined;
  LLM_PROVIDER: 'local' | 'openai' | 'mistral';
  LLM_MODEL?: string | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  MISTRAL_API_KEY?: string | undefined;
  /** Mistral's API base URL; tests point it at a local server. */
  MISTRAL_BASE_URL?: string | undefined;
  RERANK_URL?: string | undefined;
  RERANK_ENABLED: boolean;
  RERANK_API_KEY?: string | undefined;
  RERANK_MODEL: string;
}

/**
 * The configured embedder, or null when a remote provider is chosen without its key (the spec
 * skips the embed stage then, and retrieval answers 503 `embedding_unavailable`).
 */
export function embedderFor(
  s: ProviderSettings,
  retry: Partial<RetryOptions> = {},
): Embedder | null {
  switch (s.EMBEDDING_PROVIDER) {
    case 'local':
      return new LocalEmbedder();
    case 'openai':
      return s.OPENAI_API_KEY
        ? new OpenAIEmbedder({
            apiKey: s.OPENAI_API_KEY,
            baseURL: s.OPENAI_BASE_URL,
            model: s.EMBEDDING_MODEL,
            ...retry,
          })
        : null;
    case 'mistral':
      return s.MISTRAL_API_KEY
        ? new MistralEmbedder({
            apiKey: s.MISTRAL_API_KEY,
            serverURL: s.MISTRAL_BASE_URL,
            model: s.EMBEDDING_MODEL,
            ...retry,
          })
        : null;
    default: {
      const unreachable: never = s.EMBEDDING_PROVIDER;
      return unreachable;
    }
  }
}

/** The model that writes text (HyDE), or null: the local provider writes nothing (it quotes). */
export function textGeneratorFor(s: ProviderSettings): TextGenerator | null {
  switch (s.LLM_PROVIDER) {
    case 'local':
      return null;
    case 'openai':
      return s.OPENAI_API_KEY
        ? new OpenAITextGenerator(
            { apiKey: s.OPENAI_API_KEY, baseURL: s.OPENAI_BASE_URL },
            s.LLM_MODEL,
          )
        : null;
    case 'mistral':
      return s.MISTRAL_API_KEY
        ? new MistralTextGenerator(
            { apiKey: s.MISTRAL_API_KEY, serverURL: s.MISTRAL_BASE_URL },
            s.LLM_MODEL,
          )
        : null;
    default: {
      const unreachable: never = s.LLM_PROVIDER;
      return unreachable;
    }
  }
}

/**
 * The reranker when `RERANK_ENABLED` is set: the Cohere-compatible endpoint at `RERANK_URL`, or
 * the local reranker without one. Null (off) when it is not set, the default.
 */
export function rerankerFor(s: ProviderSettings): Reranker | null {
  if (!s.RERANK_ENABLED) return null;
  if (!s.RERANK_URL) return new LocalReranker();
  return new CohereReranker({ url: s.RERANK_URL, apiKey: s.RERANK_API_KEY, model: s.RERANK_MODEL });
}
