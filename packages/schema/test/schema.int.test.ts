import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/src/database.js';
import { migrateSchema } from '../src/index.js';

let db: TestDatabase;
const tenant = randomUUID();
const report = randomUUID();

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal')`, [
    tenant,
  ]);
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'r.html', 'text/html', 'html', 1, $3, 'k')`,
    [report, tenant, 'a'.repeat(64)],
  );
});
afterAll(async () => {
  await db?.drop();
});

async function insertChunk(content: string, embedding: string | null = null): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO chunks (id, tenant_id, report_id, target_id, content, content_tokens, order_in_doc, embedding)
     VALUES ($1, $2, $3, $3, $4, 1, (SELECT count(*) FROM chunks), $5)`,
    [id, tenant, report, content, embedding],
  );
  return id;
}

describe('the schema', () => {
  it('is already fully applied in a fresh database, and migrating again changes nothing', async () => {
    expect((await migrateSchema(db.pool)).applied).toEqual([]);
    const { rows } = await db.pool.query<{ extname: string }>(
      `SELECT extname FROM pg_extension ORDER BY extname`,
    );
    expect(rows.map((r) => r.extname)).toEqual(expect.arrayContaining(['unaccent', 'vector']));
  });

  it('indexes chunk text unaccented and unstemmed', async () => {
    const id = await insertChunk('Façade repairs NEEDED');
    const { rows } = await db.pool.query<{ tsv: string }>(
      'SELECT tsv::text AS tsv FROM chunks WHERE id = $1',
      [id],
    );
    expect(rows[0]!.tsv).toBe(`'facade':1 'needed':3 'repairs':2`);
    const hit = await db.pool.query(
      `SELECT 1 FROM chunks WHERE id = $1 AND tsv @@ to_tsquery('simple', 'facad:*')`,
      [id],
    );
    expect(hit.rowCount).toBe(1);
  });

  it('indexes a chunk heading path before its text, and keeps the keyword statistics with it', async () => {
    const id = randomUUID();
    await db.pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, heading_path, content, content_tokens, order_in_doc)
       VALUES ($1, $2, $3, $3, 'Heating > Furnace', 'Approximate age: 13 years', 1, (SELECT count(*) FROM chunks))`,
      [id, tenant, report],
    );
    const { rows } = await db.pool.query<{ tsv: string }>(
      'SELECT tsv::text AS tsv FROM chunks WHERE id = $1',
      [id],
    );
    expect(rows[0]!.tsv).toBe(`'13':5 'age':4 'approximate':3 'furnace':2 'heating':1 'years':6`);
    const terms = async () =>
      (
        await db.pool.query<{ term: string }>(
          'SELECT term FROM chunk_terms WHERE chunk_id = $1 ORDER BY term',
          [id],
        )
      ).rows.map((r) => r.term);
    expect(await terms()).toContain('furnace');
    await db.pool.query(`UPDATE chunks SET heading_path = 'Heating > Boiler' WHERE id = $1`, [id]);
    expect(await terms()).toEqual(['13', 'age', 'approximate', 'boiler', 'heating', 'years']);
  });

  it('stores 1536-dimension embeddings, allows none, and refuses another size', async () => {
    await insertChunk('with embedding', `[${Array.from({ length: 1536 }, () => 0.01).join(',')}]`);
    await insertChunk('without embedding', null);
    await expect(insertChunk('wrong size', '[1,2,3]')).rejects.toThrow(/1536/);
  });

  it('carries tenant_id and report_id on every row that belongs to a report', async () => {
    const { rows } = await db.pool.query<{ table_name: string; cols: string[] }>(
      `SELECT table_name, array_agg(column_name::text) AS cols FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name IN ('attachments','sections','figures','report_tables','chunks','stage_runs')
        GROUP BY table_name ORDER BY table_name`,
    );
    expect(rows).toHaveLength(6);
    for (const row of rows)
      expect(row.cols, row.table_name).toEqual(expect.arrayContaining(['tenant_id', 'report_id']));
  });

  it('removes sections, tables, figures, chunks and attachments with their report, and keeps stage runs', async () => {
    const r = randomUUID();
    await db.pool.query(
      `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
       VALUES ($1, $2, 'x.html', 'text/html', 'html', 1, $3, 'k2')`,
      [r, tenant, 'b'.repeat(64)],
    );
    const section = randomUUID();
    await db.pool.query(
      `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
       VALUES ($1, $2, $3, $3, 'Roof', 'roof', 1, 0, 'text')`,
      [section, tenant, r],
    );
    await db.pool.query(
      `INSERT INTO attachments (id, tenant_id, report_id, source, filename, content_type, document_kind, size_bytes, sha256, object_key)
       VALUES ($1, $2, $3, 'user_upload', 'a.pdf', 'application/pdf', 'pdf', 1, $4, 'k3')`,
      [randomUUID(), tenant, r, 'c'.repeat(64)],
    );
    await db.pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, section_id, content, content_tokens, order_in_doc)
       VALUES ($1, $2, $3, $3, $4, 'text', 1, 0)`,
      [randomUUID(), tenant, r, section],
    );
    await db.pool.query(
      `INSERT INTO stage_runs (id, tenant_id, report_id, target_kind, target_id, stage, generation, attempt, outcome, started_at, finished_at, duration_ms)
       VALUES ($1, $2, $3, 'report', $3, 'parse', 1, 1, 'done', now(), now(), 1)`,
      [randomUUID(), tenant, r],
    );
    await db.pool.query('DELETE FROM reports WHERE id = $1', [r]);
    const { rows } = await db.pool.query(
      `SELECT (SELECT count(*)::int FROM sections WHERE report_id = $1) AS sections,
              (SELECT count(*)::int FROM attachments WHERE report_id = $1) AS attachments,
              (SELECT count(*)::int FROM chunks WHERE report_id = $1) AS chunks,
              (SELECT count(*)::int FROM stage_runs WHERE report_id = $1) AS stage_runs`,
      [r],
    );
    expect(rows[0]).toEqual({ sections: 0, attachments: 0, chunks: 0, stage_runs: 1 });
  });

  it('refuses a second partner attachment with the same partner_id in one report', async () => {
    const insert = () =>
      db.pool.query(
        `INSERT INTO attachments (id, tenant_id, report_id, source, partner_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
         VALUES ($1, $2, $3, 'partner', 'p-1', 'a.pdf', 'application/pdf', 'pdf', 1, $4, $5)`,
        [randomUUID(), tenant, report, 'd'.repeat(64), randomUUID()],
      );
    await insert();
    await expect(insert()).rejects.toThrow(/attachments_partner_idem_idx/);
  });
});
