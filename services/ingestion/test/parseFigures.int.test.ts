import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { EventOf } from '@reports/contracts';
import { probeImage } from '@reports/documents';
import { createObjectStore, newEvent, type ObjectStore, type StageResult } from '@reports/platform';
import { LocalOcrEngine } from '@reports/providers';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import {
  HOSTILE_FILENAMES,
  buildHtml,
  buildHtmlWithImages,
  docxXmlBomb,
  pngPixelBomb,
  sampleReportSpec,
  scanPagesPng,
} from '@reports/test-support';
import { parseStage } from '../src/parse/parseStage.js';
import { figureId } from '../src/parse/figureStore.js';

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
type Kind = 'html' | 'png' | 'docx';

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'parse-figures-'));
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

async function givenReport(bytes: Buffer, kind: Kind, filename = `r.${kind}`): Promise<string> {
  const id = randomUUID();
  const key = `tenants/${tenant}/reports/${id}/original/source.${kind}`;
  await store.put(key, bytes);
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, $3, 'x', $4, $5, $6, $7)`,
    [id, tenant, filename, kind, bytes.length, 'a'.repeat(64), key],
  );
  return id;
}

async function givenAttachment(reportId: string, bytes: Buffer, kind: Kind): Promise<string> {
  const id = randomUUID();
  const key = `tenants/${tenant}/reports/${reportId}/attachments/${id}/source.${kind}`;
  await store.put(key, bytes);
  await db.pool.query(
    `INSERT INTO attachments (id, tenant_id, report_id, source, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, $3, 'user_upload', $4, 'x', $5, $6, $7, $8)`,
    [id, tenant, reportId, `a.${kind}`, kind, bytes.length, 'b'.repeat(64), key],
  );
  return id;
}

function scanned(
  reportId: string,
  kind: Kind,
  target: { kind: 'report' | 'attachment'; id: string },
) {
  return newEvent(
    'ReportScanned',
    {
      tenant_id: tenant,
      report_id: reportId,
      target_kind: target.kind,
      target_id: target.id,
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
  target_id: string;
  section_name: string | null;
  object_key: string;
  thumbnail_key: string | null;
  mime_type: string;
  width: number;
  height: number;
  ocr_text: string | null;
  annotation_source: string;
  order_in_doc: number;
}

async function figuresOf(targetId: string): Promise<FigureRow[]> {
  const { rows } = await db.pool.query<FigureRow>(
    'SELECT * FROM figures WHERE target_id = $1 ORDER BY order_in_doc',
    [targetId],
  );
  return rows;
}

const spec = sampleReportSpec({ sections: 3 });
const stage = () => parseStage({ pool: db.pool, objectStore: store, ocr: new LocalOcrEngine() });

describe('parse stage: figures', () => {
  it('stores each figure and a thumbnail under the report, with rows pending annotation', async () => {
    const id = await givenReport(await buildHtmlWithImages(spec), 'html');
    const data = parsedData(await stage().run(scanned(id, 'html', { kind: 'report', id }), ctx));
    expect(data.figures).toBe(2);
    const rows = await figuresOf(id);
    expect(
      rows.map((r) => [
        r.order_in_doc,
        r.width,
        r.height,
        r.mime_type,
        r.section_name,
        r.annotation_source,
      ]),
    ).toEqual([
      [0, 640, 480, 'image/png', spec.sections[0]!.heading, 'pending'],
      [1, 480, 360, 'image/png', spec.sections[0]!.heading, 'pending'],
    ]);
    const prefix = `tenants/${tenant}/reports/${id}/figures/`;
    for (const r of rows) {
      expect(r.report_id).toBe(id);
      expect(r.object_key).toBe(`${prefix}${r.id}.png`);
      expect(r.thumbnail_key).toBe(`${prefix}${r.id}.thumb.webp`);
      const thumb = await probeImage(await store.getBuffer(r.thumbnail_key!));
      expect(thumb?.format).toBe('webp');
      expect(Math.max(thumb!.width, thumb!.height)).toBeLessThanOrEqual(512);
    }
    expect(rows[0]!.ocr_text).toBe('Front elevation');
  });

  it('rewrites the same figures on a rerun, and removes the objects of figures that are gone', async () => {
    const id = await givenReport(await buildHtmlWithImages(spec), 'html');
    const event = scanned(id, 'html', { kind: 'report', id });
    await stage().run(event, ctx);
    const first = await figuresOf(id);
    await stage().run(event, ctx);
    const second = await figuresOf(id);
    expect(second.map((r) => r.id)).toEqual(first.map((r) => r.id));
    expect(second.map((r) => r.id)).toEqual([figureId(id, 0), figureId(id, 1)]);
    const prefix = `tenants/${tenant}/reports/${id}/figures/`;
    expect(await store.list(prefix)).toHaveLength(4);

    // The document changes under the same target (a re-parse of a corrected file, which is a
    // new generation: a generation's output is written once): no pictures.
    const { rows } = await db.pool.query<{ object_key: string }>(
      'SELECT object_key FROM reports WHERE id = $1',
      [id],
    );
    await store.put(rows[0]!.object_key, buildHtml(spec));
    expect(parsedData(await stage().run({ ...event, generation: 2 }, ctx)).figures).toBe(0);
    expect(await figuresOf(id)).toEqual([]);
    expect(await store.list(prefix)).toEqual([]);
  });

  it("stores an attachment's figures under its parent report, carrying the parent's report_id", async () => {
    const reportId = await givenReport(buildHtml(spec), 'html');
    const attachmentId = await givenAttachment(reportId, await buildHtmlWithImages(spec), 'html');
    const data = parsedData(
      await stage().run(scanned(reportId, 'html', { kind: 'attachment', id: attachmentId }), ctx),
    );
    expect(data.figures).toBe(2);
    const rows = await figuresOf(attachmentId);
    expect(rows.every((r) => r.report_id === reportId && r.attachment_id === attachmentId)).toBe(
      true,
    );
    expect(
      rows.every((r) => r.object_key.startsWith(`tenants/${tenant}/reports/${reportId}/figures/`)),
    ).toBe(true);
  });

  it('reads an image upload with OCR: sections from its text, the image itself as the figure', async () => {
    const [png] = await scanPagesPng([
      { heading: 'Roof' },
      { paragraph: 'The main roof slopes show a number of slipped and cracked slates.' },
    ]);
    const id = await givenReport(png!, 'png', 'scan.png');
    const result = await stage().run(scanned(id, 'png', { kind: 'report', id }), ctx);
    expect(parsedData(result)).toMatchObject({ sections: 1, figures: 1, pages: 1, cost_cents: 0 });
    expect(result).toMatchObject({
      usage: { provider: 'local', model: 'tesseract-eng', units: { ocr_pages: 1 } },
    });
    const [figure] = await figuresOf(id);
    expect(figure).toMatchObject({
      mime_type: 'image/png',
      width: 827,
      height: 1169,
      section_name: 'Roof',
    });
    expect(figure!.ocr_text).toContain('slipped and cracked slates');
    const { rows } = await db.pool.query(
      'SELECT section_name, markdown FROM sections WHERE report_id = $1',
      [id],
    );
    expect(rows).toEqual([
      { section_name: 'Roof', markdown: expect.stringContaining('cracked slates') },
    ]);
  });
});

describe('parse stage: hostile input', () => {
  it.each([
    ['a pixel bomb', 'png' as const, () => pngPixelBomb(), /100000x100000 pixels/],
    ['an XML entity bomb', 'docx' as const, () => docxXmlBomb(), /declares XML entities/],
  ])('fails %s with a clear reason and writes nothing', async (_n, kind, build, reason) => {
    const id = await givenReport(await build(), kind, HOSTILE_FILENAMES[0]);
    const before = await store.list('');
    const result = await stage().run(scanned(id, kind, { kind: 'report', id }), ctx);
    expect(result.outcome).toBe('failed');
    expect((result as { reason: string }).reason).toMatch(reason);
    expect(await store.list('')).toEqual(before);
    expect(await figuresOf(id)).toEqual([]);
  });

  it('writes nothing outside the report prefix, whatever the file name', async () => {
    for (const filename of HOSTILE_FILENAMES) {
      const id = await givenReport(
        await buildHtmlWithImages(spec),
        'html',
        filename.split('\u0000').join(''),
      );
      await stage().run(scanned(id, 'html', { kind: 'report', id }), ctx);
      const own = (await store.list('')).filter((k) => k.includes(id));
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((k) => k.startsWith(`tenants/${tenant}/reports/${id}/`))).toBe(true);
    }
    expect((await store.list('')).every((k) => k.startsWith(`tenants/${tenant}/reports/`))).toBe(
      true,
    );
  });
});
