import { describe, expect, it } from 'vitest';
import { DocumentError, parseDocument } from '../src/index.js';
import {
  buildDocx,
  buildDocxBlocks,
  buildZip,
  notADocx,
  sampleReportSpec,
} from '@reports/test-support';
import { expectMatchesSpec, rejectionOf } from './helpers.js';

const NOT_A_DOCX = 'the DOCX file is damaged or is not a Word document';

describe('DOCX parsing', () => {
  it('gives one section per Heading 1 with the paragraphs and the table of the spec', async () => {
    const spec = sampleReportSpec();
    const doc = await parseDocument('docx', await buildDocx(spec));
    expect(doc.kind).toBe('docx');
    expect(doc.page_count).toBeNull();
    expectMatchesSpec(doc, spec); // also: the Title paragraph is the title, not a section
    expect(doc.sections.find((s) => s.name === 'Walls and Façade')?.slug).toBe('walls-and-facade');
    for (const s of doc.sections) expect(s.markdown).not.toMatch(/<\/?[a-z]+[\s>]/i);
  });

  it('handles a long spec with repeated headings', async () => {
    const spec = sampleReportSpec({ sections: 12, paragraphsPerSection: 4, seed: 3 });
    const doc = await parseDocument('docx', await buildDocx(spec));
    expectMatchesSpec(doc, spec);
  });

  it('keeps heading levels and names leading body text after the title; no Title means the first h1 names it', async () => {
    const bytes = await buildDocxBlocks([
      { text: 'Prepared for Ms Smith' },
      { text: 'Roof', heading: 1 },
      { text: 'Slates.' },
      { text: 'Chimney', heading: 2 },
      { text: 'Leaning.' },
    ]);
    const doc = await parseDocument('docx', bytes);
    expect(doc.title).toBe('Roof');
    expect(doc.sections.map((s) => [s.name, s.level, s.slug, s.markdown])).toEqual([
      ['Roof', 0, 'roof', 'Prepared for Ms Smith'],
      ['Roof', 1, 'roof-1', 'Slates.'],
      ['Chimney', 2, 'chimney', 'Leaning.'],
    ]);
  });

  it('puts everything in one section when the document has no headings', async () => {
    const bytes = await buildDocxBlocks([{ text: 'Just a letter.' }, { text: 'Regards.' }]);
    const doc = await parseDocument('docx', bytes);
    expect(doc.sections).toEqual([
      {
        name: 'Introduction',
        slug: 'introduction',
        level: 0,
        order: 0,
        markdown: 'Just a letter.\n\nRegards.',
        page_start: null,
        page_end: null,
      },
    ]);
  });

  it('joins consecutive leading Title paragraphs into the title; a later Title is a heading', async () => {
    const bytes = await buildDocxBlocks([
      { text: 'Building Survey', heading: 'title' },
      { text: '12 Acacia Avenue', heading: 'title' },
      { text: 'Summary', heading: 1 },
      { text: 'Fine.' },
      { text: 'Appendix', heading: 'title' },
      { text: 'Photos.' },
    ]);
    const doc = await parseDocument('docx', bytes);
    expect(doc.title).toBe('Building Survey — 12 Acacia Avenue');
    expect(doc.sections.map((s) => [s.name, s.level, s.markdown])).toEqual([
      ['Summary', 1, 'Fine.'],
      ['Appendix', 1, 'Photos.'],
    ]);
  });

  it('refuses a zip that is not a Word document', async () => {
    const err = await rejectionOf(parseDocument('docx', notADocx()));
    expect(err).toBeInstanceOf(DocumentError);
    expect(err.code).toBe('corrupt');
    expect(err.message).toBe(NOT_A_DOCX);

    const xlsx = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
    ]);
    expect(await rejectionOf(parseDocument('docx', xlsx))).toMatchObject({
      code: 'corrupt',
      message: NOT_A_DOCX,
    });
  });

  it('refuses damaged DOCX files as corrupt', async () => {
    const full = await buildDocx(sampleReportSpec());
    const truncated = full.subarray(0, Math.floor(full.length * 0.6));
    expect(await rejectionOf(parseDocument('docx', truncated))).toMatchObject({
      code: 'corrupt',
      message: NOT_A_DOCX,
    });

    const garbage = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(500, 0x41)]);
    expect(await rejectionOf(parseDocument('docx', garbage))).toMatchObject({
      code: 'corrupt',
      message: NOT_A_DOCX,
    });

    const badXml = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.from('<w:document><<<not xml') },
    ]);
    expect(await rejectionOf(parseDocument('docx', badXml))).toMatchObject({
      code: 'corrupt',
      message: NOT_A_DOCX,
    });
  });

  it('refuses a DOCX that would expand to more than the limit before unpacking it', async () => {
    const zip = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.from('<x/>') },
    ]);
    // Claim a 3 GB document.xml in the central directory (uncompressed size at offset 24).
    const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(3_000_000_000, central + 24);
    const err = await rejectionOf(parseDocument('docx', zip));
    expect(err.code).toBe('too_large');
    expect(err.message).toMatch(/expands to \d+ MB/);
  });
});
