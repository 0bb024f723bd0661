import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { EventOf, PipelineEvent } from '@reports/contracts';
import {
  createObjectStore,
  newEvent,
  withTransaction,
  type ObjectStore,
  type StageResult,
} from '@reports/platform';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { buildHtml, corruptPdf, sampleReportSpec } from '@reports/test-support';
import { parseStage } from '../src/parse/parseStage.js';
import { scanStage } from '../src/scan/scanStage.js';
import { applyToRow } from '../src/projection/projector.js';
import { finalizeStage } from '../src/finalize/finalizeStage.js';

let db: TestDatabase;
let store: ObjectStore;
let dir: string;
const tenant = randomUUID();
const ctx = {
  deliveryCount: 1,
  lastAttempt: false,
  signal: new AbortController().signal,
  seq: 1,
  logger: pino({ level: 'silent' }),
};

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'ingestion-objects-'));
  store = createObjectStore({ url: `file://${dir}` });
  await store.ensureReady();
  await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal')`, [
    tenant,
  ]);
});
afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

async function givenReport(bytes: Buffer, kind: 'html' | 'pdf'): Promise<string> {
  const id = randomUUID();
  const key = `tenants/${tenant}/reports/${id}/original/source.${kind}`;
  await store.put(key, bytes);
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, $3, 'x', $4, $5, $6, $7)`,
    [id, tenant, `r.${kind}`, kind, bytes.length, 'a'.repeat(64), key],
  );
  return id;
}

function origin(id: string) {
  return {
    tenant_id: tenant,
    report_id: id,
    target_kind: 'report' as const,
    target_id: id,
    generation: 1,
    correlation_id: id,
    causation_id: null,
  };
}

function parsedData(result: StageResult): EventOf<'ReportParsed'>['data'] {
  if (result.outcome !== 'done' || result.emit.type !== 'ReportParsed')
    throw new Error(`not parsed: ${JSON.stringify(result)}`);
  return result.emit.data;
}

const scanned = (id: string, kind: 'html' | 'pdf') =>
  newEvent('ReportScanned', origin(id), { document_kind: kind, page_count: null, cost_cents: 0 });

describe('scan stage', () => {
  it('passes a stored file whose bytes match the record', async () => {
    const id = await givenReport(buildHtml(sampleReportSpec()), 'html');
    const uploaded = newEvent('ReportUploaded', origin(id), {
      filename: 'r.html',
      content_type: 'text/html',
      size_bytes: 1,
      object_key: 'k',
      sha256: 'a'.repeat(64),
      title: null,
    });
    expect(await scanStage({ pool: db.pool, objectStore: store }).run(uploaded, ctx)).toMatchObject(
      {
        outcome: 'done',
        emit: { type: 'ReportScanned', data: { document_kind: 'html' } },
      },
    );
  });

  it('fails a file whose bytes are not the recorded type', async () => {
    const id = await givenReport(buildHtml(sampleReportSpec()), 'pdf');
    const uploaded = newEvent('ReportUploaded', origin(id), {
      filename: 'r.pdf',
      content_type: 'application/pdf',
      size_bytes: 1,
      object_key: 'k',
      sha256: 'a'.repeat(64),
      title: null,
    });
    const result = await scanStage({ pool: db.pool, objectStore: store }).run(uploaded, ctx);
    expect(result).toEqual({ outcome: 'failed', reason: 'stored file is html, expected pdf' });
  });
});

describe('parse stage', () => {
  it('gives the same answer when run twice: no duplicate sections or tables', async () => {
    const spec = sampleReportSpec({ sections: 4 });
    const id = await givenReport(buildHtml(spec), 'html');
    const stage = parseStage({ pool: db.pool, objectStore: store });
    const first = await stage.run(scanned(id, 'html'), ctx);
    const second = await stage.run(scanned(id, 'html'), ctx);
    expect(parsedData(second)).toEqual(parsedData(first));
    const { rows } = await db.pool.query<{ n: number; t: number }>(
      `SELECT (SELECT count(*)::int FROM sections WHERE report_id = $1) AS n, (SELECT count(*)::int FROM report_tables WHERE report_id = $1) AS t`,
      [id],
    );
    const data = parsedData(first);
    expect(rows[0]!.n).toBe(data.sections);
    expect(rows[0]!.t).toBe(data.tables);
    const report = await db.pool.query('SELECT parsed_markdown FROM reports WHERE id = $1', [id]);
    expect(report.rows[0].parsed_markdown).toContain(`# ${spec.sections[1]!.heading}\n`);
  });

  it('leaves the output of its generation untouched when run again after the downstream stages used it', async () => {
    const id = await givenReport(buildHtml(sampleReportSpec({ sections: 3 })), 'html');
    const stage = parseStage({ pool: db.pool, objectStore: store });
    const first = await stage.run(scanned(id, 'html'), ctx);
    const sectionIds = async () =>
      (
        await db.pool.query<{ id: string }>(
          'SELECT id FROM sections WHERE target_id = $1 ORDER BY order_in_doc',
          [id],
        )
      ).rows.map((r) => r.id);
    const before = await sectionIds();
    // The embed stage's output of this generation: a chunk of the first section.
    await db.pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, section_id, content, content_tokens, order_in_doc)
       VALUES ($1, $2, $3, $3, $4, 'text', 1, 0)`,
      [randomUUID(), tenant, id, before[0]],
    );
    // A second attempt of the same generation (a redelivery after the ack wait).
    const again = await stage.run(scanned(id, 'html'), { ...ctx, deliveryCount: 2 });
    expect(parsedData(again)).toEqual(parsedData(first));
    expect(await sectionIds()).toEqual(before);
    const chunks = await db.pool.query('SELECT 1 FROM chunks WHERE target_id = $1', [id]);
    expect(chunks.rowCount).toBe(1);
  });

  it('writes the output once when two attempts of one generation run at the same time', async () => {
    const id = await givenReport(buildHtml(sampleReportSpec({ sections: 5 })), 'html');
    const stage = parseStage({ pool: db.pool, objectStore: store });
    const results = await Promise.all([
      stage.run(scanned(id, 'html'), ctx),
      stage.run(scanned(id, 'html'), { ...ctx, deliveryCount: 2 }),
    ]);
    expect(parsedData(results[1]!)).toEqual(parsedData(results[0]!));
    const { rows } = await db.pool.query<{ n: number; outputs: number }>(
      `SELECT (SELECT count(*)::int FROM sections WHERE target_id = $1) AS n,
              (SELECT count(*)::int FROM stage_outputs WHERE target_id = $1 AND stage = 'parse') AS outputs`,
      [id],
    );
    expect(rows[0]).toEqual({ n: parsedData(results[0]!).sections, outputs: 1 });
  });

  it('writes nothing for an attempt of an older generation than the one whose output is committed', async () => {
    const id = await givenReport(buildHtml(sampleReportSpec({ sections: 2 })), 'html');
    const stage = parseStage({ pool: db.pool, objectStore: store });
    const newer = { ...scanned(id, 'html'), generation: 2 };
    await stage.run(newer, ctx);
    const before = await db.pool.query('SELECT id FROM sections WHERE target_id = $1', [id]);
    const stale = await stage.run(scanned(id, 'html'), ctx);
    expect(stale).toEqual({ outcome: 'skipped', reason: 'generation 2 has newer output' });
    const after = await db.pool.query('SELECT id FROM sections WHERE target_id = $1', [id]);
    expect(after.rows).toEqual(before.rows);
  });

  it('fails a damaged PDF with a message for people, without retrying', async () => {
    const id = await givenReport(corruptPdf(), 'pdf');
    const result = await parseStage({ pool: db.pool, objectStore: store }).run(
      scanned(id, 'pdf'),
      ctx,
    );
    expect(result.outcome).toBe('failed');
    expect((result as { reason: string }).reason).toMatch(/PDF/);
  });

  it('skips a report deleted before it ran', async () => {
    const id = await givenReport(buildHtml(sampleReportSpec()), 'html');
    await db.pool.query('DELETE FROM reports WHERE id = $1', [id]);
    expect(
      await parseStage({ pool: db.pool, objectStore: store }).run(scanned(id, 'html'), ctx),
    ).toEqual({
      outcome: 'skipped',
      reason: 'target deleted',
    });
  });
});

describe('finalize stage', () => {
  const embedded = (id: string, data: EventOf<'ChunksEmbedded'>['data']) =>
    newEvent('ChunksEmbedded', origin(id), data);

  /** A report parsed for real, its figures annotated and `chunks` chunk rows written. */
  async function givenParsedReport(chunks: number): Promise<string> {
    const id = await givenReport(buildHtml(sampleReportSpec({ sections: 3 })), 'html');
    await parseStage({ pool: db.pool, objectStore: store }).run(scanned(id, 'html'), ctx);
    await db.pool.query(`UPDATE figures SET annotation_source = 'local' WHERE target_id = $1`, [
      id,
    ]);
    for (let i = 0; i < chunks; i += 1) {
      await db.pool.query(
        `INSERT INTO chunks (id, tenant_id, report_id, target_id, content, content_tokens, order_in_doc)
         VALUES ($1, $2, $3, $3, 'text', 1, $4)`,
        [randomUUID(), tenant, id, i],
      );
    }
    return id;
  }

  it('declares ready a report whose rows agree with its events, and records the embedding outcome', async () => {
    const id = await givenParsedReport(2);
    const result = await finalizeStage({ pool: db.pool }).run(
      embedded(id, {
        chunks: 2,
        embedded: 0,
        embedding_status: 'skipped',
        embedding_model: null,
        cost_cents: 0,
      }),
      ctx,
    );
    expect(result).toEqual({
      outcome: 'done',
      emit: { type: 'ReportReady', data: { cost_cents: 0 } },
    });
    const { rows } = await db.pool.query(
      `SELECT parsed_metadata->>'embedding_status' AS status FROM reports WHERE id = $1`,
      [id],
    );
    expect(rows[0].status).toBe('skipped');
  });

  it('fails, never ready, a report whose chunks are missing though the events say they were embedded', async () => {
    const id = await givenParsedReport(0);
    const result = await finalizeStage({ pool: db.pool }).run(
      embedded(id, {
        chunks: 41,
        embedded: 41,
        embedding_status: 'complete',
        embedding_model: 'local',
        cost_cents: 0,
      }),
      ctx,
    );
    expect(result).toEqual({
      outcome: 'failed',
      reason:
        'outputs disagree with their events: chunks: 0 rows, the events say 41; embedded chunks: 0 rows, the events say 41',
    });
  });

  it('fails a report whose sections were deleted after parse recorded them', async () => {
    const id = await givenParsedReport(0);
    await db.pool.query('DELETE FROM sections WHERE target_id = $1', [id]);
    const result = await finalizeStage({ pool: db.pool }).run(
      embedded(id, {
        chunks: 0,
        embedded: 0,
        embedding_status: 'skipped',
        embedding_model: null,
        cost_cents: 0,
      }),
      ctx,
    );
    expect(result.outcome).toBe('failed');
    expect((result as { reason: string }).reason).toMatch(/sections: 0 rows, the events say 3/);
  });
});

describe('status projection', () => {
  const apply = (event: PipelineEvent, seq: number) =>
    withTransaction(db.pool, (c) => applyToRow(c, event, seq));

  it('applies each stream sequence once, so redelivery changes nothing', async () => {
    const id = await givenReport(buildHtml(sampleReportSpec()), 'html');
    const parsed = newEvent('ReportParsed', origin(id), {
      sections: 1,
      figures: 0,
      tables: 0,
      pages: null,
      cost_cents: 5,
    });
    expect(await apply(scanned(id, 'html'), 10)).toBe('applied');
    expect(await apply(parsed, 11)).toBe('applied');
    expect(await apply(parsed, 11)).toBe('stale');
    expect(await apply(scanned(id, 'html'), 10)).toBe('stale');
    const { rows } = await db.pool.query(
      'SELECT status, ingestion_cost_cents, projection_seq FROM reports WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ status: 'parsed', ingestion_cost_cents: 5, projection_seq: 11 });
  });

  it('ignores events of a deleted report', async () => {
    expect(await apply(scanned(randomUUID(), 'html'), 99)).toBe('missing');
  });
});
