import { describe, expect, it } from 'vitest';
import { parseDocument, type OcrFunction } from '../src/index.js';
import { LocalOcrEngine } from '../../providers/src/index.js';
import {
  buildMapPagePdf,
  buildMixedPdf,
  buildPdf,
  buildPhotoAs,
  buildScannedReportPdf,
  pdfWithGarbledPage,
  sampleReportSpec,
  scanPagesPng,
  type ScanBlock,
} from '@reports/test-support';

const engine = new LocalOcrEngine();
const asked: number[][] = [];
const ocr: OcrFunction = (input) => {
  asked.push(input.pages ?? []);
  return engine.recognise(input);
};

const blocks: ScanBlock[] = [
  { heading: 'Roof' },
  { paragraph: 'The main roof slopes show a number of slipped and cracked slates.' },
  {
    table: [
      ['Room', 'Condition'],
      ['Hallway', 'Poor'],
      ['Study', 'Fair'],
    ],
  },
  { heading: 'Damp' },
  { paragraph: 'Moisture meter readings were dry at the time of our inspection.' },
];

describe('scans and images through local OCR', () => {
  it('a scanned PDF becomes sections and a table, and its page scans are not figures', async () => {
    const doc = await parseDocument('pdf', await buildScannedReportPdf(blocks), { ocr });
    expect(doc.ocr_pages).toEqual([1]);
    expect(doc.sections.map((s) => [s.name, s.page_start])).toEqual([
      ['Roof', 1],
      ['Damp', 1],
    ]);
    expect(doc.sections[0]!.markdown).toContain('slipped and cracked slates');
    expect(doc.tables[0]?.rows).toEqual([
      ['Room', 'Condition'],
      ['Hallway', 'Poor'],
      ['Study', 'Fair'],
    ]);
    expect(doc.figures).toEqual([]);
  });

  it('a map that fills a page under a one-line title stays a figure when the page goes to OCR', async () => {
    const doc = await parseDocument('pdf', await buildMapPagePdf(), { ocr });
    expect(doc.ocr_pages).toEqual([2]);
    expect(doc.figures.map((f) => [f.page_number, f.width, f.height])).toEqual([[2, 600, 760]]);
  });

  it('a PDF with text pages and a scanned appendix OCRs only the scanned page', async () => {
    const spec = sampleReportSpec({ sections: 2 });
    asked.length = 0;
    const doc = await parseDocument(
      'pdf',
      await buildMixedPdf(await buildPdf(spec), [{ heading: 'Appendix' }, ...blocks.slice(1, 2)]),
      { ocr },
    );
    expect(asked).toEqual([[1]]);
    expect(doc.ocr_pages).toEqual([2]);
    expect(doc.sections.map((s) => s.name)).toEqual([
      ...spec.sections.map((s) => s.heading),
      'Appendix',
    ]);
    expect(doc.sections.at(-1)!.page_start).toBe(2);
  });

  it('a page whose text layer is unmappable garbage goes to OCR; the readable page keeps its text', async () => {
    asked.length = 0;
    const doc = await parseDocument('pdf', pdfWithGarbledPage(), { ocr });
    expect(asked).toEqual([[1]]);
    expect(doc.ocr_pages).toEqual([2]);
    expect(doc.sections[0]).toMatchObject({ name: 'Roof', page_start: 1 });
    expect(doc.sections[0]!.markdown).toContain('roof slopes are sound');
    expect(doc.sections.map((s) => s.markdown).join(' ')).not.toMatch(/[\ufffd\ue000-\uf8ff]/u);
  });

  it('an image upload is read to markdown and is itself the figure, with its text', async () => {
    const [png] = await scanPagesPng(blocks);
    const doc = await parseDocument('png', png!, { ocr });
    expect(doc.sections.map((s) => s.name)).toEqual(['Roof', 'Damp']);
    expect(doc.sections.every((s) => s.page_start === null)).toBe(true);
    expect(doc.figures).toHaveLength(1);
    expect(doc.figures[0]).toMatchObject({
      mime_type: 'image/png',
      section_order: 0,
      page_number: null,
    });
    expect(doc.figures[0]!.bytes).toBe(png);
    expect(doc.figures[0]!.ocr_text).toContain('Moisture meter readings');
  });

  it('a photo without text still yields its figure', async () => {
    for (const kind of ['jpeg', 'webp'] as const) {
      const photo = await buildPhotoAs(kind, 400, 300);
      const doc = await parseDocument(kind, photo, { ocr });
      expect(doc.figures.map((f) => [f.mime_type, f.width, f.height])).toEqual([
        [`image/${kind}`, 400, 300],
      ]);
    }
  });

  it('without an OCR engine, images and text-less PDFs fail with needs_ocr', async () => {
    const photo = await buildPhotoAs('png', 200, 200);
    await expect(parseDocument('png', photo)).rejects.toMatchObject({ code: 'needs_ocr' });
    await expect(parseDocument('pdf', await buildScannedReportPdf(blocks))).rejects.toMatchObject({
      code: 'needs_ocr',
    });
  });
});
