import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEmbedder } from '@reports/providers';
import { PostgresKeywordIndex, vectorSearch } from '@reports/search';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { embedTarget } from '../src/embed/embedStage.js';

// Chunks that keep their context, through the embed stage's work on real Postgres: heading
// paths in what both legs index, table chunks with their header, figure chunks with caption and
// annotation (the annotate stage runs before embed), each found by the keyword and the vector leg.

let db: TestDatabase;
const tenantId = randomUUID();
const reportId = randomUUID();
const embedder = new LocalEmbedder();
const table = [
  '| Item | Serviceable | Repair |',
  '| --- | --- | --- |',
  '| Window frames | | x |',
  '| Exterior doors | x | |',
].join('\n');
const ids = { table: randomUUID(), photo: randomUUID(), logo: randomUUID() };

beforeAll(async () => {
  db = await createTestDatabase();
  const q = (sql: string, params: unknown[]) => db.pool.query(sql, params);
  await q(`INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal')`, [tenantId]);
  await q(
    `INSERT INTO reports (id, tenant_id, filename, title, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'inspection.pdf', 'Inspection of 12 Elm Road', 'application/pdf', 'pdf', 1, repeat('0', 64), 'k')`,
    [reportId, tenantId],
  );
  const sections = [
    { name: 'Heating', level: 1, markdown: '' },
    {
      name: 'Furnace',
      level: 2,
      markdown:
        'The gas appliance in the utility room fires and heats normally. Approximate age: 13 years. ' +
        'Filters are dirty and should be replaced; annual servicing by a qualified technician is advised. ' +
        'The flue pipe is sealed at the wall and the condensate line drains to the floor trap as intended. ' +
        'The burner flame is blue and steady, the heat exchanger shows no visible cracks or rust, and the ' +
        'blower runs quietly on its mounts. The return air ducts are sealed with foil tape at every joint, ' +
        'and the supply registers in all bedrooms and both bathrooms deliver warm air within a few minutes ' +
        'of a call for heat from the hallway thermostat, which reads the room temperature correctly.',
    },
    { name: 'Exterior', level: 1, markdown: `The walls are brick.\n\n${table}` },
  ];
  const sectionIds: string[] = [];
  for (const [i, s] of sections.entries()) {
    const id = randomUUID();
    sectionIds.push(id);
    await q(
      `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8)`,
      [id, tenantId, reportId, s.name, s.name.toLowerCase(), s.level, i, s.markdown],
    );
  }
  await q(
    `INSERT INTO report_tables (id, tenant_id, report_id, target_id, section_id, page_number, order_in_doc, markdown, cells)
     VALUES ($1, $2, $3, $3, $4, 2, 0, $5, '[]')`,
    [ids.table, tenantId, reportId, sectionIds[2], table],
  );
  const figure = (id: string, order: number, caption: string | null, annotation: object) =>
    q(
      `INSERT INTO figures (id, tenant_id, report_id, target_id, section_id, section_name, page_number, order_in_doc,
         object_key, ocr_text, annotation_source, annotation_json)
       VALUES ($1, $2, $3, $3, $4, 'Exterior', 2, $5, 'k', $6, 'openai', $7)`,
      [id, tenantId, reportId, sectionIds[2], order, caption, JSON.stringify(annotation)],
    );
  await figure(ids.photo, 0, 'Photo 3: cracked brick veneer', {
    image_type: 'photo',
    summary: 'Stepped crack running through the mortar joints beside a window.',
    entities: [],
  });
  await figure(ids.logo, 1, null, {
    image_type: 'photo',
    summary: '64x64 photo; no text recognised',
    entities: [],
    heuristic: true,
  });
  await embedTarget(
    { pool: db.pool, embedder, keywordIndex: new PostgresKeywordIndex(db.pool) },
    { tenant_id: tenantId, report_id: reportId, target_kind: 'report', target_id: reportId },
    AbortSignal.timeout(30_000),
  );
});
afterAll(async () => {
  await db?.drop();
});

async function chunk(id: string) {
  const { rows } = await db.pool.query<{
    content_type: string;
    table_id: string | null;
    figure_id: string | null;
    heading_path: string | null;
    content: string;
  }>('SELECT content_type, table_id, figure_id, heading_path, content FROM chunks WHERE id = $1', [
    id,
  ]);
  return rows[0]!;
}

async function bothLegs(query: string): Promise<{ keyword: string[]; vector: string[] }> {
  const keyword = await new PostgresKeywordIndex(db.pool).search(reportId, query, 3);
  const [v] = await embedder.embed([query]);
  const vector = await vectorSearch(db.pool, reportId, v!, 3);
  return { keyword: keyword.map((h) => h.chunk_id), vector: vector.map((h) => h.chunk_id) };
}

describe('chunks that keep their context', () => {
  it('finds a chunk by a word of its heading path alone, with both legs', async () => {
    const { keyword, vector } = await bothLegs('furnace');
    expect(keyword[0]).toBeDefined();
    expect(vector[0]).toBe(keyword[0]);
    const top = await chunk(keyword[0]!);
    expect(top.heading_path).toBe('Inspection of 12 Elm Road > Heating > Furnace');
    expect(top.content).not.toMatch(/furnace/i);
    expect(top.content).toContain('Approximate age: 13 years');
  });

  it('makes the table a table chunk with its header, found by both legs', async () => {
    const { keyword, vector } = await bothLegs('window frames repair');
    const top = await chunk(keyword[0]!);
    expect(vector[0]).toBe(keyword[0]);
    expect(top).toMatchObject({
      content_type: 'table',
      table_id: ids.table,
      figure_id: null,
      heading_path: 'Inspection of 12 Elm Road > Exterior',
    });
    // The short paragraph above the table leads it in, then its header.
    expect(top.content.startsWith('The walls are brick.\n\n| Item | Serviceable | Repair |')).toBe(
      true,
    );
  });

  it('makes a captioned, annotated photo a figure chunk found by both legs, and no chunk of a bare one', async () => {
    const { keyword, vector } = await bothLegs('cracked veneer mortar');
    const top = await chunk(keyword[0]!);
    expect(vector[0]).toBe(keyword[0]);
    expect(top).toMatchObject({ content_type: 'figure', figure_id: ids.photo, table_id: null });
    expect(top.content).toContain('Photo 3: cracked brick veneer');
    expect(top.content).toContain('Stepped crack running through the mortar joints');
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM chunks WHERE figure_id = $1`,
      [ids.logo],
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});
