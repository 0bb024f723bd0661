import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import {
  OpenSearchKeywordIndex,
  PostgresKeywordIndex,
  type IndexableChunk,
  type KeywordIndex,
} from '../src/index.js';
import { createFolder, insertChunks } from './support.js';

// One conformance suite for every keyword backend: Postgres always, OpenSearch when
// OPENSEARCH_URL names a server (its index is created for the run and deleted after).
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

type Backend = { name: string; make(): Promise<KeywordIndex> };
const backends: Backend[] = [
  { name: 'postgres', make: async () => new PostgresKeywordIndex(db.pool) },
];
if (process.env.OPENSEARCH_URL) {
  backends.push({
    name: 'opensearch',
    make: async () => {
      const index = new OpenSearchKeywordIndex(
        process.env.OPENSEARCH_URL!,
        `test-chunks-${randomUUID()}`,
      );
      await index.ensureReady();
      return index;
    },
  });
}

describe.each(backends)('the $name keyword backend', (backend) => {
  let index: KeywordIndex;
  let folder: { tenantId: string; reportId: string };
  let other: { tenantId: string; reportId: string };
  const ids = new Map<string, string>();

  /** Writes chunks as the embed stage does, then tells the index. */
  async function write(
    f: { tenantId: string; reportId: string },
    named: Record<string, string>,
  ): Promise<void> {
    const names = Object.keys(named);
    const chunkIds = await insertChunks(
      db.pool,
      f,
      names.map((n) => ({ content: named[n]! })),
    );
    names.forEach((n, i) => ids.set(n, chunkIds[i]!));
    const { rows } = await db.pool.query<IndexableChunk>(
      'SELECT id, tenant_id, report_id, target_id, content FROM chunks WHERE target_id = $1',
      [f.reportId],
    );
    await index.replaceTarget({ reportId: f.reportId, targetId: f.reportId }, rows);
  }
  const nameOf = (id: string) => [...ids.entries()].find(([, v]) => v === id)?.[0];
  const search = async (q: string, limit = 10) =>
    (await index.search(folder.reportId, q, limit)).map((h) => nameOf(h.chunk_id));

  beforeAll(async () => {
    index = await backend.make();
    folder = await createFolder(db.pool);
    other = await createFolder(db.pool);
    await write(folder, {
      roof: 'Several slates are missing from the main roof.',
      facade: 'The Façade render is cracked near the entrance.',
      cellar: 'Damp was found in the cellar walls; the damp proof course has failed.',
      boiler: 'The boiler was serviced last year and works.',
      garden: 'The garden fence leans towards the neighbouring plot.',
      windows: 'Windows are double glazed; two windows have failed seals.',
      long: 'The survey covers the building as seen on the day. Access was limited, and the loft hatch was sealed, so the loft and the roof timbers above it were not inspected; damp was not tested.',
    });
    await write(other, {
      intruder: 'Roof roof roof: damp everywhere, slates missing, boiler broken.',
    });
  });

  it('finds a chunk by the prefix of one of its words', async () => {
    expect(await search('boil')).toEqual(['boiler']);
  });

  it('ignores accents in the chunk and in the query', async () => {
    expect(await search('facade')).toEqual(['facade']);
    expect(await search('FAÇADE')).toEqual(['facade']);
  });

  it('does not stem: a longer query word does not match its stem', async () => {
    expect(await search('roofs')).toEqual([]);
    expect(await search('gardening')).toEqual([]);
  });

  it("never returns another folder's chunks", async () => {
    const hits = await index.search(folder.reportId, 'roof damp slates boiler', 50);
    expect(hits.map((h) => nameOf(h.chunk_id))).not.toContain('intruder');
    expect(hits.length).toBeGreaterThan(0);
  });

  it('ranks a chunk holding a word more often first', async () => {
    expect((await search('damp'))[0]).toBe('cellar');
    expect((await search('windows'))[0]).toBe('windows');
  });

  it('ranks the shorter of two chunks with the same matches first (length normalisation)', async () => {
    const ranked = await search('roof');
    expect(ranked.slice(0, 2)).toEqual(['roof', 'long']);
  });

  it('gives a rare word more weight than a common one', async () => {
    // "the" is in most chunks, "fence" in one: the fence chunk wins.
    expect((await search('the fence'))[0]).toBe('garden');
  });

  it('numbers hits from 1 with scores that never increase', async () => {
    const hits = await index.search(folder.reportId, 'the damp roof', 10);
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1));
    for (let i = 1; i < hits.length; i++)
      expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    expect(hits.every((h) => h.score > 0)).toBe(true);
  });

  it('respects the limit', async () => {
    expect(await index.search(folder.reportId, 'the', 2)).toHaveLength(2);
  });

  it('answers nothing for a query without words or for an unknown folder', async () => {
    expect(await index.search(folder.reportId, '?! —', 10)).toEqual([]);
    expect(await index.search(randomUUID(), 'roof', 10)).toEqual([]);
  });

  it("forgets a target's chunks once they are replaced", async () => {
    const f = await createFolder(db.pool);
    await write(f, { first: 'an asbestos panel in the garage' });
    expect(await index.search(f.reportId, 'asbestos', 10)).toHaveLength(1);
    await db.pool.query('DELETE FROM chunks WHERE target_id = $1', [f.reportId]);
    await write(f, { second: 'a new garage door' });
    expect(await index.search(f.reportId, 'asbestos', 10)).toEqual([]);
    expect((await index.search(f.reportId, 'garage', 10)).map((h) => nameOf(h.chunk_id))).toEqual([
      'second',
    ]);
  });
});
