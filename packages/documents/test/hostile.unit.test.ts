import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, type DocumentKind } from '../src/index.js';
import {
  buildMhtml,
  buildPdf,
  corruptPdf,
  docxLyingZipBomb,
  docxXmlBomb,
  docxZipBomb,
  docxZipSlip,
  encryptedPdf,
  mhtmlCutShort,
  mhtmlWithoutBoundary,
  pdfWithDeepNesting,
  pdfWithHugePageCount,
  pdfWithPageTreeCycle,
  pngPixelBomb,
  sampleReportSpec,
  truncatedPdf,
} from '@reports/test-support';
import { rejectionOf } from './helpers.js';

/** Growth of this process's resident memory allowed while one hostile file is parsed. */
const MAX_RSS_GROWTH_MB = 256;

/** Parses `bytes` and reports how much resident memory grew (peak, sampled) while it ran. */
async function parseMeasured(kind: DocumentKind, bytes: Buffer) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await parseDocument(kind, bytes).then(
      (doc) => ({ doc, error: null }),
      (error: unknown) => ({ doc: null, error: error as { code?: string; message: string } }),
    );
    peak = Math.max(peak, process.memoryUsage().rss);
    return { ...result, growthMb: (peak - before) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

beforeAll(async () => {
  // Load the parsers once, so their own start-up memory is not counted against a file.
  await parseDocument('pdf', await buildPdf(sampleReportSpec({ sections: 1 })));
  await parseDocument('mhtml', await buildMhtml(sampleReportSpec({ sections: 1 })));
});

describe('hostile and broken files end in a clear error, with memory bounded', () => {
  it.each([
    ['a truncated PDF', 'pdf', () => truncatedPdf(), 'corrupt', /^the PDF is damaged/],
    ['a corrupt PDF', 'pdf', () => corruptPdf(), 'corrupt', /^the PDF is damaged/],
    ['an encrypted PDF', 'pdf', () => encryptedPdf(), 'encrypted', /^the PDF is encrypted$/],
    [
      'a PDF whose page tree loops',
      'pdf',
      () => pdfWithPageTreeCycle(),
      'corrupt',
      /circular reference/,
    ],
    [
      'a PDF with arrays nested 100000 deep',
      'pdf',
      () => pdfWithDeepNesting(),
      'corrupt',
      /^the PDF is damaged/,
    ],
    [
      'a PNG declaring 100000 x 100000 pixels',
      'png',
      () => pngPixelBomb(),
      'too_large',
      /100000x100000 pixels, more than the 40 megapixels allowed/,
    ],
    [
      'a DOCX whose document expands to 1 GB',
      'docx',
      () => docxZipBomb(),
      'too_large',
      /expands to 1024 MB, more than the 256 MB allowed/,
    ],
    [
      'a DOCX whose entry lies about its size',
      'docx',
      () => docxLyingZipBomb(),
      'corrupt',
      /expands beyond the size it declares/,
    ],
    [
      'a DOCX with a billion-laughs entity bomb',
      'docx',
      () => docxXmlBomb(),
      'corrupt',
      /declares XML entities/,
    ],
    [
      'a DOCX with zip-slip entry names',
      'docx',
      () => docxZipSlip(),
      'corrupt',
      /not a safe archive: it holds an entry named "\.\.\/\.\.\/x"/,
    ],
    [
      'an MHTML file without a boundary',
      'mhtml',
      () => mhtmlWithoutBoundary(),
      'corrupt',
      /declares no MIME boundary/,
    ],
    [
      'an MHTML file cut short',
      'mhtml',
      async () => mhtmlCutShort(await buildMhtml(sampleReportSpec())),
      'corrupt',
      /ends early/,
    ],
  ] as const)('%s', async (_name, kind, build, code, message) => {
    const bytes = await build();
    const { error, growthMb } = await parseMeasured(kind as DocumentKind, bytes);
    expect(error?.code).toBe(code);
    expect(error?.message).toMatch(message);
    expect(growthMb).toBeLessThan(MAX_RSS_GROWTH_MB);
  });

  it('a PDF claiming a billion pages is read for the one page it has', async () => {
    const { doc, error, growthMb } = await parseMeasured('pdf', pdfWithHugePageCount());
    expect(error).toBeNull();
    expect(doc?.page_count).toBe(1);
    expect(doc?.sections[0]?.markdown).toContain('Roof survey');
    expect(growthMb).toBeLessThan(MAX_RSS_GROWTH_MB);
  });

  it('a PDF over the page limit is refused as too large', async () => {
    const err = await rejectionOf(
      parseDocument('pdf', await buildPdf(sampleReportSpec({ sections: 1 }), { pages: 3 }), {
        maxPages: 2,
      }),
    );
    expect(err.code).toBe('too_large');
  });
});
