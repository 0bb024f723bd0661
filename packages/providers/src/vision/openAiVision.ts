import OpenAI from 'openai';
import {
  AnnotatorError,
  dataUrl,
  type FigureImage,
  type ModelAnswer,
  type VisionModel,
} from './visionModel.js';

export interface OpenAiVisionOptions {
  apiKey: string;
  /** Any OpenAI-compatible endpoint: OpenAI, Gemini's `/v1beta/openai`, vLLM, Ollama's `/v1`. */
  baseURL?: string;
  model: string;
  /** Written as `annotation_source`. */
  source: string;
  /** Budget of one call with its retries. */
  timeoutMs: number;
  /** The SDK's retries on 429, 408, 409 and 5xx (exponential backoff, Retry-After honoured). */
  maxRetries?: number;
}

/**
 * `annotation_source` for an OpenAI-compatible endpoint: `gemini` for Google's
 * endpoint, `openai` otherwise (vLLM and Ollama speak the OpenAI protocol;
 * name them with ANNOTATION_SOURCE). Pure.
 */
export function sourceForBaseUrl(baseURL: string | undefined): string {
  if (!baseURL) return 'openai';
  try {
    return new URL(baseURL).hostname === 'generativelanguage.googleapis.com' ? 'gemini' : 'openai';
  } catch {
    return 'openai';
  }
}

function classify(error: unknown): AnnotatorError {
  if (error instanceof OpenAI.APIConnectionError || error instanceof OpenAI.APIUserAbortError)
    return new AnnotatorError(
      'unavailable',
      `model endpoint unreachable or too slow: ${error.message}`,
      {
        cause: error,
      },
    );
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    if (status === 429 || status === 408 || status >= 500 || status === 0)
      return new AnnotatorError('unavailable', `model endpoint answered ${status}`, {
        cause: error,
      });
    return new AnnotatorError(
      'rejected',
      `model endpoint refused the request (${status}): ${error.message}`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof SyntaxError)
    return new AnnotatorError('malformed', `model endpoint answered with a body that is not JSON`, {
      cause: error,
    });
  return new AnnotatorError('unavailable', error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

/** An OpenAI-compatible vision model through the `openai` package (chat completions with an image part). */
export class OpenAiVision implements VisionModel {
  readonly source: string;
  readonly model: string;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiVisionOptions) {
    this.source = options.source;
    this.model = options.model;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      maxRetries: options.maxRetries ?? 3,
      timeout: options.timeoutMs,
    });
  }

  async complete(
    prompt: { system: string; user: string },
    image: FigureImage,
    signal: AbortSignal,
  ): Promise<ModelAnswer> {
    let completion: unknown;
    try {
      completion = await this.client.chat.completions.create(
        {
          model: this.model,
          messages: [
            { role: 'system', content: prompt.system },
            {
              role: 'user',
              content: [
                { type: 'text', text: prompt.user },
                { type: 'image_url', image_url: { url: dataUrl(image) } },
              ],
            },
          ],
          // json_object rather than json_schema: Gemini, vLLM and Ollama all take it.
          response_format: { type: 'json_object' },
          temperature: 0,
        },
        { signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]) },
      );
    } catch (error) {
      throw classify(error);
    }
    // A 200 that is not a chat completion (a proxy's HTML page, say) comes back as text.
    const c = completion as {
      choices?: Array<{ message?: { content?: unknown } }>;
      usage?: { prompt_tokens?: number; completion_tokens?: number };
    };
    const content =
      typeof completion === 'object' && completion !== null
        ? c.choices?.[0]?.message?.content
        : undefined;
    if (typeof content !== 'string')
      throw new AnnotatorError('malformed', 'model endpoint answered without a message');
    return {
      content,
      usage: {
        input_tokens: c.usage?.prompt_tokens ?? 0,
        output_tokens: c.usage?.completion_tokens ?? 0,
      },
    };
  }
}
