import type {
  ChatChunkEvent,
  ChatEndEvent,
  ChatErrorEvent,
  ChatRequest,
  ChatStartEvent,
} from '@reports/contracts';
import type { RunningSystem } from './system.js';
import type { Session } from './client.js';
import { sseMessages } from './sse.js';

export type ChatEvent =
  | { event: 'start'; data: ChatStartEvent }
  | { event: 'chunk'; data: ChatChunkEvent }
  | { event: 'end'; data: ChatEndEvent }
  | { event: 'error'; data: ChatErrorEvent };

/** What `POST /chat` answered: a JSON error, or the SSE stream as events. */
export interface ChatAnswer {
  status: number;
  headers: Headers;
  /** The JSON body of an answer that is not a stream. */
  body: { code?: string; detail?: string } | null;
  events: ChatEvent[];
  /** Raw text of the stream, as it came. */
  raw: string;
  text: string;
  start: ChatStartEvent | null;
  end: ChatEndEvent | null;
  error: ChatErrorEvent | null;
}

/**
 * `POST /chat` as a browser's fetch reads it: the SSE stream is parsed event by event
 * (`event:` and one `data:` line of JSON). `abortAfterChunks` closes the connection
 * after that many chunks, as a person closing the tab.
 */
export async function chat(
  system: RunningSystem,
  session: Session,
  body: Partial<ChatRequest> & Record<string, unknown>,
  opts: {
    abortAfterChunks?: number;
    timeoutMs?: number;
    headers?: Record<string, string>;
    /** Called with each event as it arrives. */
    onEvent?: (event: ChatEvent) => void;
  } = {},
): Promise<ChatAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 90_000);
  const res = await fetch(`${system.url}/chat`, {
    method: 'POST',
    headers: { ...session.headers({ 'content-type': 'application/json' }), ...opts.headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const answer: ChatAnswer = {
    status: res.status,
    headers: res.headers,
    body: null,
    events: [],
    raw: '',
    text: '',
    start: null,
    end: null,
    error: null,
  };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream') || !res.body) {
    clearTimeout(timer);
    const text = await res.text();
    answer.body = text ? (JSON.parse(text) as ChatAnswer['body']) : null;
    return answer;
  }
  let chunks = 0;
  try {
    const messages = sseMessages(res.body as AsyncIterable<Uint8Array>, (text) => {
      answer.raw += text;
    });
    for await (const message of messages) {
      if (!message.event) continue;
      const event = { event: message.event, data: JSON.parse(message.data) } as ChatEvent;
      answer.events.push(event);
      opts.onEvent?.(event);
      if (event.event === 'chunk') {
        chunks += 1;
        answer.text += event.data.text;
        if (opts.abortAfterChunks === chunks) {
          controller.abort();
          return finish(answer);
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return finish(answer);
}

function finish(answer: ChatAnswer): ChatAnswer {
  for (const e of answer.events) {
    if (e.event === 'start') answer.start = e.data;
    if (e.event === 'end') answer.end = e.data;
    if (e.event === 'error') answer.error = e.data;
  }
  return answer;
}
