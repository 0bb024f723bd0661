import { startFakeServer, type FakeServer, type RecordedRequest } from './server.js';
import { RICH_ANNOTATION } from './mistral.js';

/** Path of the chat completions API under an OpenAI-compatible base URL ending in `/v1`. */
export const OPENAI_CHAT_PATH = '/v1/chat/completions';

export interface FakeOpenAiOptions {
  /** The assistant message content (by default a rich annotation as JSON). */
  chatContent?(request: RecordedRequest): string;
}

/** A chat completion as OpenAI's API (and Gemini's, vLLM's, Ollama's compatible ones) returns it. */
export function openAiChatCompletion(content: string, model = 'gpt-4o-mini'): unknown {
  return {
    id: `chatcmpl-${Math.random().toString(16).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
  };
}

/**
 * A local server speaking the OpenAI chat completions protocol
 * (`POST /v1/chat/completions`); point the SDK at `${url}/v1`. `script()` makes
 * the next requests fail (429, 5xx, hang, malformed body).
 */
export async function startFakeOpenAi(opts: FakeOpenAiOptions = {}): Promise<FakeServer> {
  return startFakeServer([
    {
      method: 'POST',
      path: OPENAI_CHAT_PATH,
      success: (request) =>
        openAiChatCompletion(
          opts.chatContent ? opts.chatContent(request) : JSON.stringify(RICH_ANNOTATION),
          String((request.body as { model?: string } | null)?.model ?? 'gpt-4o-mini'),
        ),
    },
  ]);
}
