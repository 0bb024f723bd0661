import { beforeAll, describe, expect, it } from 'vitest';
import { DocumentError, parseDocument } from '../src/index.js';
import type { ParsedDocument } from '../src/index.js';
import { analysePages, cleanPdfTitle, parsePdf } from '../src/parse/pdf.js';
import type { PageText, RawTextItem } from '../src/parse/pdf.js';
import {
  buildPdf,
  buildScannedPdf,
  corruptPdf,
  encryptedPdf,
  sampleReportSpec,
  truncatedPdf,
} from '@reports/test-support';
import { expectMatchesSpec, rejectionOf } from './helpers.js';

function expectPagesConsistent(doc: ParsedDocument): void {
  let last = 1;
  for (const s of doc.sections) {
    expect(s.page_start).not.toBeNull();
    expect(s.page_end).not.toBeNull();
    expect(s.page_start ?? 0).toBeGreaterThanOrEqual(last);
    expect(s.page_end ?? 0).toBeGreaterThanOrEqual(s.page_start ?? 0);
    last = s.page_start ?? 0;
  }
  for (const t of doc.tables) {
    const s = doc.sections[t.section_order];
    expect(t.page_number ?? 0).toBeGreaterThanOrEqual(s?.page_start ?? 0);
    expect(t.page_number ?? 0).toBeLessThanOrEqual(s?.page_end ?? 0);
  }
}

describe('PDF parsing: the sample report', () => {
  const spec = sampleReportSpec();

  it('finds headings by font size and keeps paragraphs, tables and page numbers', async () => {
    const doc = await parseDocument('pdf', await buildPdf(spec));
    expect(doc.kind).toBe('pdf');
    expect(doc.page_count).toBe(2);
    expectMatchesSpec(doc, spec);
    expectPagesConsistent(doc);
    expect(doc.sections[0]?.page_start).toBe(1);
    expect(doc.sections.at(-1)?.page_end).toBe(2);
  });

  it('keeps accents ("Façade") and strips them from the slug', async () => {
    const doc = await parseDocument('pdf', await buildPdf(spec));
    const walls = doc.sections.find((s) => s.name === 'Walls and Façade');
    expect(walls?.slug).toBe('walls-and-facade');
    expect(walls?.markdown).toContain('The front façade faces south west.');
  });

  it('uses the outline (bookmarks) for headings when there is one', async () => {
    // Headings drawn at body size: only the outline can find them.
    const doc = await parseDocument(
      'pdf',
      await buildPdf(spec, { outline: true, headingSize: 11 }),
    );
    expectMatchesSpec(doc, spec);
    expectPagesConsistent(doc);
  });

  it('without outline or larger fonts, headings in bold at the body size divide it', async () => {
    // pdf-lib's headings here are HelveticaBold at the 11 pt of the body: set apart by face
    // alone, as a word processor marks them.
    const doc = await parseDocument('pdf', await buildPdf(spec, { headingSize: 11 }));
    expectMatchesSpec(doc, spec);
    expectPagesConsistent(doc);
  });

  it('drops running headers and footers', async () => {
    const doc = await parseDocument('pdf', await buildPdf(spec, { pages: 6, running: true }));
    expect(doc.page_count).toBe(6);
    expectMatchesSpec(doc, spec);
    const all = doc.sections.map((s) => s.markdown).join('\n');
    expect(all).not.toMatch(/Page \d+ of 6/);
    expect(all).not.toContain(spec.title);
  });

  it('parses two PDFs at the same time', async () => {
    const other = sampleReportSpec({ sections: 4, seed: 9 });
    const [a, b] = await Promise.all([
      parseDocument('pdf', await buildPdf(spec)),
      parseDocument('pdf', await buildPdf(other)),
    ]);
    expectMatchesSpec(a, spec);
    expectMatchesSpec(b, other);
  });
});

describe('PDF parsing: a 100-page report', () => {
  const spec = sampleReportSpec();
  let bytes: Buffer;
  beforeAll(async () => {
    bytes = await buildPdf(spec, { pages: 100 });
  });

  it('has 100 pages and the last section ends on page 100', async () => {
    const started = performance.now();
    const doc = await parseDocument('pdf', bytes);
    const ms = performance.now() - started;
    expect(doc.page_count).toBe(100);
    expectMatchesSpec(doc, spec);
    expectPagesConsistent(doc);
    expect(doc.sections.at(-1)?.page_end).toBe(100);
    expect(ms).toBeLessThan(15_000);
  });

  it('refuses PDFs with more pages than maxPages', async () => {
    const err = await rejectionOf(parseDocument('pdf', bytes, { maxPages: 99 }));
    expect(err).toBeInstanceOf(DocumentError);
    expect(err.code).toBe('too_large');
    expect(err.message).toBe('the PDF has 100 pages, more than the 99 allowed');
  });

  it('stops with a timeout error when the signal aborts, before or during parsing', async () => {
    const before = await rejectionOf(parseDocument('pdf', bytes, { signal: AbortSignal.abort() }));
    expect(before.code).toBe('timeout');

    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('deadline')), 20);
    const during = await rejectionOf(parseDocument('pdf', bytes, { signal: controller.signal }));
    expect(during.code).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1_000);

    // the module is still usable afterwards
    const doc = await parseDocument('pdf', await buildPdf(spec));
    expectMatchesSpec(doc, spec);
  });

  it('leaves no rejection unhandled when the signal aborts while the document opens', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      for (let i = 0; i < 5; i++) {
        const controller = new AbortController();
        const parsing = rejectionOf(parsePdf(bytes, { signal: controller.signal }));
        // Aborted while pdf.js loads, before it opens the document: the loading task is then
        // made and destroyed unopened.
        controller.abort(new Error('shutting down'));
        expect((await parsing).code).toBe('timeout');
      }
      // pdf.js settles a destroyed task on a later turn; give it the time to.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('PDF parsing: failures', () => {
  it('refuses garbage after a PDF header as corrupt, quickly', async () => {
    const started = performance.now();
    const err = await rejectionOf(parseDocument('pdf', corruptPdf()));
    expect(err).toBeInstanceOf(DocumentError);
    expect(err.code).toBe('corrupt');
    expect(err.message).toMatch(/^the PDF is damaged: \S/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses a truncated PDF as corrupt, quickly', async () => {
    const bytes = await truncatedPdf();
    const started = performance.now();
    const err = await rejectionOf(parseDocument('pdf', bytes));
    expect(err.code).toBe('corrupt');
    expect(err.message).toMatch(/^the PDF is damaged: /);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('asks for OCR when no page has text', async () => {
    const err = await rejectionOf(parseDocument('pdf', await buildScannedPdf()));
    expect(err.code).toBe('needs_ocr');
    expect(err.message).toBe(
      'the PDF has no usable text layer and no OCR engine is configured to read its pages',
    );
  });

  it('reports password-protected PDFs as encrypted', async () => {
    const err = await rejectionOf(parseDocument('pdf', encryptedPdf()));
    expect(err.code).toBe('encrypted');
    expect(err.message).toBe('the PDF is encrypted');
  });
});

// ------------------------------------------------------------------------------------------
// Layout analysis on synthetic text items (what pdf.js getTextContent returns).

const W = 0.5; // average glyph width as a fraction of the font size
function item(str: string, x: number, y: number, size = 11): RawTextItem {
  return { str, transform: [size, 0, 0, size, x, y], width: str.length * size * W, height: size };
}
function page(...items: RawTextItem[]): PageText {
  return { items, height: 842 };
}
/** Body lines at 11pt, 14pt apart, starting at y. */
function body(lines: string[], y: number, x = 56): RawTextItem[] {
  return lines.map((l, i) => item(l, x, y - i * 14));
}

describe('PDF layout analysis', () => {
  it('levels headings by distinct sizes, largest first, and ignores sentences and numbers', () => {
    const sections = analysePages([
      page(
        item('Building Survey', 56, 780, 24),
        ...body(['Prepared for the client by the surveyor.'], 750),
        item('Roof', 56, 710, 16),
        ...body(
          ['The roof is sound and the slates are', 'in good order throughout the property.'],
          690,
        ),
        item('Chimney stack', 56, 640, 13.5),
        ...body(['The stack leans slightly to the east.'], 620),
        item('This large line is a sentence.', 56, 590, 16),
        item('£425,000', 56, 560, 16),
        item('Walls', 56, 530, 16),
        ...body(['Solid brick.'], 510),
      ),
    ]);
    expect(sections.map((s) => [s.name, s.level])).toEqual([
      [null, 0],
      ['Building Survey', 1],
      ['Roof', 2],
      ['Chimney stack', 3],
      ['Walls', 2],
    ]);
    expect(sections[2]?.markdown).toBe(
      'The roof is sound and the slates are in good order throughout the property.',
    );
    expect(sections[3]?.markdown).toContain('This large line is a sentence.');
    expect(sections[3]?.markdown).toContain('£425,000');
  });

  it('merges a heading wrapped over two lines', () => {
    const sections = analysePages([
      page(
        item('Condition of the external', 56, 780, 18),
        item('joinery and decorations', 56, 758, 18),
        ...body(
          [
            'The paint to the windows and doors is flaking badly',
            'and the putty has failed in several places.',
          ],
          730,
        ),
      ),
    ]);
    expect(sections.filter((s) => s.name !== null).map((s) => s.name)).toEqual([
      'Condition of the external joinery and decorations',
    ]);
  });

  it('splits paragraphs on larger vertical gaps and joins wrapped lines', () => {
    const sections = analysePages([
      page(
        ...body(['First paragraph starts here and', 'ends on this line.'], 780),
        ...body(['Second paragraph is well-', 'maintained text.'], 740),
      ),
    ]);
    expect(sections[0]?.markdown).toBe(
      'First paragraph starts here and ends on this line.\n\nSecond paragraph is well-maintained text.',
    );
  });

  it('escapes markdown syntax in PDF text', () => {
    const sections = analysePages([
      page(...body(['# not a heading *really* [x]', 'and 2_000 items'], 780)),
    ]);
    expect(sections[0]?.markdown).toBe('\\# not a heading \\*really\\* \\[x\\] and 2\\_000 items');
  });

  it('finds tables from aligned columns, even with an empty cell, and keeps two-column prose as text', () => {
    const row = (y: number, ...cells: string[]): RawTextItem[] =>
      cells.flatMap((c, i) => (c === '' ? [] : [item(c, 56 + i * 120, y)]));
    const sections = analysePages([
      page(
        ...body(['Rooms inspected:'], 780),
        ...row(760, 'Room', 'Size', 'Condition'),
        ...row(746, 'Kitchen', '4 m x 3 m', 'Good'),
        ...row(732, 'Hall', '', 'Fair'),
        ...body(['After the table.'], 700),
        // two columns of prose: long runs, not a table
        item('The left column holds a long line of prose text', 56, 650),
        item('while the right column carries on with other', 330, 650),
        item('and goes on for several more words in a row', 56, 636),
        item('sentences that are also long and wordy here', 330, 636),
      ),
    ]);
    const [section] = sections;
    expect(section?.tables).toHaveLength(1);
    expect(section?.tables[0]?.rows).toEqual([
      ['Room', 'Size', 'Condition'],
      ['Kitchen', '4 m x 3 m', 'Good'],
      ['Hall', '', 'Fair'],
    ]);
    expect(section?.markdown).toContain(
      'Rooms inspected:\n\n| Room | Size | Condition |\n| --- | --- | --- |\n| Kitchen | 4 m x 3 m | Good |\n| Hall |     | Fair |\n\nAfter the table.',
    );
    expect(section?.markdown).toContain(
      'The left column holds a long line of prose text while the right column',
    );
  });

  it('reads pages whose text is rotated by 90 degrees', () => {
    // Text running upwards: x/y swap; reading order is by -x.
    const rotated = (str: string, x: number, y: number, size = 11): RawTextItem => ({
      str,
      transform: [0, size, -size, 0, x, y],
      width: str.length * size * W,
      height: size,
    });
    const sections = analysePages([
      page(
        rotated('Roof', 100, 56, 18),
        rotated('The first line of text', 130, 56),
        rotated('and the second line.', 144, 56),
      ),
    ]);
    expect(
      sections.filter((s) => s.markdown !== '' || s.name !== null).map((s) => [s.name, s.markdown]),
    ).toEqual([['Roof', 'The first line of text and the second line.']]);
  });

  it('places outline entries on their pages and falls back to the destination height', () => {
    const sections = analysePages(
      [
        page(...body(['Cover text.'], 780)),
        page(
          item('Roof', 56, 780, 11),
          ...body(['Roof text.'], 760),
          ...body(['Walls text.'], 700),
        ),
      ],
      [
        { title: 'Roof', level: 1, pageIndex: 1, top: 800 },
        { title: 'Walls (not printed)', level: 2, pageIndex: 1, top: 710 },
      ],
    );
    expect(sections.map((s) => [s.name, s.level, s.markdown, s.page_start, s.page_end])).toEqual([
      [null, 0, 'Cover text.', 1, 1],
      ['Roof', 1, 'Roof text.', 2, 2],
      ['Walls (not printed)', 2, 'Walls text.', 2, 2],
    ]);
  });

  it('ignores a broken outline (all entries on page 1, titles printed nowhere) and uses font sizes', () => {
    const sections = analysePages(
      [
        page(
          item('Roof', 56, 780, 16),
          ...body(['Roof text that is long enough to be the body.'], 760),
        ),
        page(item('Walls', 56, 780, 16), ...body(['Walls text that is long enough as well.'], 760)),
      ],
      [
        { title: 'Bookmark A', level: 1, pageIndex: 0, top: null },
        { title: 'Bookmark B', level: 1, pageIndex: 0, top: null },
      ],
    );
    expect(sections.filter((s) => s.name !== null).map((s) => [s.name, s.page_start])).toEqual([
      ['Roof', 1],
      ['Walls', 2],
    ]);
  });
});

describe('PDF titles', () => {
  it('drops authoring-tool placeholders from the Info title', () => {
    expect(cleanPdfTitle('Building Survey of 12 Acacia Avenue')).toBe(
      'Building Survey of 12 Acacia Avenue',
    );
    expect(cleanPdfTitle('Microsoft Word - Survey 12 Acacia.docx')).toBe('Survey 12 Acacia');
    expect(cleanPdfTitle('  Untitled ')).toBeNull();
    expect(cleanPdfTitle('report.pdf')).toBe('report');
    expect(cleanPdfTitle('')).toBeNull();
    // A page printed from a browser carries its address as its title.
    expect(cleanPdfTitle('about:blank')).toBeNull();
    expect(cleanPdfTitle('https://example.test/listing/124')).toBeNull();
  });
});
