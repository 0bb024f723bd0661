import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type RetrieveRequest, type RetrieveResponse } from '@reports/contracts';
import {
  connectNats,
  createLogger,
  metricsText,
  retrievalClient,
  type Nats,
} from '@reports/platform';
import {
  CohereReranker,
  LocalReranker,
  LocalEmbedder,
  OpenAIEmbedder,
  OpenAITextGenerator,
} from '@reports/providers';
import { PostgresKeywordIndex } from '@reports/search';
import {
  createTestDatabase,
  startNatsServer,
  type TestDatabase,
  type TestNatsServer,
} from '@reports/test-support';
import { rowsOnceWritten, startFakeServer, type FakeServer } from '@reports/test-support';
import { startRetrievalEndpoint } from '../src/service/endpoint.js';
import type { RetrievalDeps } from '../src/retrieve/retrieve.js';
import { RetrievalLogWriter } from '../src/log/retrievalLog.js';

// The retrieval service as production runs it (NATS services endpoint, real Postgres with the
// migrations, the real keyword index and local embedder); remote models are local servers
// speaking their protocols: a Cohere-compatible reranker, an OpenAI-compatible writer and
// embedder, each failing on demand.

let db: TestDatabase;
let natsServer: TestNatsServer;
let nats: Nats;
let models: FakeServer;
let retrievalLog: RetrievalLogWriter;
const logger = createLogger('retrieval-test', 'silent');
const embedder = new LocalEmbedder();
const tenantA = randomUUID();
const tenantB = randomUUID();
let reportA: string;
let reportB: string;
let attachmentA: string;
const chunkIds = new Map<string, string>();

const rerankDocs = (docs: string[]) =>
  docs
    .map((d, index) => ({
      index,
      relevance_score: d.includes('boiler') ? 0.99 : 0.1 / (index + 1),
    }))
    .sort((a, b) => b.relevance_score - a.relevance_score);

async function insertReport(tenantId: string): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal') ON CONFLICT DO NOTHING`,
    [tenantId],
  );
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'survey.html', 'text/html', 'html', 1, repeat('0', 64), 'k')`,
    [id, tenantId],
  );
  return id;
}

async function insertChunk(
  name: string,
  reportId: string,
  tenantId: string,
  content: string,
  opts: { embedded?: boolean; attachmentId?: string; order: number },
): Promise<void> {
  const id = randomUUID();
  chunkIds.set(name, id);
  const [vector] = await embedder.embed([content]);
  await db.pool.query(
    `INSERT INTO chunks (id, tenant_id, report_id, attachment_id, target_id, source_type, section_name, section_slug,
       attachment_filename, source_label, content, content_tokens, order_in_doc, embedding, embedding_model)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
    [
      id,
      tenantId,
      reportId,
      opts.attachmentId ?? null,
      opts.attachmentId ?? reportId,
      opts.attachmentId ? 'attachment' : 'main',
      name,
      name,
      opts.attachmentId ? 'partner.pdf' : null,
      opts.attachmentId ? 'partner.pdf' : name,
      content,
      content.split(' ').length,
      opts.order,
      opts.embedded === false ? null : `[${vector!.join(',')}]`,
      opts.embedded === false ? null : embedder.model,
    ],
  );
}

function deps(overrides: Partial<RetrievalDeps> = {}): RetrievalDeps {
  return {
    pool: db.pool,
    keywordIndex: new PostgresKeywordIndex(db.pool),
    embedder,
    reranker: null,
    generator: null,
    logger,
    retrievalLog,
    ...overrides,
  };
}

/** Starts an endpoint with these adapters on a subject of the test's own NATS server. */
async function withEndpoint<T>(d: RetrievalDeps, fn: () => Promise<T>): Promise<T> {
  const service = await startRetrievalEndpoint(nats.nc, d);
  try {
    return await fn();
  } finally {
    await service.stop();
  }
}

async function ask(request: RetrieveRequest | Record<string, unknown>): Promise<RetrieveResponse> {
  return retrievalClient(nats.nc, 20_000).retrieve(request as RetrieveRequest);
}

const asUserA = (query: string, extra: Partial<RetrieveRequest> = {}): RetrieveRequest => ({
  caller: { kind: 'user', user_id: randomUUID(), tenant_id: tenantA },
  scope: { type: 'folder', report_id: reportA },
  query,
  ...extra,
});

const names = (res: RetrieveResponse) => res.chunks.map((c) => c.section_name);

beforeAll(async () => {
  db = await createTestDatabase();
  retrievalLog = new RetrievalLogWriter(db.pool, logger);
  natsServer = await startNatsServer();
  nats = await connectNats(natsServer.url, 'retrieval-test');
  models = await startFakeServer([
    {
      method: 'POST',
      path: '/v2/rerank',
      success: (r) => ({
        id: 'rr',
        results: rerankDocs((r.body as { documents: string[] }).documents),
      }),
    },
    {
      method: 'POST',
      path: '/v1/chat/completions',
      success: () => ({
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'writer',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Slates are missing from the main roof covering.',
            },
            finish_reason: 'stop',
          },
        ],
      }),
    },
    { method: 'POST', path: '/v1/embeddings', success: () => ({ object: 'list', data: [] }) },
  ]);
  reportA = await insertReport(tenantA);
  reportB = await insertReport(tenantB);
  attachmentA = randomUUID();
  await db.pool.query(
    `INSERT INTO attachments (id, tenant_id, report_id, source, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, $3, 'partner', 'partner.pdf', 'application/pdf', 'pdf', 1, repeat('0', 64), 'k')`,
    [attachmentA, tenantA, reportA],
  );
  const main = [
    ['roof', 'Several slates are missing from the main roof and the ridge tiles are loose.'],
    ['roof-2', 'The roof timbers in the loft show old woodworm; the roof felt is torn.'],
    ['roof-3', 'Roof drainage: gutters on the roof are blocked with moss.'],
    ['roof-4', 'Flat roof over the kitchen extension: the roof membrane is blistered.'],
    ['boiler', 'The boiler was serviced last year and the roof flue terminal is sound.'],
    ['garden', 'The garden fence leans towards the neighbouring plot.'],
  ];
  for (const [i, [name, content]] of main.entries()) {
    await insertChunk(name!, reportA, tenantA, content!, { order: i });
  }
  await insertChunk(
    'unembedded',
    reportA,
    tenantA,
    'Asbestos cement panels line the garage roof.',
    { embedded: false, order: 10 },
  );
  await insertChunk(
    'partner',
    reportA,
    tenantA,
    'Partner note: roof insurance claim for storm damage to the roof.',
    {
      attachmentId: attachmentA,
      order: 0,
    },
  );
  await insertChunk('other-tenant', reportB, tenantB, 'The roof of the other house is perfect.', {
    order: 0,
  });
});
afterAll(async () => {
  await retrievalLog?.close();
  await nats?.nc.close();
  await natsServer?.stop();
  await models?.close();
  await db?.drop();
});
afterEach(() => models.reset());

describe('the retrieve endpoint', () => {
  it("answers the spec's response object with a retrieval log id, fusing both legs", async () => {
    const res = await withEndpoint(deps(), () =>
      ask(asUserA('missing roof slates and ridge tiles')),
    );
    expect(res).toMatchObject({
      scope_type: 'folder',
      top_k: 8,
      fusion: 'hybrid_rrf',
      reranked: false,
      used_hyde: false,
      rerank_ms: 0,
    });
    expect(names(res)[0]).toBe('roof');
    const top = res.chunks[0]!;
    expect(top.bm25_rank).toBe(1);
    expect(top.vector_rank).toBe(1);
    expect(top.rrf_score).toBeCloseTo(2 / 61, 12);
    expect(top.bm25_score).toBeGreaterThan(0);
    expect(top.vector_dist).toBeGreaterThanOrEqual(0);
    expect(top.rerank_score).toBeNull();
    expect(top).toMatchObject({
      report_id: reportA,
      source_type: 'main',
      content_type: 'text',
      embedding_type: 'text',
    });
    for (let i = 1; i < res.chunks.length; i++) {
      expect(res.chunks[i]!.rrf_score).toBeLessThanOrEqual(res.chunks[i - 1]!.rrf_score);
    }
  });

  it('writes one retrieval log row per query, under the returned id', async () => {
    const res = await withEndpoint(deps(), () => ask(asUserA('garden fence', { top_k: 3 })));
    const rows = await rowsOnceWritten(
      db.pool,
      'SELECT tenant_id, report_id, caller, query, top_k, legs, used_hyde, reranked, keyword_backend, results FROM retrieval_logs WHERE id = $1',
      [res.retrieval_log_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tenant_id: tenantA,
      report_id: reportA,
      caller: 'user',
      query: 'garden fence',
      top_k: 3,
      legs: 'hybrid',
      used_hyde: false,
      reranked: false,
      keyword_backend: 'postgres',
    });
    expect(
      (rows[0]!.results as Array<{ chunk_id: string; rank: number }>).map((r) => r.chunk_id),
    ).toEqual(res.chunks.map((c) => c.id));
  });

  it('finds chunks without an embedding through the keyword leg only', async () => {
    const res = await withEndpoint(deps(), () =>
      ask(asUserA('asbestos cement panels in the garage')),
    );
    const hit = res.chunks.find((c) => c.section_name === 'unembedded')!;
    expect(hit).toBeDefined();
    expect(hit.bm25_rank).toBe(1);
    expect(hit.vector_rank).toBeNull();
    expect(hit.vector_dist).toBeNull();
  });

  it("answers 404 for a report of another tenant, and never returns another folder's chunks", async () => {
    await withEndpoint(deps(), async () => {
      await expect(
        ask({ ...asUserA('roof'), scope: { type: 'folder', report_id: reportB } }),
      ).rejects.toMatchObject({
        code: 'not_found',
        status: 404,
      });
      await expect(
        ask({ ...asUserA('roof'), scope: { type: 'folder', report_id: randomUUID() } }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
      const res = await ask(asUserA('roof of the other house is perfect', { top_k: 50 }));
      expect(names(res)).not.toContain('other-tenant');
    });
  });

  it("lets an admin retrieve in the report's own tenant", async () => {
    const res = await withEndpoint(deps(), () =>
      ask({
        caller: { kind: 'admin' },
        scope: { type: 'folder', report_id: reportB },
        query: 'roof',
      }),
    );
    expect(names(res)).toEqual(['other-tenant']);
    const rows = await rowsOnceWritten(
      db.pool,
      'SELECT tenant_id, caller FROM retrieval_logs WHERE id = $1',
      [res.retrieval_log_id],
    );
    expect(rows[0]).toEqual({ tenant_id: tenantB, caller: 'admin' });
  });

  it('section scope: only the section and its subsections, by name or slug', async () => {
    const report = await insertReport(tenantA);
    const sec = async (name: string, level: number, order: number): Promise<string> => {
      const id = randomUUID();
      await db.pool.query(
        `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
         VALUES ($1, $2, $3, $3, $4, $5, $6, $7, '')`,
        [id, tenantA, report, name, name.toLowerCase().replace(/ /g, '-'), level, order],
      );
      return id;
    };
    const roof = await sec('Roof Coverings', 1, 0);
    const loft = await sec('Loft', 2, 1);
    const services = await sec('Services', 1, 2);
    const texts: Array<[string, string, string]> = [
      ['s-roof', roof, 'The roof slates are slipped and the roof ridge is open.'],
      ['s-loft', loft, 'In the loft the roof timbers show woodworm.'],
      ['s-flue', services, 'The roof flue of the boiler is sound.'],
    ];
    for (const [i, [name, sectionId, content]] of texts.entries()) {
      await insertChunk(name, report, tenantA, content, { order: i });
      await db.pool.query('UPDATE chunks SET section_id = $1 WHERE id = $2', [
        sectionId,
        chunkIds.get(name),
      ]);
    }
    await withEndpoint(deps(), async () => {
      for (const section of ['Roof Coverings', 'roof-coverings', 'ROOF COVERINGS']) {
        const res = await ask({
          ...asUserA('roof'),
          scope: { type: 'section', report_id: report, section },
        });
        expect(res.scope_type).toBe('section');
        expect(names(res).sort()).toEqual(['s-loft', 's-roof']);
      }
      const services = await ask({
        ...asUserA('roof'),
        scope: { type: 'section', report_id: report, section: 'Services' },
      });
      expect(names(services)).toEqual(['s-flue']);
      await expect(
        ask({
          ...asUserA('roof'),
          scope: { type: 'section', report_id: report, section: 'Attic' },
        }),
      ).rejects.toMatchObject({ code: 'not_found', status: 404 });
      await expect(
        ask({
          ...asUserA('roof'),
          scope: { type: 'section', report_id: reportB, section: 'Roof' },
        }),
      ).rejects.toMatchObject({ code: 'not_found', status: 404 });
      await expect(
        ask({ ...asUserA('roof'), scope: { type: 'section', report_id: report } }),
      ).rejects.toMatchObject({ code: 'validation_failed', status: 422 });
    });
  });

  it('multi_report scope: one ranking over the reports, each chunk naming its report', async () => {
    const other = await insertReport(tenantA);
    await insertChunk('m-roof', other, tenantA, 'A sagging roof with missing roof slates.', {
      order: 0,
    });
    await insertChunk('m-damp', other, tenantA, 'Rising damp in the cellar walls.', { order: 1 });
    await withEndpoint(deps(), async () => {
      const res = await ask({
        ...asUserA('damp cellar walls rising'),
        scope: { type: 'multi_report', report_ids: [reportA, other] },
        top_k: 4,
      });
      expect(res.scope_type).toBe('multi_report');
      expect(res.chunks[0]).toMatchObject({ section_name: 'm-damp', report_id: other });
      expect(new Set(res.chunks.map((c) => c.report_id))).toEqual(new Set([reportA, other]));
      // Report A has five roof chunks that outrank the other report's one; the diversity rule
      // still gives the other report a slot.
      const roof = await ask({
        ...asUserA('roof slates ridge tiles loose gutters'),
        scope: { type: 'multi_report', report_ids: [reportA, other] },
        top_k: 3,
        options: { hyde: 'off', rerank: 'off', legs: 'keyword' },
      });
      expect(roof.chunks.map((c) => c.report_id)).toContain(other);
      expect(roof.chunks).toHaveLength(3);
      await expect(
        ask({
          ...asUserA('roof'),
          scope: { type: 'multi_report', report_ids: [reportA, reportB] },
        }),
      ).rejects.toMatchObject({ code: 'not_found', status: 404 });
      for (const report_ids of [[reportA], [reportA, reportA]]) {
        await expect(
          ask({ ...asUserA('roof'), scope: { type: 'multi_report', report_ids } }),
        ).rejects.toMatchObject({ code: 'validation_failed', status: 422 });
      }
    });
  });

  it('answers validation_failed for a bad request', async () => {
    await withEndpoint(deps(), async () => {
      await expect(ask({ ...asUserA('roof'), top_k: 0 })).rejects.toMatchObject({
        code: 'validation_failed',
        status: 422,
      });
      await expect(ask({ ...asUserA('   ') })).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(ask({ query: 'roof' })).rejects.toBeInstanceOf(AppError);
    });
  });

  it('answers 503 embedding_unavailable when no embedder is configured', async () => {
    await expect(
      withEndpoint(deps({ embedder: null }), () => ask(asUserA('roof'))),
    ).rejects.toMatchObject({
      code: 'embedding_unavailable',
      status: 503,
    });
  });

  it('answers 503 embedding_unavailable when the embedding provider is down after its retries', async () => {
    models.rule('/v1/embeddings', () => true, {
      kind: 'status',
      status: 503,
      headers: { 'retry-after-ms': '1' },
    });
    const remote = new OpenAIEmbedder({
      apiKey: 'sk',
      baseURL: `${models.url}/v1`,
      maxRetries: 1,
      initialBackoffMs: 1,
      timeoutMs: 2000,
    });
    const before = models.requests.filter((r) => r.path === '/v1/embeddings').length;
    await expect(
      withEndpoint(deps({ embedder: remote }), () => ask(asUserA('roof'))),
    ).rejects.toMatchObject({
      code: 'embedding_unavailable',
    });
    expect(models.requests.filter((r) => r.path === '/v1/embeddings').length - before).toBe(2);
  });

  it('answers keyword-only requests without an embedder (evaluation option)', async () => {
    const res = await withEndpoint(deps({ embedder: null }), () =>
      ask(asUserA('fence', { options: { legs: 'keyword' } })),
    );
    expect(names(res)).toEqual(['garden']);
  });

  it('searches the keyword leg for the words asked, not for function words', async () => {
    // "the" is a prefix of words in most chunks; "is" of none that matter.
    const res = await withEndpoint(deps({ embedder: null }), () =>
      ask(asUserA('Is the garden fence sound?', { options: { legs: 'keyword' } })),
    );
    expect(names(res)).toEqual(['garden', 'boiler']);
  });

  it('searches the participle of a "how much" question also by the "-age" noun a report writes', async () => {
    // The report says "Roof drainage: …"; "drained" is the start of no word of the folder.
    const res = await withEndpoint(deps({ embedder: null }), () =>
      ask(asUserA('How much of it has drained?', { options: { legs: 'keyword' } })),
    );
    expect(names(res)).toEqual(['roof-3']);
  });

  it('finds the words a report writes for a question that inflects them otherwise, with word families', async () => {
    // "fencing" and "leaning" as asked; the report says "fence" and "leans". The spec's leg
    // (no families) does not find them; the option, per request or configured, does.
    const question = 'Is the fencing leaning?';
    const spec = await withEndpoint(deps({ embedder: null }), () =>
      ask(asUserA(question, { options: { legs: 'keyword' } })),
    );
    expect(names(spec)).toEqual([]);
    const asked = await withEndpoint(deps({ embedder: null }), () =>
      ask(asUserA(question, { options: { legs: 'keyword', word_families: true } })),
    );
    expect(names(asked)).toEqual(['garden']);
    const configured = await withEndpoint(deps({ embedder: null, wordFamilies: true }), () =>
      ask(asUserA(question, { options: { legs: 'keyword' } })),
    );
    expect(names(configured)).toEqual(['garden']);
  });

  it('respects top_k and the default of 8', async () => {
    await withEndpoint(deps(), async () => {
      expect((await ask(asUserA('roof'))).chunks.length).toBe(8);
      expect((await ask(asUserA('roof', { top_k: 2 }))).chunks.length).toBe(2);
    });
  });
});

describe('rerank', () => {
  const reranker = (timeoutMs?: number) =>
    new CohereReranker({ url: `${models.url}/v2/rerank`, model: 'rerank-test', timeoutMs });
  const query = 'is the roof in good condition';

  it('reorders the fused candidates when it answers', async () => {
    const res = await withEndpoint(deps({ reranker: reranker() }), () =>
      ask(asUserA(query, { top_k: 4 })),
    );
    expect(res.reranked).toBe(true);
    expect(names(res)[0]).toBe('boiler');
    expect(res.chunks[0]!.rerank_score).toBeCloseTo(0.99, 9);
    expect(res.chunks.every((c) => c.rerank_score !== null)).toBe(true);
  });

  it('reorders the candidates by the facts they hold with the local reranker', async () => {
    // A note that says "heating" four times outranks, in both legs, the grid that answers, which
    // says its subject only by the section it is filed under (its section name here).
    const report = await insertReport(tenantA);
    const heating = [
      [
        'heating-notes',
        'The heating system was looked at. The heating system heats every room; the heating ducts of the heating system were not opened.',
      ],
      ['heating-grid', 'Type: Furnace\n\nApproximate age: 14 years\n\nFuel: Natural gas'],
      ['cellar', 'Rising damp in the cellar walls.'],
    ];
    for (const [i, [name, content]] of heating.entries())
      await insertChunk(name!, report, tenantA, content!, { order: i });
    const req: RetrieveRequest = {
      ...asUserA('How old is the heating system?', { top_k: 3 }),
      scope: { type: 'folder', report_id: report },
    };
    const fused = await withEndpoint(deps(), () => ask(req));
    expect(names(fused)[0]).toBe('heating-notes');
    const res = await withEndpoint(deps({ reranker: new LocalReranker() }), () => ask(req));
    expect(res.reranked).toBe(true);
    expect(names(res)[0]).toBe('heating-grid');
    expect(res.chunks.every((c) => c.rerank_score !== null)).toBe(true);
    // One request may ask for it whatever is configured (the evaluation measures it so).
    const asked = await withEndpoint(deps(), () =>
      ask({ ...req, options: { legs: 'hybrid', rerank: 'local', hyde: 'off' } }),
    );
    expect(asked.reranked).toBe(true);
    expect(names(asked)[0]).toBe('heating-grid');
  });

  it.each([
    ['fails', { kind: 'status', status: 500 }],
    ['is rate limited', { kind: 'status', status: 429 }],
    ['answers a malformed body', { kind: 'raw', body: '{"results": "nope"}' }],
    ['takes longer than its timeout', { kind: 'hang' }],
  ] as const)(
    'returns the fused order with reranked false when it %s',
    async (_name, behaviour) => {
      const fused = await withEndpoint(deps(), () => ask(asUserA(query, { top_k: 4 })));
      models.script('/v2/rerank', behaviour);
      const res = await withEndpoint(deps({ reranker: reranker(300) }), () =>
        ask(asUserA(query, { top_k: 4 })),
      );
      expect(res.reranked).toBe(false);
      expect(res.chunks.map((c) => c.id)).toEqual(fused.chunks.map((c) => c.id));
      expect(res.chunks.every((c) => c.rerank_score === null)).toBe(true);
      const rows = await rowsOnceWritten(
        db.pool,
        'SELECT reranked, rerank_error FROM retrieval_logs WHERE id = $1',
        [res.retrieval_log_id],
      );
      expect(rows[0]!.reranked).toBe(false);
      expect(rows[0]!.rerank_error).toEqual(expect.any(String));
    },
  );
});

describe('HyDE', () => {
  const writer = () =>
    new OpenAITextGenerator(
      { apiKey: 'sk', baseURL: `${models.url}/v1`, maxRetries: 0, timeoutMs: 2000 },
      'writer',
    );

  it('is used for a query under 4 words when a model writes the passage', async () => {
    const res = await withEndpoint(deps({ generator: writer() }), () =>
      ask(asUserA('roof slates')),
    );
    expect(res.used_hyde).toBe(true);
    const rows = await rowsOnceWritten(
      db.pool,
      'SELECT used_hyde, hyde_text FROM retrieval_logs WHERE id = $1',
      [res.retrieval_log_id],
    );
    expect(rows[0]).toEqual({
      used_hyde: true,
      hyde_text: 'Slates are missing from the main roof covering.',
    });
  });

  it('is not used for 4 words or more', async () => {
    const before = models.requests.length;
    const res = await withEndpoint(deps({ generator: writer() }), () =>
      ask(asUserA('are the roof slates sound')),
    );
    expect(res.used_hyde).toBe(false);
    expect(models.requests.length).toBe(before);
  });

  it('is not used with the local provider, which writes nothing', async () => {
    const res = await withEndpoint(deps({ generator: null }), () => ask(asUserA('roof')));
    expect(res.used_hyde).toBe(false);
  });

  it('is reported false when the model fails, and the query is answered all the same', async () => {
    models.script('/v1/chat/completions', { kind: 'status', status: 500 });
    const res = await withEndpoint(deps({ generator: writer() }), () =>
      ask(asUserA('roof slates')),
    );
    expect(res.used_hyde).toBe(false);
    expect(names(res)[0]).toBe('roof');
  });
});

describe('diversity', () => {
  it('brings the attachment into a selection the main report would fill', async () => {
    const query = 'roof tiles slates timbers gutters membrane';
    const wider = await withEndpoint(deps(), () => ask(asUserA(query, { top_k: 8 })));
    // Without the rule, the first four would all be the main report's.
    expect(wider.chunks.slice(0, 4).map((c) => c.source_type)).toEqual([
      'main',
      'main',
      'main',
      'main',
    ]);
    const res = await withEndpoint(deps(), () => ask(asUserA(query, { top_k: 4 })));
    expect(res.chunks.map((c) => c.source_type)).toEqual(['main', 'main', 'main', 'attachment']);
    expect(res.chunks.slice(0, 3).map((c) => c.id)).toEqual(
      wider.chunks.slice(0, 3).map((c) => c.id),
    );
    const rows = await rowsOnceWritten(
      db.pool,
      'SELECT diversity_swaps FROM retrieval_logs WHERE id = $1',
      [res.retrieval_log_id],
    );
    expect(rows[0]!.diversity_swaps).toBe(1);
  });

  it('leaves a top_k under 4 alone', async () => {
    const res = await withEndpoint(deps(), () =>
      ask(asUserA('roof tiles slates timbers gutters membrane', { top_k: 3 })),
    );
    expect(res.chunks.map((c) => c.source_type)).toEqual(['main', 'main', 'main']);
  });
});

describe('the retrieval log, written behind the reply', () => {
  const entry = (query: string) => ({
    id: randomUUID(),
    created_at: new Date('2026-01-02T03:04:05.000Z'),
    tenant_id: tenantA,
    report_id: reportA,
    caller: 'user' as const,
    user_id: null,
    scope_type: 'folder',
    query,
    hyde_text: null,
    top_k: 6,
    legs: 'hybrid' as const,
    keyword_backend: 'postgres',
    embedding_model: null,
    used_hyde: false,
    reranked: false,
    rerank_error: null,
    diversity_swaps: 0,
    keyword_candidates: 0,
    vector_candidates: 0,
    hyde_ms: 0,
    embed_ms: 1,
    keyword_ms: 1,
    vector_ms: 1,
    retrieval_ms: 2,
    rerank_ms: 0,
    total_ms: 3,
    results: [],
  });
  const dailyQueries = async (day: string) => {
    const { rows } = await db.pool.query<{ queries: number }>(
      'SELECT queries FROM retrieval_log_daily WHERE day = $1 AND tenant_id = $2',
      [day, tenantA],
    );
    return rows[0]?.queries ?? 0;
  };

  it('writes the rows of concurrent queries, dated when they were asked, and counts them once each', async () => {
    await retrievalLog.flush();
    const before = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM retrieval_logs WHERE tenant_id = $1',
      [tenantA],
    );
    const asked = Date.now();
    const answers = await withEndpoint(deps(), () =>
      Promise.all(Array.from({ length: 30 }, (_, i) => ask(asUserA(`roof slates ${i}`)))),
    );
    await retrievalLog.flush();
    const { rows } = await db.pool.query<{ id: string; created_at: Date }>(
      'SELECT id::text, created_at FROM retrieval_logs WHERE id = ANY($1::uuid[])',
      [answers.map((a) => a.retrieval_log_id)],
    );
    expect(rows).toHaveLength(30);
    for (const row of rows) {
      expect(row.created_at.getTime()).toBeGreaterThanOrEqual(asked - 1000);
      expect(row.created_at.getTime()).toBeLessThanOrEqual(Date.now());
    }
    const after = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM retrieval_logs WHERE tenant_id = $1',
      [tenantA],
    );
    expect(after.rows[0]!.n - before.rows[0]!.n).toBe(30);
  });

  it('keeps the rows while Postgres refuses them and writes them once it takes them again', async () => {
    const writer = new RetrievalLogWriter(db.pool, logger, { delayMs: 5, retryMs: 50 });
    const day = '2026-01-02';
    const counted = await dailyQueries(day);
    // A real refusal: a constraint the rows break, until it is dropped.
    await db.pool.query(
      `ALTER TABLE retrieval_logs ADD CONSTRAINT refuse_held CHECK (query <> 'held') NOT VALID`,
    );
    try {
      for (const q of ['held', 'second', 'third']) writer.add(entry(q));
      await expect(writer.flush()).rejects.toThrow('could not be written');
      expect(writer.queued).toBe(3);
    } finally {
      await db.pool.query('ALTER TABLE retrieval_logs DROP CONSTRAINT refuse_held');
    }
    // The writer's own timer tries again: no flush asked.
    const deadline = Date.now() + 5000;
    while (writer.queued > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(writer.queued).toBe(0);
    expect(await dailyQueries(day)).toBe(counted + 3);
    await writer.close();
  });

  it('counts the rows of a write under way as not yet written', async () => {
    const writer = new RetrievalLogWriter(db.pool, logger, { delayMs: 1000 });
    for (const q of ['under way', 'also under way']) writer.add(entry(q));
    const writing = writer.flush();
    // The INSERT has its rows and has not answered: they are not written yet.
    expect(writer.queued).toBe(2);
    await writing;
    expect(writer.queued).toBe(0);
    await writer.close();
  });

  it('writes what is left when it closes, and counts the rows it has to give up', async () => {
    const writer = new RetrievalLogWriter(db.pool, logger, { delayMs: 60_000 });
    const kept = entry('written at close');
    writer.add(kept);
    await writer.close();
    const { rows } = await db.pool.query('SELECT 1 FROM retrieval_logs WHERE id = $1', [kept.id]);
    expect(rows).toHaveLength(1);

    const droppedBefore = await droppedRows();
    await db.pool.query(
      `ALTER TABLE retrieval_logs ADD CONSTRAINT refuse_lost CHECK (query <> 'lost') NOT VALID`,
    );
    try {
      const refusing = new RetrievalLogWriter(db.pool, logger, { delayMs: 60_000 });
      refusing.add(entry('lost'));
      refusing.add(entry('lost too'));
      await refusing.close();
      expect(refusing.queued).toBe(0);
    } finally {
      await db.pool.query('ALTER TABLE retrieval_logs DROP CONSTRAINT refuse_lost');
    }
    expect((await droppedRows()) - droppedBefore).toBe(2);
  });
});

async function droppedRows(): Promise<number> {
  const { body } = await metricsText();
  const line = body.split('\n').find((l) => l.startsWith('retrieval_log_dropped_rows_total '));
  return Number(line?.split(' ')[1] ?? 0);
}
