import type { Config, Logger } from '@reports/platform';
import {
  MistralVision,
  OpenAiVision,
  sourceForBaseUrl,
  type VisionModel,
} from '@reports/providers';

/** Default vision model per provider when ANNOTATION_MODEL is unset. */
export function defaultAnnotationModel(provider: 'openai' | 'mistral', source: string): string {
  if (provider === 'mistral') return 'mistral-small-latest';
  return source === 'gemini' ? 'gemini-2.5-flash' : 'gpt-4o-mini';
}

/**
 * The configured vision model, or null for the local heuristic. A remote
 * provider without its credentials falls back to the heuristic with a warning
 * rather than stopping the service: figures still get an honest annotation.
 * An OpenAI-compatible base URL without a key is allowed (vLLM, Ollama need none).
 */
export function visionModelFor(config: Config, logger: Logger): VisionModel | null {
  switch (config.ANNOTATION_PROVIDER) {
    case 'local':
      return null;
    case 'openai': {
      if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) {
        logger.warn(
          'ANNOTATION_PROVIDER=openai without OPENAI_API_KEY: figures get the local heuristic',
        );
        return null;
      }
      const source = config.ANNOTATION_SOURCE ?? sourceForBaseUrl(config.OPENAI_BASE_URL);
      return new OpenAiVision({
        apiKey: config.OPENAI_API_KEY ?? 'no-key',
        baseURL: config.OPENAI_BASE_URL,
        model: config.ANNOTATION_MODEL ?? defaultAnnotationModel('openai', source),
        source,
        timeoutMs: config.ANNOTATION_TIMEOUT_MS,
      });
    }
    case 'mistral':
      if (!config.MISTRAL_API_KEY) {
        logger.warn(
          'ANNOTATION_PROVIDER=mistral without MISTRAL_API_KEY: figures get the local heuristic',
        );
        return null;
      }
      return new MistralVision({
        apiKey: config.MISTRAL_API_KEY,
        serverURL: config.MISTRAL_BASE_URL,
        model: config.ANNOTATION_MODEL ?? defaultAnnotationModel('mistral', 'mistral'),
        timeoutMs: config.ANNOTATION_TIMEOUT_MS,
      });
    default: {
      const unreachable: never = config.ANNOTATION_PROVIDER;
      return unreachable;
    }
  }
}
