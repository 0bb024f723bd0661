import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import pgvector from 'pgvector';
import { PostgresKeywordIndex, VECTOR_SQL, vectorSearch } from '../src/index.js';
import { createFolder, insertChunks, unitVector } from './support.js';

let db: TestDatabase;
let folder: { tenantId: string; reportId: string };
const ids: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  folder = await createFolder(db.pool);
  // The folder: 30 chunks along axes 0..29, plus one without an embedding.
  ids.push(
    ...(await insertChunks(
      db.pool,
      folder,
      Array.from({ length: 30 }, (_, i) => ({
        content: `chunk ${i} about the roof`,
        embedding: unitVector(i, 0.5),
      })),
    )),
  );
  ids.push(
    ...(await insertChunks(db.pool, folder, [
      { content: 'an unembedded note on the roof drainage', embedding: null },
    ])),
  );
  // Other reports: 60 folders of 40 chunks each, all very close to the query, built in SQL.
  await db.pool.query(`
    INSERT INTO tenants (id, name, kind) VALUES ('00000000-0000-4000-8000-000000000001', 'others', 'personal');
    INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
    SELECT ('00000000-0000-4000-9000-' || lpad(r::text, 12, '0'))::uuid, '00000000-0000-4000-8000-000000000001',
           'o.html', 'text/html', 'html', 1, repeat('0', 64), 'k'
      FROM generate_series(1, 60) r;
    INSERT INTO chunks (id, tenant_id, report_id, target_id, content, content_tokens, order_in_doc, embedding)
    SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', rep, rep, 'roof', 1, c,
           (SELECT array_agg(CASE WHEN d = 1 THEN 1.0 ELSE 0.0 END ORDER BY d) FROM generate_series(1, 1536) d)::vector
      FROM (SELECT ('00000000-0000-4000-9000-' || lpad(r::text, 12, '0'))::uuid AS rep FROM generate_series(1, 60) r) reps,
           generate_series(0, 39) c;
    ANALYZE chunks;`);
});
afterAll(async () => {
  await db?.drop();
});

describe('the vector leg', () => {
  it('returns the exact nearest neighbours inside the folder, nearest first', async () => {
    const query = unitVector(7);
    const hits = await vectorSearch(db.pool, folder.reportId, query, 5);
    expect(hits[0]!.chunk_id).toBe(ids[7]);
    expect(hits.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5]);
    // Cosine distance of unitVector(7, 0.5) to the axis: 1 - 1/sqrt(1.25).
    expect(hits[0]!.distance).toBeCloseTo(1 - 1 / Math.sqrt(1.25), 6);
    // The next ones lean onto axis 7 from axis 6 (0.5 each), then are orthogonal.
    expect(hits[1]!.chunk_id).toBe(ids[6]);
    for (let i = 1; i < hits.length; i++)
      expect(hits[i]!.distance).toBeGreaterThanOrEqual(hits[i - 1]!.distance);
  });

  it("never returns another report's chunks, however close they are", async () => {
    const hits = await vectorSearch(db.pool, folder.reportId, unitVector(0), 100);
    const { rows } = await db.pool.query<{ report_id: string }>(
      'SELECT DISTINCT report_id FROM chunks WHERE id = ANY($1::uuid[])',
      [hits.map((h) => h.chunk_id)],
    );
    expect(rows.map((r) => r.report_id)).toEqual([folder.reportId]);
    expect(hits).toHaveLength(30);
  });

  it('reads the folder through the report index, never by a sequential scan of chunks', async () => {
    for (const reportIds of [[folder.reportId], [folder.reportId, randomUUID()]]) {
      const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${VECTOR_SQL}`, [
        reportIds,
        pgvector.toSql(unitVector(0)),
        10,
        null,
      ]);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/chunks_report_idx/);
      expect(plan).not.toMatch(/Seq Scan on chunks/);
    }
  });

  it('leaves chunks without an embedding to the keyword leg, which finds them', async () => {
    const unembedded = ids.at(-1)!;
    const vector = await vectorSearch(db.pool, folder.reportId, unitVector(0), 100);
    expect(vector.map((h) => h.chunk_id)).not.toContain(unembedded);
    const keyword = await new PostgresKeywordIndex(db.pool).search(folder.reportId, 'drainage', 10);
    expect(keyword.map((h) => h.chunk_id)).toEqual([unembedded]);
  });
});
