import OpenAI from 'openai';
import {
  ChatModelError,
  describeProviderStatus,
  interrupted,
  type ChatModel,
  type ChatStreamEvent,
  type ChatStreamRequest,
  type ModelFinishReason,
  type TokenUsage,
} from './chatModel.js';
import { OpenAITextGenerator, type TextGenerator } from './textGenerator.js';

export interface OpenAIChatModelOptions {
  apiKey: string;
  /** Any OpenAI-compatible endpoint (OpenAI, Gemini's `/v1beta/openai`, vLLM, Ollama's `/v1`). */
  baseURL?: string | undefined;
  model: string;
  /** The SDK's retries of 408, 409, 429 and 5xx before the stream opens (Retry-After honoured). */
  maxRetries?: number;
  /** Time budget to get the response headers of one attempt; the stream itself is watched by the caller. */
  timeoutMs?: number;
}

function finishReason(raw: string): ModelFinishReason {
  if (raw === 'length') return 'length';
  if (raw === 'content_filter') return 'content_filter';
  // `stop`, and `tool_calls`/`function_call`, which a chat without tools does not ask for.
  return 'stop';
}

function classify(error: unknown): ChatModelError {
  if (error instanceof ChatModelError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new ChatModelError('timeout', 'the OpenAI-compatible endpoint did not answer in time', {
      cause: error,
    });
  if (error instanceof OpenAI.APIConnectionError)
    return new ChatModelError(
      'unavailable',
      'the OpenAI-compatible endpoint could not be reached',
      {
        cause: error,
      },
    );
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const e = describeProviderStatus('the OpenAI-compatible endpoint', error.status, error.message);
    return new ChatModelError(e.reason, e.message, { cause: error, status: error.status });
  }
  if (error instanceof SyntaxError)
    return new ChatModelError(
      'malformed',
      'the OpenAI-compatible endpoint sent data that is not JSON',
      {
        cause: error,
      },
    );
  // undici's `TypeError: terminated` and socket errors: the connection dropped mid-stream.
  return interrupted('the OpenAI-compatible endpoint', error);
}

/**
 * Chat through the OpenAI chat completions API with `stream: true` (SSE `data:` chunks,
 * then `data: [DONE]`), asking for the usage chunk (`stream_options.include_usage`).
 */
export class OpenAIChatModel implements ChatModel {
  readonly provider = 'openai' as const;
  readonly extractive = false;
  readonly model: string;
  readonly writer: TextGenerator;
  private readonly client: OpenAI;

  constructor(opts: OpenAIChatModelOptions) {
    this.model = opts.model;
    const retry = { maxRetries: opts.maxRetries ?? 2, timeoutMs: opts.timeoutMs ?? 60_000 };
    this.client = new OpenAI({
      apiKey: opts.apiKey,
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
      maxRetries: retry.maxRetries,
      timeout: retry.timeoutMs,
    });
    this.writer = new OpenAITextGenerator(
      { apiKey: opts.apiKey, baseURL: opts.baseURL, ...retry },
      opts.model,
    );
  }

  async *stream(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent> {
    const { signal } = request;
    let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
    try {
      stream = await this.client.chat.completions.create(
        {
          model: this.model,
          messages: request.messages,
          stream: true,
          stream_options: { include_usage: true },
          max_tokens: request.maxTokens,
          temperature: request.temperature ?? 0.2,
        },
        { signal },
      );
    } catch (error) {
      if (signal?.aborted) return;
      throw classify(error);
    }
    let finish: ModelFinishReason | null = null;
    let usage: TokenUsage | null = null;
    let model = this.model;
    try {
      for await (const chunk of stream) {
        if (typeof chunk.model === 'string' && chunk.model) model = chunk.model;
        const choice = chunk.choices?.[0];
        const text = choice?.delta?.content;
        if (typeof text === 'string' && text.length > 0) yield { type: 'delta', text };
        if (choice?.finish_reason) finish = finishReason(choice.finish_reason);
        if (chunk.usage)
          usage = {
            inputTokens: chunk.usage.prompt_tokens ?? 0,
            outputTokens: chunk.usage.completion_tokens ?? 0,
          };
      }
    } catch (error) {
      if (signal?.aborted) return;
      throw classify(error);
    }
    // The SDK ends quietly both when aborted and when the body ends without [DONE].
    if (signal?.aborted) return;
    if (!finish) throw interrupted('the OpenAI-compatible endpoint');
    yield { type: 'done', finishReason: finish, usage, model };
  }
}
