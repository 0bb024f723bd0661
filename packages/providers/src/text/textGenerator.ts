import OpenAI from 'openai';
import { Mistral } from '@mistralai/mistralai';
import {
  DEFAULT_RETRY,
  mistralRequestRetries,
  type RetryOptions,
} from '../embedding/remoteEmbedders.js';

/** One non-streaming completion request. */
export interface CompletionRequest {
  system?: string;
  prompt: string;
  maxTokens: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface Completion {
  text: string;
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
}

/**
 * A model that writes text (query expansion now; the chat extends it with streaming).
 * Local runs have none: the local LLM provider answers by quoting chunks and writes nothing new,
 * so features that need written text (HyDE) are off with it.
 */
export interface TextGenerator {
  readonly provider: string;
  readonly model: string;
  complete(request: CompletionRequest): Promise<Completion>;
}

export class TextGenerationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TextGenerationError';
  }
}

function messages(r: CompletionRequest): Array<{ role: 'system' | 'user'; content: string }> {
  return [
    ...(r.system ? [{ role: 'system' as const, content: r.system }] : []),
    { role: 'user' as const, content: r.prompt },
  ];
}

/** OpenAI-compatible chat completions (also vLLM, Ollama, Gemini through a base URL). */
export class OpenAITextGenerator implements TextGenerator {
  readonly provider = 'openai';
  private readonly client: OpenAI;

  constructor(
    opts: { apiKey: string; baseURL?: string | undefined } & Partial<RetryOptions>,
    readonly model: string = 'gpt-4o-mini',
  ) {
    const retry = { ...DEFAULT_RETRY, ...opts };
    this.client = new OpenAI({
      apiKey: opts.apiKey,
      baseURL: opts.baseURL,
      maxRetries: retry.maxRetries,
      timeout: retry.timeoutMs,
    });
  }

  async complete(r: CompletionRequest): Promise<Completion> {
    try {
      const res = await this.client.chat.completions.create(
        {
          model: this.model,
          messages: messages(r),
          max_tokens: r.maxTokens,
          temperature: r.temperature ?? 0.2,
          stream: false,
        },
        { signal: r.signal },
      );
      const text = res.choices?.[0]?.message?.content;
      if (typeof text !== 'string')
        throw new TextGenerationError('openai: the answer has no message content');
      return {
        text,
        model: res.model ?? this.model,
        inputTokens: res.usage?.prompt_tokens ?? null,
        outputTokens: res.usage?.completion_tokens ?? null,
      };
    } catch (error) {
      if (error instanceof TextGenerationError) throw error;
      throw new TextGenerationError(`openai completion: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** Mistral chat completions (`POST /v1/chat/completions`). */
export class MistralTextGenerator implements TextGenerator {
  readonly provider = 'mistral';
  private readonly client: Mistral;
  private readonly retry: RetryOptions;

  constructor(
    opts: { apiKey: string; serverURL?: string | undefined } & Partial<RetryOptions>,
    readonly model: string = 'mistral-small-latest',
  ) {
    this.retry = { ...DEFAULT_RETRY, ...opts };
    this.client = new Mistral({
      apiKey: opts.apiKey,
      ...(opts.serverURL ? { serverURL: opts.serverURL } : {}),
      timeoutMs: this.retry.timeoutMs,
    });
  }

  async complete(r: CompletionRequest): Promise<Completion> {
    try {
      const res = await this.client.chat.complete(
        {
          model: this.model,
          messages: messages(r),
          maxTokens: r.maxTokens,
          temperature: r.temperature ?? 0.2,
        },
        {
          fetchOptions: r.signal ? { signal: r.signal } : undefined,
          ...mistralRequestRetries(this.retry),
        },
      );
      const content = res.choices?.[0]?.message?.content;
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((c) => ('text' in c ? c.text : '')).join('')
            : null;
      if (typeof text !== 'string')
        throw new TextGenerationError('mistral: the answer has no message content');
      return {
        text,
        model: res.model ?? this.model,
        inputTokens: res.usage?.promptTokens ?? null,
        outputTokens: res.usage?.completionTokens ?? null,
      };
    } catch (error) {
      if (error instanceof TextGenerationError) throw error;
      throw new TextGenerationError(`mistral completion: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}
