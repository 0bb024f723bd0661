import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatModel, type FakeChatModel } from '@reports/test-support';
import {
  ChatModelError,
  MistralChatModel,
  OpenAIChatModel,
  type ChatModel,
  type ChatStreamEvent,
  type ChatStreamRequest,
} from '../src/index.js';

const ANSWER = 'The roof covering is natural slate.\n\nThe gutters are cast iron [C1].';

function request(extra: Partial<ChatStreamRequest> = {}): ChatStreamRequest {
  return {
    messages: [
      { role: 'system', content: 'Answer from the documents.' },
      { role: 'user', content: 'What is the roof made of?' },
    ],
    documents: [],
    query: 'What is the roof made of?',
    maxTokens: 256,
    ...extra,
  };
}

async function collect(model: ChatModel, r: ChatStreamRequest = request()) {
  const events: ChatStreamEvent[] = [];
  let error: unknown = null;
  try {
    for await (const e of model.stream(r)) events.push(e);
  } catch (e) {
    error = e;
  }
  const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
  const done = events.find((e) => e.type === 'done') ?? null;
  return { events, text, done, error };
}

const flavours = [
  {
    name: 'OpenAI-compatible',
    flavour: 'openai' as const,
    model: (fake: FakeChatModel) =>
      new OpenAIChatModel({
        apiKey: 'sk-test',
        baseURL: `${fake.url}/v1`,
        model: 'gpt-4o-mini',
        maxRetries: 1,
      }),
  },
  {
    name: 'Mistral',
    flavour: 'mistral' as const,
    model: (fake: FakeChatModel) =>
      new MistralChatModel({
        apiKey: 'mistral-test',
        serverURL: fake.url,
        model: 'mistral-small-latest',
        maxRetries: 1,
        initialBackoffMs: 20,
      }),
  },
];

describe.each(flavours)(
  'the $name chat model against a local server speaking its protocol',
  (f) => {
    let fake: FakeChatModel;
    let model: ChatModel;

    beforeAll(async () => {
      fake = await startFakeChatModel({ flavour: f.flavour, answer: () => ANSWER, chunkChars: 7 });
      model = f.model(fake);
    });
    afterAll(async () => {
      await fake?.close();
    });
    afterEach(() => fake.reset());

    it('streams the answer in pieces and ends with the finish reason and the usage', async () => {
      const { events, text, done, error } = await collect(model);
      expect(error).toBeNull();
      expect(text).toBe(ANSWER);
      expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(3);
      expect(events.at(-1)).toEqual(done);
      expect(done).toMatchObject({ type: 'done', finishReason: 'stop', model: expect.any(String) });
      expect(done?.type === 'done' && done.usage).toEqual({
        inputTokens: expect.any(Number),
        outputTokens: Math.ceil(ANSWER.length / 4),
      });
    });

    it('asks for a stream with the messages it was given', async () => {
      await collect(model);
      const body = fake.requests.at(-1)?.body as Record<string, unknown>;
      expect(body.stream).toBe(true);
      expect(body.messages).toEqual(request().messages);
      if (f.flavour === 'openai') expect(body.stream_options).toEqual({ include_usage: true });
    });

    it('retries a 429 and then answers', async () => {
      fake.script({
        kind: 'status',
        status: 429,
        headers: { 'retry-after-ms': '10', 'retry-after': '0' },
      });
      const { text, error } = await collect(model);
      expect(error).toBeNull();
      expect(text).toBe(ANSWER);
    });

    it('fails with a clear message when the provider keeps answering 429', async () => {
      fake.rule(() => true, {
        kind: 'status',
        status: 429,
        headers: { 'retry-after-ms': '10', 'retry-after': '0' },
      });
      const { error, events } = await collect(model);
      expect(events).toEqual([]);
      expect(error).toBeInstanceOf(ChatModelError);
      expect((error as ChatModelError).reason).toBe('unavailable');
      expect((error as ChatModelError).message).toMatch(/rate limiting requests \(HTTP 429\)/);
    });

    it('fails with a clear message when the provider answers 5xx', async () => {
      fake.rule(() => true, { kind: 'status', status: 503 });
      const { error } = await collect(model);
      expect((error as ChatModelError).reason).toBe('unavailable');
      expect((error as ChatModelError).message).toMatch(/failed \(HTTP 503\)/);
    });

    it('does not retry a rejected API key', async () => {
      const before = fake.requests.length;
      fake.script({ kind: 'status', status: 401, body: { message: 'invalid api key' } });
      const { error } = await collect(model);
      expect((error as ChatModelError).reason).toBe('rejected');
      expect((error as ChatModelError).message).toMatch(/refused the API key/);
      expect(fake.requests.length - before).toBe(1);
    });

    it('reports a stream whose connection drops mid-answer as interrupted, after the pieces it got', async () => {
      fake.script({ kind: 'cut', afterChunks: 3, how: 'reset' });
      const { text, done, error } = await collect(model);
      expect(text).toBe(ANSWER.slice(0, 21));
      expect(done).toBeNull();
      expect((error as ChatModelError).reason).toBe('interrupted');
      expect((error as ChatModelError).message).toMatch(
        /stopped sending the answer before it was finished/,
      );
    });

    it('reports a stream that ends cleanly but without a finish reason as interrupted', async () => {
      fake.script({ kind: 'cut', afterChunks: 2, how: 'end' });
      const { text, done, error } = await collect(model);
      expect(text).toBe(ANSWER.slice(0, 14));
      expect(done).toBeNull();
      expect((error as ChatModelError).reason).toBe('interrupted');
    });

    it('waits for a slow first token', async () => {
      fake.script({ kind: 'slow', firstChunkDelayMs: 400 });
      const { text, error } = await collect(model);
      expect(error).toBeNull();
      expect(text).toBe(ANSWER);
    });

    it('reports a stream event that is not JSON as malformed or interrupted, never as an answer', async () => {
      fake.script({ kind: 'malformed' });
      const { done, error } = await collect(model);
      expect(done).toBeNull();
      expect(error).toBeInstanceOf(ChatModelError);
      expect(['malformed', 'interrupted']).toContain((error as ChatModelError).reason);
    });

    it('stops the call when the signal is aborted and ends without a done event', async () => {
      fake.script({ kind: 'drip', chunkDelayMs: 50 });
      const seen = fake.streams.length;
      const controller = new AbortController();
      const events: ChatStreamEvent[] = [];
      for await (const e of model.stream(request({ signal: controller.signal }))) {
        events.push(e);
        if (events.length === 2) controller.abort();
      }
      expect(events.every((e) => e.type === 'delta')).toBe(true);
      const [record] = (await fake.waitForStreams(seen + 1)).slice(seen);
      expect(record?.clientAborted).toBe(true);
      expect(record?.finished).toBe(false);
    });

    it('has a writer for one-shot completions (the query rewrite) on the same endpoint and model', async () => {
      const done = await model.writer!.complete({ prompt: 'Rewrite this.', maxTokens: 64 });
      expect(done.text).toBe(ANSWER);
      const body = fake.requests.at(-1)?.body as Record<string, unknown>;
      expect(body.stream).not.toBe(true);
      expect(body.model).toBe(model.model);
    });
  },
);
