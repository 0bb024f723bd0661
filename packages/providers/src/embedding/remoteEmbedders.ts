import OpenAI from 'openai';
import { Mistral } from '@mistralai/mistralai';
import { EMBEDDING_DIMENSIONS, normalise, type Embedder } from './embedder.js';

/** A remote embedding call that failed for good (after the SDK's retries), or answered nonsense. */
export class EmbeddingProviderError extends Error {
  constructor(
    message: string,
    readonly reason: 'unavailable' | 'malformed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmbeddingProviderError';
  }
}

/** Retry settings shared by the remote providers: 429 and 5xx are retried with backoff by the SDKs. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff; tests shorten it. */
  initialBackoffMs: number;
  /** Time budget of one HTTP attempt. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 3,
  initialBackoffMs: 500,
  timeoutMs: 60_000,
};

/**
 * Per-request retry options of the Mistral SDK for `retry`: exponential backoff on 429 and
 * 5xx and on connection errors. The SDK retries until a time has passed (it has no attempt
 * count): about `maxRetries` doublings of the first backoff plus its jitter (up to 1 s each).
 */
export function mistralRequestRetries(retry: RetryOptions) {
  return {
    retries: {
      strategy: 'backoff' as const,
      backoff: {
        initialInterval: retry.initialBackoffMs,
        maxInterval: Math.max(retry.initialBackoffMs * 16, 1000),
        exponent: 2,
        maxElapsedTime:
          retry.initialBackoffMs * 2 ** (retry.maxRetries + 1) + retry.maxRetries * 1000,
      },
      retryConnectionErrors: true,
    },
    retryCodes: ['429', '500', '502', '503', '504'],
  };
}

function checkVectors(raw: unknown[], count: number, provider: string): number[][] {
  if (raw.length !== count) {
    throw new EmbeddingProviderError(
      `${provider}: ${raw.length} embeddings for ${count} inputs`,
      'malformed',
    );
  }
  return raw.map((v) => {
    if (
      !Array.isArray(v) ||
      v.length === 0 ||
      !v.every((x) => typeof x === 'number' && Number.isFinite(x))
    ) {
      throw new EmbeddingProviderError(
        `${provider}: an embedding is not a list of numbers`,
        'malformed',
      );
    }
    return v as number[];
  });
}

/**
 * Fits a provider vector to the stored 1536 dimensions: shorter ones (Mistral's 1024) are
 * zero-padded, which keeps every dot product and norm, so cosine similarity between two padded
 * vectors is exactly the provider's; then normalised. Longer ones are refused: cutting them is
 * only sound for models trained for it, and those are asked for 1536 directly.
 */
export function fitDimensions(v: number[], provider: string): number[] {
  if (v.length > EMBEDDING_DIMENSIONS) {
    throw new EmbeddingProviderError(
      `${provider}: ${v.length} dimensions, more than the ${EMBEDDING_DIMENSIONS} stored`,
      'malformed',
    );
  }
  const padded =
    v.length === EMBEDDING_DIMENSIONS
      ? v
      : [...v, ...new Array<number>(EMBEDDING_DIMENSIONS - v.length).fill(0)];
  return normalise(padded);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * OpenAI-compatible embeddings (`POST {baseURL}/embeddings`) with `dimensions: 1536`. The `openai`
 * SDK retries 408, 409, 429 and 5xx (honouring `retry-after`) up to `maxRetries` times.
 */
export class OpenAIEmbedder implements Embedder {
  readonly provider = 'openai';
  readonly maxBatch = 128;
  private readonly client: OpenAI;

  constructor(
    opts: {
      apiKey: string;
      baseURL?: string | undefined;
      model?: string | undefined;
    } & Partial<RetryOptions>,
    readonly model: string = opts.model ?? 'text-embedding-3-small',
  ) {
    const retry = { ...DEFAULT_RETRY, ...opts };
    this.client = new OpenAI({
      apiKey: opts.apiKey,
      baseURL: opts.baseURL,
      maxRetries: retry.maxRetries,
      timeout: retry.timeoutMs,
    });
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    let data: Array<{ index: number; embedding: unknown }>;
    try {
      const res = await this.client.embeddings.create(
        {
          model: this.model,
          input: texts,
          dimensions: EMBEDDING_DIMENSIONS,
          encoding_format: 'float',
        },
        { signal },
      );
      if (!res || !Array.isArray(res.data))
        throw new EmbeddingProviderError('openai: no data in the answer', 'malformed');
      data = res.data as Array<{ index: number; embedding: unknown }>;
    } catch (error) {
      if (error instanceof EmbeddingProviderError) throw error;
      throw new EmbeddingProviderError(`openai embeddings: ${describe(error)}`, 'unavailable', {
        cause: error,
      });
    }
    const ordered = [...data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    return checkVectors(ordered, texts.length, 'openai').map((v) => fitDimensions(v, 'openai'));
  }
}

/**
 * Mistral embeddings (`POST {serverURL}/v1/embeddings`, `mistral-embed`: 1024 dimensions,
 * zero-padded to 1536 and normalised, see `fitDimensions`). The SDK retries 429 and 5xx with
 * exponential backoff when given a retry configuration, which this class always does.
 */
export class MistralEmbedder implements Embedder {
  readonly provider = 'mistral';
  readonly maxBatch = 64;
  private readonly client: Mistral;
  private readonly retry: RetryOptions;

  constructor(
    opts: {
      apiKey: string;
      serverURL?: string | undefined;
      model?: string | undefined;
    } & Partial<RetryOptions>,
    readonly model: string = opts.model ?? 'mistral-embed',
  ) {
    this.retry = { ...DEFAULT_RETRY, ...opts };
    this.client = new Mistral({
      apiKey: opts.apiKey,
      ...(opts.serverURL ? { serverURL: opts.serverURL } : {}),
      timeoutMs: this.retry.timeoutMs,
    });
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    let data: Array<{ index?: number | undefined; embedding?: unknown }>;
    try {
      const res = await this.client.embeddings.create(
        { model: this.model, inputs: texts },
        {
          fetchOptions: signal ? { signal } : undefined,
          ...mistralRequestRetries(this.retry),
        },
      );
      data = res.data;
    } catch (error) {
      throw new EmbeddingProviderError(`mistral embeddings: ${describe(error)}`, 'unavailable', {
        cause: error,
      });
    }
    const ordered = [...data]
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((d) => d.embedding);
    return checkVectors(ordered, texts.length, 'mistral').map((v) => fitDimensions(v, 'mistral'));
  }
}
