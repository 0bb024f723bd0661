import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer, type RecordedRequest } from '@reports/test-support';
import {
  CohereReranker,
  EMBEDDING_DIMENSIONS,
  EmbeddingProviderError,
  MistralEmbedder,
  MistralTextGenerator,
  OpenAIEmbedder,
  OpenAITextGenerator,
  RerankError,
} from '../src/index.js';

// Remote providers against local servers speaking their wire protocols, with their failures:
// 429, 5xx, malformed bodies, and (for rerank) an answer slower than the timeout.

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
/** A deterministic vector of `dims` numbers for an input text. */
const fakeVector = (text: string, dims: number) =>
  Array.from(
    { length: dims },
    (_, i) => ((text.charCodeAt(i % text.length) * (i + 1)) % 7) - 3 + 0.5,
  );
const inputs = (r: RecordedRequest, key: 'input' | 'inputs') => {
  const value = (r.body as Record<string, unknown>)[key];
  return Array.isArray(value) ? (value as string[]) : [String(value)];
};
const fastRetry = { maxRetries: 2, initialBackoffMs: 5, timeoutMs: 5000 };
const retryNow = { 'retry-after-ms': '1', 'retry-after': '0' };

describe('the OpenAI-compatible embedder', () => {
  let server: FakeServer;
  let embedder: OpenAIEmbedder;
  beforeAll(async () => {
    server = await startFakeServer([
      {
        method: 'POST',
        path: '/v1/embeddings',
        success: (r) => ({
          object: 'list',
          // Out of order on purpose: the client must order by index.
          data: inputs(r, 'input')
            .map((t, index) => ({
              object: 'embedding',
              index,
              embedding: fakeVector(t, EMBEDDING_DIMENSIONS),
            }))
            .reverse(),
          model: 'text-embedding-3-small',
          usage: { prompt_tokens: 3, total_tokens: 3 },
        }),
      },
    ]);
    embedder = new OpenAIEmbedder({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, ...fastRetry });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it('asks for 1536 dimensions and returns one unit vector per input, in input order', async () => {
    const [a, b] = await embedder.embed(['roof', 'damp cellar']);
    const request = server.requests.at(-1)!;
    expect(request.body).toMatchObject({
      model: 'text-embedding-3-small',
      dimensions: 1536,
      input: ['roof', 'damp cellar'],
    });
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(norm(a!)).toBeCloseTo(1, 9);
    expect(a).not.toEqual(b);
  });

  it('retries a 429 and a 503, then succeeds', async () => {
    server.script(
      '/v1/embeddings',
      { kind: 'status', status: 429, headers: retryNow },
      { kind: 'status', status: 503, headers: retryNow },
    );
    const before = server.requests.length;
    const [v] = await embedder.embed(['roof']);
    expect(server.requests.length - before).toBe(3);
    expect(norm(v!)).toBeCloseTo(1, 9);
  });

  it('gives up after its retries with an unavailable error', async () => {
    server.rule('/v1/embeddings', () => true, { kind: 'status', status: 500, headers: retryNow });
    const before = server.requests.length;
    await expect(embedder.embed(['roof'])).rejects.toMatchObject({
      name: 'EmbeddingProviderError',
      reason: 'unavailable',
    });
    expect(server.requests.length - before).toBe(3);
  });

  it('refuses a malformed answer', async () => {
    server.script('/v1/embeddings', {
      kind: 'json',
      body: { object: 'list', data: [{ index: 0, embedding: ['x'] }] },
    });
    await expect(embedder.embed(['roof'])).rejects.toMatchObject({ reason: 'malformed' });
    server.script('/v1/embeddings', { kind: 'json', body: { object: 'list', data: [] } });
    await expect(embedder.embed(['roof'])).rejects.toBeInstanceOf(EmbeddingProviderError);
    server.script('/v1/embeddings', { kind: 'raw', body: 'not json' });
    await expect(embedder.embed(['roof'])).rejects.toBeInstanceOf(EmbeddingProviderError);
  });
});

describe('the Mistral embedder', () => {
  let server: FakeServer;
  let embedder: MistralEmbedder;
  beforeAll(async () => {
    server = await startFakeServer([
      {
        method: 'POST',
        path: '/v1/embeddings',
        success: (r) => ({
          id: 'emb-1',
          object: 'list',
          model: 'mistral-embed',
          data: inputs(r, 'input').map((t, index) => ({
            object: 'embedding',
            index,
            embedding: fakeVector(t, 1024),
          })),
          usage: { prompt_tokens: 3, total_tokens: 3, completion_tokens: 0 },
        }),
      },
    ]);
    embedder = new MistralEmbedder({ apiKey: 'mk-test', serverURL: server.url, ...fastRetry });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it('zero-pads the 1024-dimension vectors to 1536 and normalises them, keeping cosine similarity', async () => {
    const [a, b] = await embedder.embed(['roof', 'damp cellar']);
    expect(server.requests.at(-1)!.body).toMatchObject({
      model: 'mistral-embed',
      input: ['roof', 'damp cellar'],
    });
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(a!.slice(1024).every((x) => x === 0)).toBe(true);
    expect(norm(a!)).toBeCloseTo(1, 9);
    const raw = [fakeVector('roof', 1024), fakeVector('damp cellar', 1024)];
    const cos = (x: number[], y: number[]) =>
      x.reduce((s, v, i) => s + v * y[i]!, 0) / (norm(x) * norm(y));
    expect(cos(a!, b!)).toBeCloseTo(cos(raw[0]!, raw[1]!), 9);
  });

  it('retries a 429 and a 502, then succeeds', async () => {
    server.script(
      '/v1/embeddings',
      { kind: 'status', status: 429 },
      { kind: 'status', status: 502 },
    );
    const before = server.requests.length;
    await embedder.embed(['roof']);
    expect(server.requests.length - before).toBe(3);
  });

  it('gives up with an unavailable error when the provider keeps failing', async () => {
    server.rule('/v1/embeddings', () => true, { kind: 'status', status: 500 });
    await expect(embedder.embed(['roof'])).rejects.toMatchObject({
      name: 'EmbeddingProviderError',
      reason: 'unavailable',
    });
  });

  it('refuses vectors longer than 1536 and bodies that are not embeddings', async () => {
    server.script('/v1/embeddings', {
      kind: 'json',
      body: {
        id: 'e',
        object: 'list',
        model: 'm',
        data: [{ object: 'embedding', index: 0, embedding: fakeVector('x', 2048) }],
        usage: { prompt_tokens: 1, total_tokens: 1 },
      },
    });
    await expect(embedder.embed(['roof'])).rejects.toMatchObject({ reason: 'malformed' });
    server.script('/v1/embeddings', { kind: 'raw', body: '{"broken":' });
    await expect(embedder.embed(['roof'])).rejects.toBeInstanceOf(EmbeddingProviderError);
  });
});

describe('the Cohere-compatible reranker', () => {
  let server: FakeServer;
  const rerankAnswer = (r: RecordedRequest) => {
    const docs = (r.body as { documents: string[] }).documents;
    // Relevance: how often the document holds the word "damp".
    return {
      id: 'rr-1',
      results: docs
        .map((d, index) => ({ index, relevance_score: (d.match(/damp/g) ?? []).length / 10 }))
        .sort((a, b) => b.relevance_score - a.relevance_score),
      meta: { billed_units: { search_units: 1 } },
    };
  };
  beforeAll(async () => {
    server = await startFakeServer([{ method: 'POST', path: '/v2/rerank', success: rerankAnswer }]);
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());
  const reranker = (timeoutMs?: number) =>
    new CohereReranker({
      url: `${server.url}/v2/rerank`,
      apiKey: 'co-test',
      model: 'rerank-v3.5',
      timeoutMs,
    });
  const docs = ['a dry loft', 'damp damp cellar', 'damp wall'];

  it('sends the query and every document, and returns them by relevance', async () => {
    const results = await reranker().rerank('damp', docs);
    expect(results.map((r) => r.index)).toEqual([1, 2, 0]);
    expect(server.requests.at(-1)!.body).toEqual({
      model: 'rerank-v3.5',
      query: 'damp',
      documents: docs,
      top_n: 3,
    });
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer co-test');
  });

  it('fails with rate_limited on a 429, without retrying', async () => {
    server.script('/v2/rerank', { kind: 'status', status: 429 });
    const before = server.requests.length;
    await expect(reranker().rerank('damp', docs)).rejects.toMatchObject({ reason: 'rate_limited' });
    expect(server.requests.length - before).toBe(1);
  });

  it('fails with error on a 500', async () => {
    server.script('/v2/rerank', { kind: 'status', status: 500 });
    await expect(reranker().rerank('damp', docs)).rejects.toMatchObject({ reason: 'error' });
  });

  it('fails with timeout when the answer takes longer than the limit', async () => {
    server.script('/v2/rerank', { kind: 'hang' });
    await expect(reranker(200).rerank('damp', docs)).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('fails with malformed on a body that is not a ranking of every document', async () => {
    server.script('/v2/rerank', { kind: 'raw', body: '<html>gateway</html>' });
    await expect(reranker().rerank('damp', docs)).rejects.toMatchObject({ reason: 'malformed' });
    server.script('/v2/rerank', {
      kind: 'json',
      body: { results: [{ index: 0, relevance_score: 0.3 }] },
    });
    await expect(reranker().rerank('damp', docs)).rejects.toBeInstanceOf(RerankError);
    server.script('/v2/rerank', {
      kind: 'json',
      body: { results: [0, 0, 1].map((index) => ({ index, relevance_score: 0.1 })) },
    });
    await expect(reranker().rerank('damp', docs)).rejects.toMatchObject({ reason: 'malformed' });
  });

  it('fails with error when nothing listens', async () => {
    const gone = new CohereReranker({ url: 'http://127.0.0.1:9/v2/rerank', model: 'm' });
    await expect(gone.rerank('damp', docs)).rejects.toMatchObject({ reason: 'error' });
  });
});

describe('the text generators', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer([
      {
        method: 'POST',
        path: '/v1/chat/completions',
        success: (r) => ({
          id: 'c-1',
          object: 'chat.completion',
          created: 1,
          model: String((r.body as { model: string }).model),
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'The roof covering is sound.' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
        }),
      },
    ]);
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it('writes a completion through the OpenAI-compatible API, retrying a 429', async () => {
    server.script('/v1/chat/completions', { kind: 'status', status: 429, headers: retryNow });
    const generator = new OpenAITextGenerator(
      { apiKey: 'sk', baseURL: `${server.url}/v1`, ...fastRetry },
      'gpt-test',
    );
    const out = await generator.complete({ system: 'be brief', prompt: 'roof?', maxTokens: 50 });
    expect(out).toEqual({
      text: 'The roof covering is sound.',
      model: 'gpt-test',
      inputTokens: 12,
      outputTokens: 6,
    });
    expect(server.requests.at(-1)!.body).toMatchObject({
      model: 'gpt-test',
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'roof?' },
      ],
    });
  });

  it('writes a completion through the Mistral API, retrying a 503', async () => {
    server.script('/v1/chat/completions', { kind: 'status', status: 503 });
    const generator = new MistralTextGenerator(
      { apiKey: 'mk', serverURL: server.url, ...fastRetry },
      'mistral-test',
    );
    const out = await generator.complete({ prompt: 'roof?', maxTokens: 50 });
    expect(out.text).toBe('The roof covering is sound.');
    expect(server.requests.at(-1)!.body).toMatchObject({ model: 'mistral-test', max_tokens: 50 });
  });

  it('fails with a TextGenerationError on a malformed answer', async () => {
    server.script('/v1/chat/completions', { kind: 'json', body: { choices: [] } });
    const generator = new OpenAITextGenerator({
      apiKey: 'sk',
      baseURL: `${server.url}/v1`,
      ...fastRetry,
    });
    await expect(generator.complete({ prompt: 'x', maxTokens: 5 })).rejects.toMatchObject({
      name: 'TextGenerationError',
    });
  });
});
