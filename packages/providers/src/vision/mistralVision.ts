import { Mistral } from '@mistralai/mistralai';
import {
  ConnectionError,
  MistralError,
  RequestAbortedError,
  RequestTimeoutError,
  ResponseValidationError,
  SDKValidationError,
} from '@mistralai/mistralai/models/errors';
import {
  AnnotatorError,
  dataUrl,
  type FigureImage,
  type ModelAnswer,
  type VisionModel,
} from './visionModel.js';

export interface MistralVisionOptions {
  apiKey: string;
  serverURL?: string;
  model: string;
  timeoutMs: number;
  /** Backoff of the SDK's retries on 429 and 5xx (milliseconds). */
  retry?: { initialIntervalMs?: number; maxIntervalMs?: number; maxElapsedMs?: number };
}

function classify(error: unknown): AnnotatorError {
  if (
    error instanceof RequestTimeoutError ||
    error instanceof RequestAbortedError ||
    error instanceof ConnectionError
  )
    return new AnnotatorError('unavailable', `Mistral unreachable or too slow: ${error.message}`, {
      cause: error,
    });
  if (
    error instanceof ResponseValidationError ||
    error instanceof SDKValidationError ||
    error instanceof SyntaxError
  )
    return new AnnotatorError(
      'malformed',
      `Mistral answered with a malformed body: ${error.message}`,
      { cause: error },
    );
  if (error instanceof MistralError) {
    const status = error.statusCode;
    if (status >= 200 && status < 300)
      return new AnnotatorError('malformed', `Mistral answered with a malformed body`, {
        cause: error,
      });
    if (status === 429 || status >= 500)
      return new AnnotatorError('unavailable', `Mistral answered ${status}`, { cause: error });
    return new AnnotatorError('rejected', `Mistral refused the request (${status})`, {
      cause: error,
    });
  }
  return new AnnotatorError('unavailable', error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

/** A Mistral vision model (chat with an `image_url` content part) through `@mistralai/mistralai`. */
export class MistralVision implements VisionModel {
  readonly source = 'mistral';
  readonly model: string;
  private readonly client: Mistral;

  constructor(private readonly options: MistralVisionOptions) {
    this.model = options.model;
    this.client = new Mistral({
      apiKey: options.apiKey,
      ...(options.serverURL ? { serverURL: options.serverURL } : {}),
      retryConfig: {
        strategy: 'backoff',
        backoff: {
          initialInterval: options.retry?.initialIntervalMs ?? 500,
          maxInterval: options.retry?.maxIntervalMs ?? 10_000,
          exponent: 1.5,
          maxElapsedTime: options.retry?.maxElapsedMs ?? 30_000,
        },
        retryConnectionErrors: false,
      },
    });
  }

  async complete(
    prompt: { system: string; user: string },
    image: FigureImage,
    signal: AbortSignal,
  ): Promise<ModelAnswer> {
    try {
      const response = await this.client.chat.complete(
        {
          model: this.model,
          messages: [
            { role: 'system', content: prompt.system },
            {
              role: 'user',
              content: [
                { type: 'text', text: prompt.user },
                { type: 'image_url', imageUrl: dataUrl(image) },
              ],
            },
          ],
          responseFormat: { type: 'json_object' },
          temperature: 0,
        },
        { signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]) },
      );
      const content = response.choices[0]?.message?.content;
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content
                .map((chunk) =>
                  'text' in chunk && typeof chunk.text === 'string' ? chunk.text : '',
                )
                .join('')
            : null;
      if (text === null)
        throw new AnnotatorError('malformed', 'Mistral answered without a message');
      return {
        content: text,
        usage: {
          input_tokens: response.usage.promptTokens ?? 0,
          output_tokens: response.usage.completionTokens ?? 0,
        },
      };
    } catch (error) {
      if (error instanceof AnnotatorError) throw error;
      throw classify(error);
    }
  }
}
