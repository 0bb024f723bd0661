import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalOcrEngine, isOcrError } from '../src/index.js';
import { buildScannedReportPdf, scanPagesPng, type ScanBlock } from '@reports/test-support';

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

// Other packages' tests run OCR at the same time in the machine's temporary directory: this file
// counts the engine's directories in one of its own.
const machineTmp = os.tmpdir();
process.env.TMPDIR = mkdtempSync(path.join(machineTmp, 'tesseract-test-'));
afterAll(async () => {
  await rm(process.env.TMPDIR!, { recursive: true, force: true });
});

async function ocrTempDirs(): Promise<string[]> {
  return (await readdir(os.tmpdir())).filter((n) => n.startsWith('ocr-'));
}

describe('the local OCR engine (Tesseract)', () => {
  it('reads a scanned image into markdown with headings, paragraphs and a table', async () => {
    const [png] = await scanPagesPng(blocks);
    const result = await new LocalOcrEngine().recognise({ kind: 'png', bytes: png! });
    expect(result).toMatchObject({ provider: 'local', model: 'tesseract-eng', cost_cents: 0 });
    const md = result.pages[0]!.markdown;
    expect(md).toMatch(/^#{1,2} Roof$/m);
    expect(md).toMatch(/^#{1,2} Damp$/m);
    expect(md).toContain('slipped and cracked slates');
    expect(md).toMatch(/\| Hallway \| Poor \|/);
  });

  it('reads only the asked pages of a PDF, in parallel, and leaves no temporary files', async () => {
    const before = await ocrTempDirs();
    const pdf = await buildScannedReportPdf(
      [...blocks, { heading: 'Valuation' }, ...blocks.slice(1)],
      {},
    );
    const result = await new LocalOcrEngine({ concurrency: 2 }).recognise({
      kind: 'pdf',
      bytes: pdf,
      pages: [0],
    });
    expect(result.pages.map((p) => p.index)).toEqual([0]);
    expect(result.pages[0]!.markdown).toContain('Roof');
    expect(await ocrTempDirs()).toEqual(before);
  });

  it('refuses a file it cannot read with an OcrError that is not worth retrying', async () => {
    const error = await new LocalOcrEngine()
      .recognise({ kind: 'pdf', bytes: Buffer.from('%PDF-1.4 nothing else'), pages: [0] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isOcrError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'rejected' });
  });

  it('says Tesseract is missing, as unavailable, when the executable is not there', async () => {
    const [png] = await scanPagesPng(blocks.slice(0, 2));
    const error = await new LocalOcrEngine({ tesseract: '/nonexistent/tesseract' })
      .recognise({ kind: 'png', bytes: png! })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ name: 'OcrError', code: 'unavailable' });
  });
});
