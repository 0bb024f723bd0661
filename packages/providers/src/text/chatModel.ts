import type { TextGenerator } from './textGenerator.js';

/** One message sent to a chat model. */
export interface ChatTurnMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * One document of a turn's context, as the system prompt carries it. Remote models
 * read it only through the messages; the local extractive answerer reads it here.
 */
export interface ContextDocument {
  /** Citation key (`C1` for a chunk, `R1` for a report, `S1` for a snapshot). */
  ref: string;
  /** Where it comes from, for people (`Roof coverings`, `survey.pdf`...). */
  title: string;
  text: string;
  /** How an answer cites it for people (`Inspection.pdf p. 12`); absent: by `ref`. */
  citation?: string;
  /** The attachment's file name when the text comes from an attachment. */
  attachment?: string | null;
  /** The user's own earlier exchange recalled by chat memory, not the report. */
  memory?: boolean;
}

export interface ChatStreamRequest {
  /** System prompt first, then the history, then the user's message. */
  messages: ChatTurnMessage[];
  documents: ContextDocument[];
  /** What is asked (the standalone query of a rag turn, else the message). */
  query: string;
  maxTokens: number;
  temperature?: number;
  /** Aborting it stops the model call: the stream then ends without a `done` event. */
  signal?: AbortSignal;
}

/** Tokens a provider reports for one call. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Why the model stopped on its own. */
export type ModelFinishReason = 'stop' | 'length' | 'content_filter';

export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  | {
      type: 'done';
      finishReason: ModelFinishReason;
      /** Null when the provider did not report usage (and for the local model). */
      usage: TokenUsage | null;
      /** The model that answered, as the provider names it. */
      model: string;
    };

/**
 * A chat model that streams its answer. The stream yields `delta`s and then exactly
 * one `done`; it throws a `ChatModelError` when the call fails (before or during the
 * answer, including a stream cut off before the model said it was finished), and
 * simply ends, without `done`, when the request's signal is aborted.
 */
export interface ChatModel {
  readonly provider: 'openai' | 'mistral' | 'local';
  readonly model: string;
  /** True for the local extractive answerer: it quotes the documents and writes nothing new. */
  readonly extractive: boolean;
  /**
   * The same model for one-shot completions (the chat's standalone-query rewrite), the
   * `TextGenerator` retrieval uses for HyDE; null for a model that writes nothing new.
   */
  readonly writer: TextGenerator | null;
  stream(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent>;
}

/**
 * Why a model call failed: `unavailable` (unreachable, 429 or 5xx after the SDK's
 * retries), `rejected` (4xx: key, model name, request), `interrupted` (the stream broke
 * off mid-answer), `malformed` (an answer the protocol does not allow), `timeout` (no
 * data for too long).
 */
export type ChatModelFailure = 'unavailable' | 'rejected' | 'interrupted' | 'malformed' | 'timeout';

/** A failed chat model call, with a message fit to show the person waiting for the answer. */
export class ChatModelError extends Error {
  /** HTTP status the provider answered, when it answered one. */
  readonly status: number | null;

  constructor(
    readonly reason: ChatModelFailure,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options);
    this.name = 'ChatModelError';
    this.status = options?.status ?? null;
  }
}

/** Describes an HTTP status of a model provider for people. Pure. */
export function describeProviderStatus(
  provider: string,
  status: number,
  message: string,
): ChatModelError {
  if (status === 429)
    return new ChatModelError(
      'unavailable',
      `${provider} is rate limiting requests (HTTP 429); try again in a moment`,
      { status },
    );
  if (status >= 500)
    return new ChatModelError(
      'unavailable',
      `${provider} failed (HTTP ${status}); try again later`,
      {
        status,
      },
    );
  if (status === 401 || status === 403)
    return new ChatModelError('rejected', `${provider} refused the API key (HTTP ${status})`, {
      status,
    });
  if (status === 404)
    return new ChatModelError('rejected', `${provider} does not know this model (HTTP 404)`, {
      status,
    });
  return new ChatModelError(
    'rejected',
    `${provider} rejected the request (HTTP ${status})${message ? `: ${message.slice(0, 300)}` : ''}`,
    { status },
  );
}

/** The message of a mid-stream failure (the connection dropped, or the stream ended early). */
export function interrupted(provider: string, cause?: unknown): ChatModelError {
  return new ChatModelError(
    'interrupted',
    `${provider} stopped sending the answer before it was finished`,
    { cause },
  );
}
