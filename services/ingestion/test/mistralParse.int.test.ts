import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ANNOTATION_JSON_SCHEMA, annotationQualityScore, type EventOf } from '@reports/contracts';
import { createObjectStore, newEvent, type ObjectStore, type StageResult } from '@reports/platform';
import { MistralOcrEngine } from '@reports/providers';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import {
  MISTRAL_OCR_PATH,
  RICH_ANNOTATION,
  startFakeMistral,
  tinyPng,
  type FakeOcrDocument,
  type FakeServer,
} from '@reports/test-support';
import { buildScannedPdf } from '@reports/test-support';
import { parseStage } from '../src/parse/parseStage.js';
import { ocrEngineFor } from '../src/parse/ocrEngine.js';

let db: TestDatabase;
let store: ObjectStore;
let dir: string;
let mistral: FakeServer;
let scan: Buffer;
const tenant = randomUUID();
const ctx = {
  deliveryCount: 1,
  lastAttempt: false,
  signal: new AbortController().signal,
  seq: 1,
  logger: pino({ level: 'silent' }),
};

/** Two pages as Mistral reads a survey: headings, a table, a rich and a thin image annotation. */
function surveyPages(doc: FakeOcrDocument) {
  return [
    {
      markdown:
        '# Summary\n\nThe house is in fair condition.\n\n![img-0.png](img-0.png)\n\n| Item | Cost |\n| --- | --- |\n| Roof | £2,000 |',
      images: [{ id: 'img-0.png', annotation: RICH_ANNOTATION }],
    },
    {
      markdown: '# Roof\n\nSlipped slates at the rear.\n\n![img-1.png](img-1.png)',
      images: [{ id: 'img-1.png', annotation: { image_type: 'photo', summary: 'Roof.' } }],
    },
  ].slice(0, Math.max(doc.pageCount, 2));
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'mistral-parse-objects-'));
  store = createObjectStore({ url: `file://${dir}` });
  await store.ensureReady();
  await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal')`, [
    tenant,
  ]);
  mistral = await startFakeMistral({ ocrPages: surveyPages });
  scan = await buildScannedPdf();
});
afterAll(async () => {
  await mistral?.close();
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  mistral.reset();
  mistral.requests.length = 0;
});

const engine = () =>
  new MistralOcrEngine({
    apiKey: 'test-key',
    serverURL: mistral.url,
    imageAnnotationSchema: ANNOTATION_JSON_SCHEMA,
    retry: { initialIntervalMs: 1, maxIntervalMs: 1, maxElapsedMs: 1 },
  });

async function givenReport(bytes: Buffer, kind: 'pdf' | 'png'): Promise<string> {
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

async function givenAttachment(reportId: string, bytes: Buffer): Promise<string> {
  const id = randomUUID();
  const key = `tenants/${tenant}/reports/${reportId}/attachments/${id}/original/source.pdf`;
  await store.put(key, bytes);
  await db.pool.query(
    `INSERT INTO attachments (id, tenant_id, report_id, source, partner_id, filename, content_type, document_kind,
       size_bytes, sha256, object_key) VALUES ($1,$2,$3,'partner','P-1','a.pdf','application/pdf','pdf',$4,$5,$6)`,
    [id, tenant, reportId, bytes.length, 'b'.repeat(64), key],
  );
  return id;
}

function scanned(reportId: string, kind: 'pdf' | 'png', attachmentId?: string) {
  return newEvent(
    'ReportScanned',
    {
      tenant_id: tenant,
      report_id: reportId,
      target_kind: attachmentId ? 'attachment' : 'report',
      target_id: attachmentId ?? reportId,
      generation: 1,
      correlation_id: reportId,
      causation_id: null,
    },
    { document_kind: kind, page_count: null, cost_cents: 0 },
  );
}

function parsedData(result: StageResult): EventOf<'ReportParsed'>['data'] {
  if (result.outcome !== 'done' || result.emit.type !== 'ReportParsed')
    throw new Error(`not parsed: ${JSON.stringify(result)}`);
  return result.emit.data;
}

interface FigureRow {
  id: string;
  report_id: string;
  attachment_id: string | null;
  section_name: string | null;
  page_number: number | null;
  object_key: string;
  thumbnail_key: string | null;
  annotation_source: string;
  annotation_json: Record<string, unknown> | null;
  annotation_quality_score: number | null;
}

async function figuresOf(targetId: string): Promise<FigureRow[]> {
  const { rows } = await db.pool.query<FigureRow>(
    `SELECT id, report_id, attachment_id, section_name, page_number, object_key, thumbnail_key, annotation_source,
            annotation_json, annotation_quality_score
       FROM figures WHERE target_id = $1 ORDER BY order_in_doc`,
    [targetId],
  );
  return rows;
}

const parse = (event: ReturnType<typeof scanned>) =>
  parseStage({ pool: db.pool, objectStore: store, ocr: engine() }).run(event, ctx);

describe('the parse stage with Mistral OCR', () => {
  it('turns the pages into sections from headings, tables, and stored figures', async () => {
    const id = await givenReport(scan, 'pdf');
    const result = await parse(scanned(id, 'pdf'));
    expect(parsedData(result)).toEqual({
      sections: 2,
      figures: 2,
      tables: 1,
      pages: 2,
      cost_cents: 1,
    });
    expect(result.outcome === 'done' && result.usage).toMatchObject({
      provider: 'mistral',
      model: 'mistral-ocr-latest',
      cost_cents: 1,
      units: { ocr_pages: 2 },
    });
    const { rows: sections } = await db.pool.query(
      'SELECT section_name, section_slug, page_start, markdown FROM sections WHERE target_id = $1 ORDER BY order_in_doc',
      [id],
    );
    expect(sections.map((s) => [s.section_name, s.section_slug, s.page_start])).toEqual([
      ['Summary', 'summary', 1],
      ['Roof', 'roof', 2],
    ]);
    expect(sections[0].markdown).toContain('The house is in fair condition.');
    const figures = await figuresOf(id);
    expect(figures.map((f) => [f.section_name, f.page_number])).toEqual([
      ['Summary', 1],
      ['Roof', 2],
    ]);
    expect(await store.getBuffer(figures[0]!.object_key)).toEqual(tinyPng());
    expect(await store.stat(figures[0]!.thumbnail_key!)).toMatchObject({
      contentType: 'image/webp',
    });
  });

  it('keeps a rich Mistral annotation and leaves a thin one pending', async () => {
    const id = await givenReport(scan, 'pdf');
    await parse(scanned(id, 'pdf'));
    const [rich, thin] = await figuresOf(id);
    expect(rich).toMatchObject({
      annotation_source: 'mistral',
      annotation_json: RICH_ANNOTATION,
    });
    expect(rich!.annotation_quality_score).toBeCloseTo(annotationQualityScore(RICH_ANNOTATION), 5);
    expect(thin).toMatchObject({ annotation_source: 'pending', annotation_json: null });
  });

  it('leaves every figure pending for a PDF above 500 KB (annotations skipped)', async () => {
    const big = Buffer.concat([scan, Buffer.from(`%${'x'.repeat(520 * 1024)}\n`)]);
    const id = await givenReport(big, 'pdf');
    await parse(scanned(id, 'pdf'));
    const body = mistral.requests.find((r) => r.path === MISTRAL_OCR_PATH)!.body as Record<
      string,
      unknown
    >;
    expect(body.bbox_annotation_format).toBeUndefined();
    const figures = await figuresOf(id);
    expect(figures.length).toBeGreaterThan(0);
    expect(figures.every((f) => f.annotation_source === 'pending')).toBe(true);
  });

  it('writes an attachment’s outputs under the parent report', async () => {
    const reportId = await givenReport(scan, 'pdf');
    const attachmentId = await givenAttachment(reportId, scan);
    parsedData(await parse(scanned(reportId, 'pdf', attachmentId)));
    const figures = await figuresOf(attachmentId);
    expect(figures).toHaveLength(2);
    expect(figures.every((f) => f.report_id === reportId && f.attachment_id === attachmentId)).toBe(
      true,
    );
    expect(figures[0]!.object_key.startsWith(`tenants/${tenant}/reports/${reportId}/`)).toBe(true);
    const { rows } = await db.pool.query(
      'SELECT DISTINCT report_id, attachment_id FROM sections WHERE target_id = $1',
      [attachmentId],
    );
    expect(rows).toEqual([{ report_id: reportId, attachment_id: attachmentId }]);
  });

  it('reads an image upload: the image is the one figure, with Mistral’s annotation', async () => {
    const png = tinyPng(300, 200);
    const id = await givenReport(png, 'png');
    expect(parsedData(await parse(scanned(id, 'png')))).toMatchObject({ figures: 1, sections: 2 });
    const [figure] = await figuresOf(id);
    expect(await store.getBuffer(figure!.object_key)).toEqual(png);
    expect(figure!.annotation_source).toBe('mistral');
  });

  it('replaces its earlier output when it runs again', async () => {
    const id = await givenReport(scan, 'pdf');
    await parse(scanned(id, 'pdf'));
    const first = await figuresOf(id);
    await parse(scanned(id, 'pdf'));
    const second = await figuresOf(id);
    expect(second.map((f) => f.id)).toEqual(first.map((f) => f.id));
    const { rows } = await db.pool.query(
      'SELECT count(*)::int AS n FROM sections WHERE target_id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ n: 2 });
  });

  it('fails the report with a readable error when Mistral refuses the document', async () => {
    mistral.rule(MISTRAL_OCR_PATH, () => true, {
      kind: 'status',
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'document'],
            msg: 'document could not be read',
            input: null,
          },
        ],
      },
    });
    const id = await givenReport(scan, 'pdf');
    const result = await parse(scanned(id, 'pdf'));
    expect(result).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/^Mistral OCR refused the document \(422\)/),
    });
  });

  it('asks for a retry while Mistral is unavailable or answers garbage', async () => {
    mistral.rule(MISTRAL_OCR_PATH, () => true, { kind: 'status', status: 503 });
    const id = await givenReport(scan, 'pdf');
    expect(await parse(scanned(id, 'pdf'))).toMatchObject({
      outcome: 'retry',
      reason: 'Mistral OCR answered 503',
    });
    mistral.reset();
    mistral.rule(MISTRAL_OCR_PATH, () => true, { kind: 'raw', body: '{"pages": 3}' });
    expect((await parse(scanned(id, 'pdf'))).outcome).toBe('retry');
  });

  it('fails a damaged image before sending it anywhere', async () => {
    const id = await givenReport(Buffer.from('89504e470d0a1a0a0000', 'hex'), 'png');
    expect(await parse(scanned(id, 'png'))).toMatchObject({ outcome: 'failed' });
    expect(mistral.requests).toHaveLength(0);
  });
});

describe('ocrEngineFor', () => {
  it('builds the Mistral engine when OCR_PROVIDER=mistral has a key, and none without', () => {
    const base = {
      OCR_PROVIDER: 'mistral' as const,
      MISTRAL_BASE_URL: undefined,
      MISTRAL_OCR_MODEL: 'mistral-ocr-latest',
      OCR_TIMEOUT_MS: 900_000,
    };
    expect(ocrEngineFor({ ...base, MISTRAL_API_KEY: 'k' })).toBeInstanceOf(MistralOcrEngine);
    expect(ocrEngineFor({ ...base, MISTRAL_API_KEY: undefined })).toBeNull();
  });
});
