import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { newEvent, type StageResult } from '@reports/platform';
import { LocalEmbedder } from '@reports/providers';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { embedStage } from '../src/embed/embedStage.js';

let db: TestDatabase;
const tenantId = randomUUID();
const ctx = (deliveryCount: number) => ({
  deliveryCount,
  lastAttempt: false,
  signal: new AbortController().signal,
  seq: 1,
  logger: pino({ level: 'silent' }),
});

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal')`, [
    tenantId,
  ]);
});
afterAll(async () => {
  await db?.drop();
});

async function reportWithSections(n: number, uploadedAt = new Date()): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key, created_at)
     VALUES ($1, $2, 'survey.html', 'text/html', 'html', 1, repeat('0', 64), 'k', $3)`,
    [id, tenantId, uploadedAt],
  );
  for (let i = 0; i < n; i += 1) {
    await db.pool.query(
      `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
       VALUES ($1, $2, $3, $3, $4, $5, 1, $6, $7)`,
      [
        randomUUID(),
        tenantId,
        id,
        `Section ${i}`,
        `section-${i}`,
        i,
        `The roof slates of part ${i} are sound.`,
      ],
    );
  }
  return id;
}

const annotated = (id: string) =>
  newEvent(
    'FiguresAnnotated',
    {
      tenant_id: tenantId,
      report_id: id,
      target_kind: 'report',
      target_id: id,
      generation: 1,
      correlation_id: id,
      causation_id: null,
    },
    { figures: 0, annotated: 0, cost_cents: 0 },
  );

function embeddedData(result: StageResult) {
  if (result.outcome !== 'done' || result.emit.type !== 'ChunksEmbedded')
    throw new Error(`not embedded: ${JSON.stringify(result)}`);
  return result.emit.data;
}

const chunkIds = async (id: string) =>
  (
    await db.pool.query<{ id: string }>(
      'SELECT id FROM chunks WHERE target_id = $1 ORDER BY order_in_doc',
      [id],
    )
  ).rows.map((r) => r.id);

describe('the embed stage', () => {
  const run = (id: string, attempt: number) =>
    embedStage({ pool: db.pool, embedder: new LocalEmbedder() }).run(annotated(id), ctx(attempt));

  it('leaves the chunks of its generation untouched when run again, and announces them again', async () => {
    const id = await reportWithSections(3);
    const first = embeddedData(await run(id, 1));
    const before = await chunkIds(id);
    expect(before).toHaveLength(first.chunks);
    const again = embeddedData(await run(id, 2));
    expect(again).toEqual(first);
    expect(await chunkIds(id)).toEqual(before);
  });

  it('gives chunk ids that sort by upload, then by place in the document', async () => {
    const later = await reportWithSections(4, new Date('2026-03-02T10:00:00Z'));
    const earlier = await reportWithSections(4, new Date('2026-03-01T10:00:00Z'));
    embeddedData(await run(later, 1));
    embeddedData(await run(earlier, 1));
    const { rows } = await db.pool.query<{ report_id: string; order_in_doc: number }>(
      'SELECT report_id, order_in_doc FROM chunks WHERE report_id = ANY($1::uuid[]) ORDER BY id',
      [[later, earlier]],
    );
    const expected = [earlier, later].flatMap((r) =>
      rows
        .filter((c) => c.report_id === r)
        .map((c) => c.order_in_doc)
        .sort((a, b) => a - b)
        .map((order_in_doc) => ({ report_id: r, order_in_doc })),
    );
    expect(rows.filter((c) => c.report_id === earlier).length).toBeGreaterThan(1);
    expect(rows).toEqual(expected);
  });

  it('writes the chunks once when two attempts of one generation run at the same time', async () => {
    const id = await reportWithSections(4);
    const [a, b] = await Promise.all([run(id, 1), run(id, 2)]);
    expect(embeddedData(b)).toEqual(embeddedData(a));
    const { rows } = await db.pool.query<{ outputs: number }>(
      `SELECT count(*)::int AS outputs FROM stage_outputs WHERE target_id = $1 AND stage = 'embed'`,
      [id],
    );
    expect(rows[0]!.outputs).toBe(1);
    expect(await chunkIds(id)).toHaveLength(embeddedData(a).chunks);
  });
});
