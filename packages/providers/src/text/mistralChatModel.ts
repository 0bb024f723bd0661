import { Mistral } from '@mistralai/mistralai';
import type { CompletionEvent } from '@mistralai/mistralai/models/components';
import {
  ConnectionError,
  MistralError,
  RequestTimeoutError,
} from '@mistralai/mistralai/models/errors';
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
import { MistralTextGenerator, type TextGenerator } from './textGenerator.js';

export interface MistralChatModelOptions {
  apiKey: string;
  /** Mistral's API base URL (a proxy, or a local server in tests); the SDK's default when unset. */
  serverURL?: string | undefined;
  model: string;
  /** Retries of 429 and 5xx before the stream opens, with exponential backoff from `initialBackoffMs`. */
  maxRetries?: number;
  initialBackoffMs?: number;
  /** Time budget of the one-shot completions (the query rewrite); the stream is watched by the caller. */
  timeoutMs?: number;
}

function finishReason(raw: string): ModelFinishReason | 'error' {
  if (raw === 'length' || raw === 'model_length') return 'length';
  if (raw === 'error') return 'error';
  return 'stop';
}

function classify(error: unknown): ChatModelError {
  if (error instanceof ChatModelError) return error;
  if (error instanceof MistralError) {
    const e = describeProviderStatus('Mistral', error.statusCode, error.body);
    return new ChatModelError(e.reason, e.message, { cause: error, status: error.statusCode });
  }
  if (error instanceof RequestTimeoutError)
    return new ChatModelError('timeout', 'Mistral did not answer in time', { cause: error });
  if (error instanceof ConnectionError)
    return new ChatModelError('unavailable', 'Mistral could not be reached', { cause: error });
  if (error instanceof SyntaxError || (error instanceof Error && error.name === 'ZodError'))
    return new ChatModelError(
      'malformed',
      'Mistral sent a stream event the protocol does not allow',
      {
        cause: error,
      },
    );
  return interrupted('Mistral', error);
}

/**
 * Chat through Mistral's chat completions stream (`POST /v1/chat/completions` with
 * `stream: true`: SSE `data:` completion chunks, usage on the last one, then `data: [DONE]`).
 */
export class MistralChatModel implements ChatModel {
  readonly provider = 'mistral' as const;
  readonly extractive = false;
  readonly model: string;
  readonly writer: TextGenerator;
  private readonly client: Mistral;
  private readonly maxRetries: number;
  private readonly initialBackoffMs: number;

  constructor(opts: MistralChatModelOptions) {
    this.model = opts.model;
    this.maxRetries = opts.maxRetries ?? 2;
    this.initialBackoffMs = opts.initialBackoffMs ?? 500;
    const timeoutMs = opts.timeoutMs ?? 60_000;
    this.client = new Mistral({
      apiKey: opts.apiKey,
      ...(opts.serverURL ? { serverURL: opts.serverURL } : {}),
      timeoutMs,
    });
    this.writer = new MistralTextGenerator(
      {
        apiKey: opts.apiKey,
        serverURL: opts.serverURL,
        maxRetries: this.maxRetries,
        initialBackoffMs: this.initialBackoffMs,
        timeoutMs,
      },
      opts.model,
    );
  }

  async *stream(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent> {
    const { signal } = request;
    let events: AsyncIterable<CompletionEvent>;
    try {
      events = await this.client.chat.stream(
        {
          model: this.model,
          messages: request.messages,
          maxTokens: request.maxTokens,
          temperature: request.temperature ?? 0.2,
        },
        {
          // Our own signal replaces the SDK's whole-request timeout, which would also cut a long answer.
          ...(signal ? { fetchOptions: { signal } } : {}),
          retries: {
            strategy: 'backoff',
            backoff: {
              initialInterval: this.initialBackoffMs,
              maxInterval: Math.max(this.initialBackoffMs * 16, 1000),
              exponent: 2,
              // The SDK retries until this much time has passed (it has no attempt count).
              maxElapsedTime: this.initialBackoffMs * 2 ** (this.maxRetries + 1),
            },
            retryConnectionErrors: true,
          },
          retryCodes: ['429', '500', '502', '503', '504'],
        },
      );
    } catch (error) {
      if (signal?.aborted) return;
      throw classify(error);
    }
    let finish: ModelFinishReason | null = null;
    let usage: TokenUsage | null = null;
    let model = this.model;
    try {
      for await (const event of events) {
        const chunk = event.data;
        if (chunk.model) model = chunk.model;
        const choice = chunk.choices[0];
        const content = choice?.delta.content;
        const text =
          typeof content === 'string'
            ? content
            : Array.isArray(content)
              ? content
                  .map((c) => ('text' in c && typeof c.text === 'string' ? c.text : ''))
                  .join('')
              : '';
        if (text.length > 0) yield { type: 'delta', text };
        if (chunk.usage)
          usage = {
            inputTokens: chunk.usage.promptTokens ?? 0,
            outputTokens: chunk.usage.completionTokens ?? 0,
          };
        if (choice?.finishReason) {
          const reason = finishReason(choice.finishReason);
          if (reason === 'error')
            throw new ChatModelError(
              'interrupted',
              'Mistral reported an error in the middle of the answer',
            );
          finish = reason;
        }
      }
    } catch (error) {
      if (signal?.aborted) return;
      throw classify(error);
    }
    if (signal?.aborted) return;
    // The SDK ends quietly when the body ends without [DONE]: only a finish reason says the answer is whole.
    if (!finish) throw interrupted('Mistral');
    yield { type: 'done', finishReason: finish, usage, model };
  }
}
