import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { BM25_B, BM25_K1, PostgresKeywordIndex } from '../src/index.js';
import { createFolder, insertChunks } from './support.js';

let db: TestDatabase;
let index: PostgresKeywordIndex;
beforeAll(async () => {
  db = await createTestDatabase();
  index = new PostgresKeywordIndex(db.pool);
});
afterAll(async () => {
  await db?.drop();
});

/** BM25 written out plainly over word lists: the reference the SQL must equal. */
function bm25(docs: string[][], query: string[]): number[] {
  const n = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / n;
  return docs.map((doc) =>
    query.reduce((score, q) => {
      const tf = doc.filter((w) => w.startsWith(q)).length;
      if (tf === 0) return score;
      const df = docs.filter((d) => d.some((w) => w.startsWith(q))).length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      return (
        score +
        (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * doc.length) / avgdl))
      );
    }, 0),
  );
}

describe('BM25 in Postgres', () => {
  const texts = [
    'the wing in a slipstream at high speed',
    'heat transfer in the boundary layer of a wing',
    'the boundary layer separates at the trailing edge of the wing wing',
    'supersonic flow over a cone',
    'flows and flowfields near a heated plate',
  ];

  it('scores exactly as BM25 with prefix matching over the folder', async () => {
    const folder = await createFolder(db.pool);
    const ids = await insertChunks(
      db.pool,
      folder,
      texts.map((content) => ({ content })),
    );
    const query = ['wing', 'boundary', 'flow'];
    const expected = bm25(
      texts.map((t) => t.split(' ')),
      query,
    );
    const hits = await index.search(folder.reportId, 'Wing boundary flow', 10);
    expect(hits).toHaveLength(expected.filter((s) => s > 0).length);
    for (const hit of hits) expect(hit.score).toBeCloseTo(expected[ids.indexOf(hit.chunk_id)]!, 9);
  });

  it('over several folders, scores with the statistics of their union (multi_report)', async () => {
    const a = await createFolder(db.pool);
    const b = await createFolder(db.pool);
    const idsA = await insertChunks(
      db.pool,
      a,
      texts.slice(0, 3).map((content) => ({ content })),
    );
    const idsB = await insertChunks(
      db.pool,
      b,
      texts.slice(3).map((content) => ({ content })),
    );
    const ids = [...idsA, ...idsB];
    const expected = bm25(
      texts.map((t) => t.split(' ')),
      ['wing', 'boundary', 'flow'],
    );
    const hits = await index.searchScope(
      { reportIds: [a.reportId, b.reportId], chunkIds: null },
      'Wing boundary flow',
      10,
    );
    expect(hits).toHaveLength(expected.filter((s) => s > 0).length);
    for (const hit of hits) expect(hit.score).toBeCloseTo(expected[ids.indexOf(hit.chunk_id)]!, 9);
    // A set of chunks (section scope) keeps only those, with the folders' statistics.
    const only = await index.searchScope(
      { reportIds: [a.reportId, b.reportId], chunkIds: [idsA[1]!] },
      'Wing boundary flow',
      10,
    );
    expect(only.map((h) => h.chunk_id)).toEqual([idsA[1]]);
    expect(only[0]!.score).toBeCloseTo(expected[1]!, 9);
  });

  it('counts a query word given twice twice', async () => {
    const folder = await createFolder(db.pool);
    await insertChunks(
      db.pool,
      folder,
      texts.map((content) => ({ content })),
    );
    const [once] = await index.search(folder.reportId, 'cone', 1);
    const [twice] = await index.search(folder.reportId, 'cone cone', 1);
    expect(twice!.score).toBeCloseTo(2 * once!.score, 9);
  });

  it("takes its statistics from the folder only: other folders' chunks change no score", async () => {
    const a = await createFolder(db.pool);
    await insertChunks(
      db.pool,
      a,
      texts.map((content) => ({ content })),
    );
    const before = await index.search(a.reportId, 'wing cone', 10);
    const b = await createFolder(db.pool);
    await insertChunks(
      db.pool,
      b,
      Array.from({ length: 40 }, () => ({ content: 'wing wing cone wing' })),
    );
    expect(await index.search(a.reportId, 'wing cone', 10)).toEqual(before);
  });

  it('keeps postings and folder sizes in step with inserts, deletes, updates and report deletion', async () => {
    const folder = await createFolder(db.pool);
    const ids = await insertChunks(
      db.pool,
      folder,
      texts.map((content) => ({ content })),
    );
    const stats = async () =>
      (
        await db.pool.query<{ docs: number; total_length: number; postings: number }>(
          `SELECT (SELECT docs FROM keyword_folders WHERE report_id = $1)::int AS docs,
                  (SELECT total_length FROM keyword_folders WHERE report_id = $1)::int AS total_length,
                  (SELECT count(*) FROM chunk_terms WHERE report_id = $1)::int AS postings`,
          [folder.reportId],
        )
      ).rows[0]!;
    const words = texts.join(' ').split(' ').length;
    expect(await stats()).toMatchObject({ docs: 5, total_length: words });

    await db.pool.query('DELETE FROM chunks WHERE id = $1', [ids[3]]);
    expect(await stats()).toMatchObject({ docs: 4, total_length: words - 5 });
    expect(await index.search(folder.reportId, 'supersonic', 10)).toEqual([]);

    await db.pool.query(`UPDATE chunks SET content = 'hypersonic inlet' WHERE id = $1`, [ids[0]]);
    expect((await index.search(folder.reportId, 'hypersonic', 10)).map((h) => h.chunk_id)).toEqual([
      ids[0],
    ]);
    expect(await index.search(folder.reportId, 'slipstream', 10)).toEqual([]);

    await db.pool.query('DELETE FROM reports WHERE id = $1', [folder.reportId]);
    expect(await stats()).toEqual({ docs: null, total_length: null, postings: 0 });
  });
});
