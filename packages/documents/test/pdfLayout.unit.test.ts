import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../src/index.js';
import { analysePages } from '../src/parse/pdf.js';
import type { RawTextItem } from '../src/parse/pdf.js';
import type { ParsedDocument } from '../src/index.js';
import {
  INDENTED_GRID,
  INSPECTION_LAYOUT,
  buildIndentedGridPdf,
  buildInspectionPdf,
} from '../../test-support/src/fixtures/index.js';

const L = INSPECTION_LAYOUT;

function section(doc: ParsedDocument, name: string): ParsedDocument['sections'][number] {
  const found = doc.sections.find((s) => s.name === name);
  if (!found)
    throw new Error(`no section "${name}" in ${doc.sections.map((s) => s.name).join(', ')}`);
  return found;
}

function paragraphs(markdown: string): string[] {
  return markdown.split(/\n{2,}/).map((p) => p.replace(/\\/g, '').trim());
}

describe('PDF layouts of inspection reports', () => {
  let doc: ParsedDocument;
  beforeAll(async () => {
    doc = await parseDocument('pdf', await buildInspectionPdf());
  });

  it('has one section per chapter heading, none named after grid labels and none empty', () => {
    expect(doc.sections.map((s) => s.name)).toEqual(['Home Inspection Report', ...L.headings]);
    for (const s of doc.sections) expect(s.markdown.trim()).not.toBe('');
  });

  it('reads label/value grids as "Label: value" lines under their heading', () => {
    for (const [heading, rows] of Object.entries(L.grids)) {
      const lines = paragraphs(section(doc, heading).markdown);
      const pairs = rows.flat().map(([label, value]) => `${label}: ${value}`);
      // Row by row, left to right, each value with its own label.
      expect(lines.slice(0, pairs.length)).toEqual(pairs);
    }
    expect(paragraphs(section(doc, 'Electrical').markdown)).toContain(
      'Main panel capacity: 200 AMP',
    );
    expect(paragraphs(section(doc, 'Structure').markdown)).toContain(
      'Floor Structure: Material: Slab',
    );
  });

  it('reads a rating grid as a table with its column header and each mark under its code', () => {
    expect(doc.tables).toHaveLength(1);
    const table = doc.tables[0];
    expect(table?.section_order).toBe(section(doc, 'Interior').order);
    const codes = L.legend.map(([code]) => code);
    expect(table?.rows[0]).toEqual(['Item', ...codes]);
    expect(table?.rows.slice(1)).toEqual(
      L.ratings.map(([item, code]) => [item, ...codes.map((c) => (c === code ? '•' : ''))]),
    );
    expect(section(doc, 'Interior').markdown).toContain(table?.markdown);
  });

  it('also states each rated row as a sentence with the meaning the legend gives its mark', () => {
    const lines = paragraphs(section(doc, 'Interior').markdown);
    expect(lines).toContain('Window & Frames: Repair or Replace');
    expect(lines).toContain('Floors: Comment');
    expect(lines).toContain('Doors: Not Inspected');
    expect(lines).toContain('Ceilings: Serviceable');
  });

  it('keeps every JPEG 2000 photo as a figure, decoded to PNG at its own size', async () => {
    expect(doc.figures).toHaveLength(3);
    for (const f of doc.figures) {
      expect(f.mime_type).toBe('image/png');
      expect(f.page_number).toBe(3);
      expect(f.section_order).toBe(section(doc, 'Photos').order);
      const meta = await sharp(f.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([200, 150]);
      const { channels } = await sharp(f.bytes).stats();
      // A photo, not a blank: the pixels vary.
      expect(Math.max(...channels.map((c) => c.stdev))).toBeGreaterThan(5);
    }
    const distinct = new Set(doc.figures.map((f) => f.bytes.toString('base64')));
    expect(distinct.size).toBe(3);
  });

  it('keeps no logo repeated on every page and no badge drawn too small to be a photo', () => {
    // The logo (200x200 pixels) is drawn on all three pages; the badge (160x160) at 30 points.
    expect(doc.figures.map((f) => `${f.width}x${f.height}`)).toEqual([
      '200x150',
      '200x150',
      '200x150',
    ]);
  });

  it('stores the caption beside each photo with the photo, below or above it', () => {
    expect(doc.figures.map((f) => f.alt)).toEqual([...L.captions]);
  });

  it('drops running headers, footers, page numbers and sidebars from every section', () => {
    const all = doc.sections.map((s) => `${s.name}\n${s.markdown}`).join('\n');
    expect(all).not.toContain(L.runningHeader);
    expect(all).not.toContain(L.footer);
    expect(all).not.toMatch(/Page \d of 3/);
    // Sidebar words appear nowhere but as the headings that really are on the page.
    for (const s of doc.sections) {
      for (const word of L.sidebar) {
        if (s.name === word) continue;
        expect(s.markdown).not.toMatch(new RegExp(`\\b${word}\\b(?!:)`));
      }
    }
  });

  it('reads a letterhead beside the logo as text, not as a table', () => {
    const intro = doc.sections[0];
    expect(intro?.name).toBe('Home Inspection Report');
    for (const part of L.letterhead) expect(intro?.markdown).toContain(part);
    expect(intro?.markdown).not.toContain('|');
    expect(doc.tables.every((t) => t.section_order !== intro?.order)).toBe(true);
  });

  it('ignores a bookmark named after a file and takes the other bookmarks as headings', async () => {
    const outlined = await parseDocument('pdf', await buildInspectionPdf({ outline: true }));
    expect(outlined.sections.map((s) => s.name)).toEqual(['Home Inspection Report', ...L.headings]);
    expect(outlined.figures).toHaveLength(3);
  });
});

describe('PDF layout analysis: rated rows without a header line', () => {
  const item = (str: string, x: number, y: number, size = 10): RawTextItem => ({
    str,
    transform: [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
  });
  const rows = (list: [string, string][], y: number): RawTextItem[] =>
    list.flatMap(([name, codes], k) => [item(name, 56, y - k * 30), item(codes, 480, y - k * 30)]);

  it('reads items rated by legend codes as a table and as sentences with the meanings', () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('IN', 56, 740),
          item('Inspected — Component was inspected.', 90, 740),
          item('RR', 300, 740),
          item('Repair / Replace — Deficiency found.', 330, 740),
          item('OK', 56, 726),
          item('Satisfactory — No deficiencies noted.', 90, 726),
          ...rows(
            [
              ['3.0 SERVICE ENTRANCE CONDUCTORS', 'IN OK'],
              ['3.1 SERVICE GROUNDING', 'IN RR'],
              ['3.2 MAIN PANEL', 'IN OK'],
            ],
            680,
          ),
          item('The electrical system was inspected as described.', 56, 560),
        ],
      },
    ]);
    const [section] = sections;
    expect(section?.tables[0]?.rows).toEqual([
      ['Item', 'Rating'],
      ['3.0 SERVICE ENTRANCE CONDUCTORS', 'IN OK'],
      ['3.1 SERVICE GROUNDING', 'IN RR'],
      ['3.2 MAIN PANEL', 'IN OK'],
    ]);
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toContain('SERVICE GROUNDING: Inspected, Repair / Replace');
    expect(lines).toContain('SERVICE ENTRANCE CONDUCTORS: Inspected, Satisfactory');
    expect(lines[lines.length - 1]).toBe('The electrical system was inspected as described.');
  });

  it('leaves rows whose trailing capitals no legend explains as they were', () => {
    const sections = analysePages([
      {
        height: 792,
        items: rows(
          [
            ['Meeting with the buyer', 'AM'],
            ['Meeting with the agent', 'PM'],
          ],
          680,
        ),
      },
    ]);
    expect(sections[0]?.markdown).not.toContain('Rating');
  });
});

describe('PDF layout analysis: sidebars', () => {
  const item = (str: string, x: number, y: number, size = 10): RawTextItem => ({
    str,
    transform: [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
  });

  it('drops a word printed at the same place beside the body on every page, not a value repeated down a column', () => {
    const pages = [0, 1, 2].map((p) => ({
      height: 792,
      width: 612,
      items: [
        item(`Body text of page ${p + 1} goes here.`, 56, 600),
        item('Chapters', 560, 600),
        item('Roof covering', 56, 500 - p * 40),
        item('Good', 420, 500 - p * 40),
      ],
    }));
    const text = analysePages(pages)
      .map((s) => s.markdown)
      .join('\n');
    expect(text).not.toContain('Chapters');
    expect(text.match(/Good/g)).toHaveLength(3);
    expect(text).toContain('Body text of page 2 goes here.');
  });
});

describe('a label/value grid with indented values and labels run together', () => {
  it('pairs each value with its own label', async () => {
    const doc = await parseDocument('pdf', await buildIndentedGridPdf());
    const lines = paragraphs(section(doc, INDENTED_GRID.heading).markdown);
    const pairs = INDENTED_GRID.rows.flat().map(([label, value]) => `${label}: ${value}`);
    expect(lines).toEqual(expect.arrayContaining(pairs));
    expect(doc.tables).toHaveLength(0);
  });
});
