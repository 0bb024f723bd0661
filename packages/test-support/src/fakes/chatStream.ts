import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './server.js';

/** Whose wire format the fake speaks; both serve `POST /v1/chat/completions`. */
export type ChatFlavour = 'openai' | 'mistral';

export const CHAT_COMPLETIONS_PATH = '/v1/chat/completions';

/** What the fake does with one chat request instead of answering normally. */
export type ChatBehaviour =
  /** Answers this status before any stream (429 with `retry-after`, 500, 503...). */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /**
   * Streams `afterChunks` content chunks, then breaks off: `reset` destroys the socket
   * (a dropped connection), `end` ends the response cleanly without a finish reason or `[DONE]`.
   */
  | { kind: 'cut'; afterChunks: number; how?: 'reset' | 'end' }
  /** Sends the headers at once and the first chunk only after `firstChunkDelayMs`. */
  | { kind: 'slow'; firstChunkDelayMs: number }
  /** Streams with `chunkDelayMs` between chunks (a long answer the client can walk away from). */
  | { kind: 'drip'; chunkDelayMs: number }
  /** Sends the headers, then nothing at all. */
  | { kind: 'hang' }
  /** Streams one `data:` line that is not JSON. */
  | { kind: 'malformed' };

/** One streamed answer as the fake saw it end. */
export interface StreamRecord {
  request: RecordedRequest;
  /** Content chunks written before the stream ended one way or another. */
  chunksSent: number;
  /** True when the client closed the connection before the fake finished the stream. */
  clientAborted: boolean;
  finished: boolean;
}

export interface FakeChatModelOptions {
  flavour: ChatFlavour;
  /**
   * The assistant's answer to a request. By default the fake echoes what it was sent:
   * every message as `[role] content`, one per paragraph.
   */
  answer?(request: RecordedRequest): string;
  /** Characters per streamed content chunk (default 16). */
  chunkChars?: number;
}

export interface FakeChatModel {
  flavour: ChatFlavour;
  /** The base URL an SDK is pointed at: `${url}/v1` for the openai package, `url` for Mistral's. */
  url: string;
  /** Every request, in arrival order (streamed or not). */
  requests: RecordedRequest[];
  /** Streamed requests once they ended, in the order they ended. */
  streams: StreamRecord[];
  /** Queues behaviours for the next streamed chat requests, used once each, in order. */
  script(...behaviours: ChatBehaviour[]): void;
  /** Applies `behaviour` to every request `when` matches, until `reset()` (queued ones first). */
  rule(when: (request: RecordedRequest) => boolean, behaviour: ChatBehaviour): void;
  reset(): void;
  /** Resolves once `n` streams have ended (finished, cut or abandoned by the client). */
  waitForStreams(n: number, timeoutMs?: number): Promise<StreamRecord[]>;
  close(): Promise<void>;
}

interface WireMessage {
  role?: string;
  content?: unknown;
}

/** The text of a message's content (a string, or content parts with `text`). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) =>
        p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text) : '',
      )
      .join('');
  return '';
}

/** The default answer: everything the model was sent, so a test can see what reached it. */
export function echoAnswer(request: RecordedRequest): string {
  const messages = ((request.body as { messages?: WireMessage[] } | null)?.messages ?? []).map(
    (m) => `[${m.role ?? '?'}] ${textOf(m.content)}`,
  );
  return messages.join('\n\n');
}

/** Rough token counts (4 characters a token), deterministic, as a provider reports usage. */
function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function promptText(request: RecordedRequest): string {
  return ((request.body as { messages?: WireMessage[] } | null)?.messages ?? [])
    .map((m) => textOf(m.content))
    .join('\n');
}

function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A local server speaking a chat completions API on 127.0.0.1: with `stream: true`
 * the provider's SSE stream (`openai`: `chat.completion.chunk`s, a finish chunk, a
 * usage chunk when `stream_options.include_usage`, `data: [DONE]`; `mistral`: completion
 * chunks with usage on the last, `data: [DONE]`), otherwise one JSON completion.
 * `script()` and `rule()` make it fail the way real endpoints do.
 */
export async function startFakeChatModel(opts: FakeChatModelOptions): Promise<FakeChatModel> {
  const requests: RecordedRequest[] = [];
  const streams: StreamRecord[] = [];
  const queue: ChatBehaviour[] = [];
  const rules: Array<{ when: (r: RecordedRequest) => boolean; behaviour: ChatBehaviour }> = [];
  const waiters = new Set<() => void>();
  const answerOf = opts.answer ?? echoAnswer;
  const chunkChars = opts.chunkChars ?? 16;
  let counter = 0;

  const completion = (request: RecordedRequest, content: string, model: string) => {
    const usage = {
      prompt_tokens: tokens(promptText(request)),
      completion_tokens: tokens(content),
    };
    const total = usage.prompt_tokens + usage.completion_tokens;
    return opts.flavour === 'openai'
      ? {
          id: `chatcmpl-fake${++counter}`,
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
          usage: { ...usage, total_tokens: total },
        }
      : {
          id: `cmpl-fake${++counter}`,
          object: 'chat.completion',
          model,
          created: Math.floor(Date.now() / 1000),
          usage: { ...usage, total_tokens: total },
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content, tool_calls: null },
              finish_reason: 'stop',
            },
          ],
        };
  };

  async function streamAnswer(
    req: IncomingMessage,
    res: ServerResponse,
    request: RecordedRequest,
    behaviour: ChatBehaviour | undefined,
  ): Promise<void> {
    const body = request.body as { model?: string; stream_options?: { include_usage?: boolean } };
    const model =
      body.model ?? (opts.flavour === 'openai' ? 'gpt-4o-mini' : 'mistral-small-latest');
    const id = `${opts.flavour === 'openai' ? 'chatcmpl' : 'cmpl'}-fake${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const content = answerOf(request);
    const record: StreamRecord = { request, chunksSent: 0, clientAborted: false, finished: false };
    let closed = false;
    res.once('close', () => {
      closed = true;
      if (!record.finished && !res.writableFinished) record.clientAborted = true;
    });
    const settle = () => {
      streams.push(record);
      for (const w of waiters) w();
    };
    const write = (payload: unknown) => {
      if (!closed)
        res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
    };
    const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: unknown) =>
      opts.flavour === 'openai'
        ? {
            id,
            object: 'chat.completion.chunk',
            created,
            model,
            system_fingerprint: null,
            choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
            ...(body.stream_options?.include_usage ? { usage: null } : {}),
          }
        : {
            id,
            object: 'chat.completion.chunk',
            created,
            model,
            choices: [{ index: 0, delta, finish_reason: finish }],
            ...(usage ? { usage } : {}),
          };

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    if (behaviour?.kind === 'hang') {
      await new Promise<void>((resolve) => res.once('close', () => resolve()));
      settle();
      return;
    }
    if (behaviour?.kind === 'slow') await sleep(behaviour.firstChunkDelayMs);
    write(chunk({ role: 'assistant', content: '' }, null));
    if (behaviour?.kind === 'malformed') {
      write('{"id": "broken", "choices": [ {"delta": ');
      res.end();
      record.finished = true;
      settle();
      return;
    }
    const pieces = split(content, chunkChars);
    for (const piece of pieces) {
      if (closed) break;
      if (behaviour?.kind === 'cut' && record.chunksSent >= behaviour.afterChunks) {
        if ((behaviour.how ?? 'reset') === 'reset') res.socket?.destroy();
        else res.end();
        record.finished = true;
        settle();
        return;
      }
      if (behaviour?.kind === 'drip') await sleep(behaviour.chunkDelayMs);
      if (closed) break;
      write(chunk({ content: piece }, null));
      record.chunksSent += 1;
      // Let each chunk leave as its own write, as a real token stream does.
      await new Promise((r) => setImmediate(r));
    }
    if (closed) {
      settle();
      return;
    }
    const usage = {
      prompt_tokens: tokens(promptText(request)),
      completion_tokens: tokens(content),
    };
    const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    if (opts.flavour === 'openai') {
      write(chunk({}, 'stop'));
      if (body.stream_options?.include_usage)
        write({
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [],
          usage: fullUsage,
        });
    } else {
      write(chunk({ content: '' }, 'stop', fullUsage));
    }
    write('[DONE]');
    record.finished = true;
    res.end();
    settle();
  }

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body: parsed,
      };
      requests.push(request);
      if (req.method !== 'POST' || path !== CHAT_COMPLETIONS_PATH) {
        sendJson(res, 404, { detail: 'Not Found' });
        return;
      }
      const streamed = (parsed as { stream?: boolean } | null)?.stream === true;
      // Queued behaviours are for streamed answers: a one-shot completion on the same
      // endpoint (a query rewrite, a HyDE passage) must not use them up.
      const behaviour =
        (streamed ? queue.shift() : undefined) ?? rules.find((r) => r.when(request))?.behaviour;
      if (behaviour?.kind === 'status') {
        sendJson(
          res,
          behaviour.status,
          behaviour.body ?? { message: `status ${behaviour.status}` },
          behaviour.headers,
        );
        return;
      }
      const body = parsed as { model?: string } | null;
      if (streamed) {
        await streamAnswer(req, res, request, behaviour);
        return;
      }
      if (behaviour?.kind === 'hang') return;
      if (behaviour?.kind === 'malformed') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "broken", ');
        return;
      }
      const model =
        body?.model ?? (opts.flavour === 'openai' ? 'gpt-4o-mini' : 'mistral-small-latest');
      sendJson(res, 200, completion(request, answerOf(request), model));
    })().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    flavour: opts.flavour,
    url,
    requests,
    streams,
    script: (...behaviours) => void queue.push(...behaviours),
    rule: (when, behaviour) => void rules.push({ when, behaviour }),
    reset() {
      queue.length = 0;
      rules.length = 0;
    },
    async waitForStreams(n, timeoutMs = 30_000) {
      if (streams.length >= n) return streams.slice(0, n);
      return new Promise<StreamRecord[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`only ${streams.length} of ${n} streams ended in ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          if (streams.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(streams.slice(0, n));
        };
        waiters.add(check);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
