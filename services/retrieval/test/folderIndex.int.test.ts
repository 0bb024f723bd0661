import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetrieveRequest, type RetrieveResponse } from '@reports/contracts';
import { createLogger, metricsText } from '@reports/platform';
import { LocalEmbedder } from '@reports/providers';
import { PostgresKeywordIndex, vectorSearch, type SearchScope } from '@reports/search';
import { createTestDatabase, sampleReportSpec, type TestDatabase } from '@reports/test-support';
import { FolderIndexCache, queryState } from '../src/memory/cache.js';
import { calibrate } from '../src/memory/arithmetic.js';
import { keywordSearch, vectorSearch as vectorSearchInMemory } from '../src/memory/legs.js';
import { candidateDepth, retrieve, type RetrievalDeps } from '../src/retrieve/retrieve.js';

// The in-memory folder index (ADR 135) against the SQL legs it replaces, on one real Postgres:
// the same chunks in the same ranks with the same scores, for every query, in every scope;
// a change to a folder's chunks seen by the next query with no event sent; a query never sees
// half of a change; a memory budget kept by evicting the least recently used folder.

let db: TestDatabase;
const logger = createLogger('folder-index-test', 'silent');
const embedder = new LocalEmbedder();
const tenant = randomUUID();
const folders: string[] = [];

/** What people ask of a report, plus prefixes, accents, repeats and words no chunk has. */
const QUERIES = [
  'are any roof slates missing',
  'condition of the chimney stack',
  'rising damp in the cellar walls',
  'when was the boiler last serviced',
  'cracks in the external render',
  'electrical installation needs rewiring',
  'drainage and gutters blocked',
  'woodworm in the roof timbers',
  'roof',
  'roo',
  'b',
  'damp damp damp walls',
  'façade',
  'facade south west',
  'Über Straße',
  'main panel capacity 200 AMP',
  'Water heater approximate age: 11 years',
  'furnace brand',
  'zzzz qqqq',
  'the',
];

/** Paragraphs of generated survey reports and inspection lines, with duplicates and an empty one. */
function texts(seed: number, count: number): string[] {
  const out: string[] = [];
  for (let s = seed; out.length < count; s++) {
    const spec = sampleReportSpec({ sections: 10, paragraphsPerSection: 6, seed: s });
    for (const section of spec.sections) {
      for (let i = 0; i + 1 < section.paragraphs.length && out.length < count; i += 2) {
        out.push(`${section.heading}. ${section.paragraphs[i]} ${section.paragraphs[i + 1]}`);
      }
    }
  }
  out.push(
    'Electrical: Main panel capacity: 200 AMP. Service entrance: underground.',
    'Water heater approximate age: 11 years. Capacity: 50 gallons.',
    'Water heater approximate age: 11 years. Capacity: 50 gallons.',
    'Heating: Furnace brand: Coleman. Approximate age: 13 years.',
    'Die Straße und die Brücke über den Fluss.',
    '— … —',
  );
  return out;
}

async function insertFolder(title: string, contents: string[], embedEvery = 1): Promise<string> {
  const reportId = randomUUID();
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, title, content_type, document_kind, size_bytes, sha256, object_key, status)
     VALUES ($1, $2, 'survey.html', $3, 'text/html', 'html', 1, repeat('0', 64), 'k', 'ready')`,
    [reportId, tenant, title],
  );
  await insertChunks(reportId, contents, embedEvery);
  return reportId;
}

async function insertChunks(
  reportId: string,
  contents: string[],
  embedEvery = 1,
  firstOrder = 0,
): Promise<void> {
  const vectors = await embedder.embed(contents);
  for (let i = 0; i < contents.length; i += 200) {
    const values: unknown[] = [];
    const tuples = contents.slice(i, i + 200).map((content, j) => {
      const p = values.length;
      const embedded = (i + j) % embedEvery === 0;
      values.push(
        randomUUID(),
        tenant,
        reportId,
        content,
        content.split(/\s+/).length,
        firstOrder + i + j,
        embedded ? `[${vectors[i + j]!.join(',')}]` : null,
        embedded ? embedder.model : null,
      );
      return `($${p + 1},$${p + 2},$${p + 3},$${p + 3},'main','Section',$${p + 4},$${p + 5},$${p + 6},$${p + 7},$${p + 8})`;
    });
    await db.pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, source_type, section_name, content, content_tokens, order_in_doc, embedding, embedding_model)
       VALUES ${tuples.join(',')}`,
      values,
    );
  }
}

function deps(folderIndex: FolderIndexCache | null): RetrievalDeps {
  return {
    pool: db.pool,
    keywordIndex: new PostgresKeywordIndex(db.pool),
    embedder,
    reranker: null,
    generator: null,
    logger,
    // These tests compare results, not log rows.
    retrievalLog: { add: () => undefined },
    folderIndex,
  };
}

const request = (query: string, scope: RetrieveRequest['scope'], topK = 8) =>
  RetrieveRequest.parse({
    caller: { kind: 'user', user_id: randomUUID(), tenant_id: tenant },
    scope,
    query,
    top_k: topK,
  });

/** Timings and log ids differ between any two calls; scores are compared apart, to a tolerance. */
const comparable = (r: RetrieveResponse) => ({
  ...r,
  embed_ms: 0,
  retrieval_ms: 0,
  rerank_ms: 0,
  retrieval_log_id: '',
  chunks: r.chunks.map((c) => ({
    ...c,
    bm25_score: c.bm25_score !== null,
    vector_dist: c.vector_dist !== null,
  })),
});

/** Same chunks, ranks and rows; BM25 scores to 1e-9 and cosine distances to 1e-6. */
function expectSameAnswer(memory: RetrieveResponse, sql: RetrieveResponse, query: string): void {
  expect(comparable(memory), query).toEqual(comparable(sql));
  memory.chunks.forEach((c, i) => {
    const s = sql.chunks[i]!;
    if (c.bm25_score !== null) expect(Math.abs(c.bm25_score - s.bm25_score!)).toBeLessThan(1e-9);
    if (c.vector_dist !== null) expect(Math.abs(c.vector_dist - s.vector_dist!)).toBeLessThan(1e-6);
  });
}

/** Asserts both legs give the same hits in memory as in SQL for this scope and every query. */
async function expectSameLegs(cache: FolderIndexCache, scope: SearchScope): Promise<number> {
  const sqlKeyword = new PostgresKeywordIndex(db.pool);
  const depth = candidateDepth(8);
  let compared = 0;
  for (const query of QUERIES) {
    const state = await queryState(db.pool, scope.reportIds, query);
    const snapshots = await Promise.all(
      scope.reportIds.map((id) => cache.get(id, state.versions.get(id) ?? 0n)),
    );
    const held = snapshots.map((s) => {
      if (!s) throw new Error('a folder did not fit the budget');
      return s;
    });
    const allowed = scope.chunkIds ? new Set(scope.chunkIds) : null;
    const [vector] = await embedder.embed([query]);

    const keywordSql = await sqlKeyword.searchScope(scope, query, depth);
    const keywordMem = keywordSearch(held, state.lexemes, depth, allowed);
    expect(
      keywordMem.map((h) => [h.chunk_id, h.rank]),
      query,
    ).toEqual(keywordSql.map((h) => [h.chunk_id, h.rank]));
    keywordMem.forEach((h, i) =>
      expect(Math.abs(h.score - keywordSql[i]!.score), query).toBeLessThan(1e-9),
    );

    if (vector!.some((x) => x !== 0)) {
      const vectorSql = await vectorSearch(db.pool, scope, vector!, depth);
      const vectorMem = vectorSearchInMemory(held, vector!, depth, allowed);
      expect(
        vectorMem.map((h) => [h.chunk_id, h.rank]),
        query,
      ).toEqual(vectorSql.map((h) => [h.chunk_id, h.rank]));
      // With pgvector's arithmetic recognised, distances are the server's bit for bit.
      if (held[0]!.arithmetic === 'float32x8') {
        expect(
          vectorMem.map((h) => h.distance),
          query,
        ).toEqual(vectorSql.map((h) => h.distance));
      }
      vectorMem.forEach((h, i) =>
        expect(Math.abs(h.distance - vectorSql[i]!.distance), query).toBeLessThan(1e-6),
      );
      compared += vectorMem.length;
    }
    compared += keywordMem.length;
  }
  return compared;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(
    `INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal') ON CONFLICT DO NOTHING`,
    [tenant],
  );
  folders.push(await insertFolder('Big folder', texts(1, 1500)));
  folders.push(await insertFolder('Second folder', texts(40, 300), 3));
  folders.push(await insertFolder('Third folder', texts(80, 120)));
}, 120_000);

afterAll(async () => {
  await db?.drop();
});

describe('the in-memory legs', () => {
  it('find what the SQL legs find, in the same ranks with the same scores, in a folder', async () => {
    const cache = new FolderIndexCache(db.pool, 512 * 1024 * 1024, logger);
    const compared = await expectSameLegs(cache, { reportIds: [folders[0]!], chunkIds: null });
    expect(compared).toBeGreaterThan(QUERIES.length * 20);
    // This machine's Postgres sums as pgvector's AVX build does: the arithmetic is recognised.
    expect(await calibrate(db.pool)).toBe('float32x8');
  });

  it('do so over several folders (statistics of their union) and a set of chunks', async () => {
    const cache = new FolderIndexCache(db.pool, 512 * 1024 * 1024, logger);
    await expectSameLegs(cache, { reportIds: folders, chunkIds: null });
    await expectSameLegs(cache, { reportIds: [folders[1]!, folders[2]!], chunkIds: null });
    const { rows } = await db.pool.query<{ id: string }>(
      'SELECT id::text FROM chunks WHERE report_id = $1 ORDER BY order_in_doc',
      [folders[0]],
    );
    const someChunks = rows.filter((_, i) => i % 3 === 0).map((r) => r.id);
    await expectSameLegs(cache, { reportIds: [folders[0]!], chunkIds: someChunks });
  });

  it('give POST /retrieve the same answer as the SQL path, in folder and multi-report scope', async () => {
    const memory = deps(new FolderIndexCache(db.pool, 512 * 1024 * 1024, logger));
    const sql = deps(null);
    for (const query of QUERIES) {
      for (const scope of [
        { type: 'folder' as const, report_id: folders[0]! },
        { type: 'multi_report' as const, report_ids: folders },
      ]) {
        const a = await retrieve(sql, request(query, scope));
        const b = await retrieve(memory, request(query, scope));
        expectSameAnswer(b, a, query);
      }
    }
    // The tenant check travels with the folder's state: another tenant's user finds nothing.
    const stranger = RetrieveRequest.parse({
      caller: { kind: 'user', user_id: randomUUID(), tenant_id: randomUUID() },
      scope: { type: 'folder', report_id: folders[0]! },
      query: 'roof',
    });
    await expect(retrieve(memory, stranger)).rejects.toMatchObject({ code: 'not_found' });
    await expect(retrieve(sql, stranger)).rejects.toMatchObject({ code: 'not_found' });
    const unknown = RetrieveRequest.parse({
      caller: { kind: 'admin' },
      scope: { type: 'folder', report_id: randomUUID() },
      query: 'roof',
    });
    await expect(retrieve(memory, unknown)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('the folder index kept in memory', () => {
  it('serves a change of the chunks to the next query, with no event sent', async () => {
    const cache = new FolderIndexCache(db.pool, 512 * 1024 * 1024, logger);
    const memory = deps(cache);
    const folder = await insertFolder('Changing folder', texts(200, 50));
    const query = 'unmistakable quokka sighting in the attic';
    const before = await retrieve(memory, request(query, { type: 'folder', report_id: folder }));
    expect(before.chunks.some((c) => c.content.includes('quokka'))).toBe(false);

    await insertChunks(
      folder,
      ['An unmistakable quokka sighting in the attic was recorded.'],
      1,
      10_000,
    );
    const after = await retrieve(memory, request(query, { type: 'folder', report_id: folder }));
    expect(after.chunks[0]?.content).toContain('quokka');

    await db.pool.query(`DELETE FROM chunks WHERE report_id = $1 AND content LIKE '%quokka%'`, [
      folder,
    ]);
    const gone = await retrieve(memory, request(query, { type: 'folder', report_id: folder }));
    expect(gone.chunks.some((c) => c.content.includes('quokka'))).toBe(false);
  });

  it('never answers from half of a change: every answer is all old chunks or all new ones', async () => {
    const cache = new FolderIndexCache(db.pool, 512 * 1024 * 1024, logger);
    const memory = deps(cache);
    const folder = await insertFolder('Replaced folder', texts(300, 200));
    const scope = { type: 'folder' as const, report_id: folder };
    const idsOf = async () =>
      new Set(
        (
          await db.pool.query<{ id: string }>('SELECT id::text FROM chunks WHERE report_id = $1', [
            folder,
          ])
        ).rows.map((r) => r.id),
      );
    const old = await idsOf();
    let replacing = true;
    const answers: RetrieveResponse[] = [];
    const asking = (async () => {
      while (replacing) answers.push(await retrieve(memory, request('roof slates damp', scope)));
    })();
    // The embed stage's rerun: one transaction deletes the folder's chunks and writes new ones.
    const replacement = texts(400, 200);
    const vectors = await embedder.embed(replacement);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM chunks WHERE report_id = $1', [folder]);
      for (const [i, content] of replacement.entries()) {
        await client.query(
          `INSERT INTO chunks (id, tenant_id, report_id, target_id, source_type, section_name, content, content_tokens, order_in_doc, embedding, embedding_model)
           VALUES ($1,$2,$3,$3,'main','Section',$4,$5,$6,$7,$8)`,
          [
            randomUUID(),
            tenant,
            folder,
            content,
            content.split(/\s+/).length,
            i,
            `[${vectors[i]!.join(',')}]`,
            embedder.model,
          ],
        );
        if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5));
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const fresh = await idsOf();
    await new Promise((r) => setTimeout(r, 50));
    replacing = false;
    await asking;
    answers.push(await retrieve(memory, request('roof slates damp', scope)));

    expect(answers.length).toBeGreaterThan(3);
    for (const answer of answers) {
      expect(answer.chunks.length).toBe(8);
      const ids = answer.chunks.map((c) => c.id);
      const allOld = ids.every((id) => old.has(id));
      const allNew = ids.every((id) => fresh.has(id));
      expect(allOld || allNew).toBe(true);
    }
    expect(answers.at(-1)!.chunks.every((c) => fresh.has(c.id))).toBe(true);
  });

  it('keeps within its budget by dropping the least recently used folder, and reports it', async () => {
    const probe = new FolderIndexCache(db.pool, 512 * 1024 * 1024, logger);
    const third = await probe.get(folders[2]!, 0n);
    const second = await probe.get(folders[1]!, 0n);
    // Room for the larger of the two small folders only.
    const budget = Math.max(third!.bytes, second!.bytes) + 1;
    const cache = new FolderIndexCache(db.pool, budget, logger);
    await cache.get(folders[2]!, 0n);
    expect(cache.heldBytes).toBe(third!.bytes);
    await cache.get(folders[1]!, 0n);
    expect(cache.heldBytes).toBe(second!.bytes);

    // The big folder does not fit at all: the SQL legs answer, with the same result.
    const memory = deps(cache);
    const scope = { type: 'folder' as const, report_id: folders[0]! };
    const a = await retrieve(memory, request('roof slates', scope));
    const again = await retrieve(memory, request('roof slates', scope));
    const b = await retrieve(deps(null), request('roof slates', scope));
    expectSameAnswer(a, b, 'roof slates');
    expectSameAnswer(again, b, 'roof slates');
    expect(cache.heldBytes).toBe(second!.bytes);

    const metrics = (await metricsText()).body;
    expect(metrics).toMatch(/retrieval_folder_index_evictions_total \d+/);
    expect(metrics).toMatch(/retrieval_folder_index_lookups_total\{result="oversize"\} [1-9]/);
    expect(metrics).toMatch(/retrieval_folder_index_warm_seconds_count [1-9]/);
    expect(metrics).toMatch(/retrieval_folder_index_bytes \d+/);
  });
});
