import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../src/index.js';
import { analysePages } from '../src/parse/pdf.js';
import type { RawTextItem } from '../src/parse/pdf.js';
import type { ParsedDocument } from '../src/index.js';
import {
  INDENTED_GRID,
  INSPECTION_LAYOUT,
  REPORT_APP_LAYOUT,
  STATE_FORM_LAYOUT,
  buildIndentedGridPdf,
  buildInspectionPdf,
  buildReportAppPdf,
  buildStateFormPdf,
} from '../../test-support/src/fixtures/index.js';

const L = INSPECTION_LAYOUT;

function section(doc: ParsedDocument, name: string): ParsedDocument['sections'][number] {
  const found = doc.sections.find((s) => s.name === name);
  if (!found)
    throw new Error(`no section "${name}" in ${doc.sections.map((s) => s.name).join(', ')}`);
  return found;
}

/** A text item of pdf.js at (x, y), in a font `size` points high, its glyphs half as wide. */
function rawItem(str: string, x: number, y: number, size = 10): RawTextItem {
  return { str, transform: [size, 0, 0, size, x, y], width: str.length * size * 0.5, height: size };
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

  it('reads a rating grid with double-spaced rows and a legend of "S= Serviceable, R= …" whole', async () => {
    // The grid ends where the spacing of its rows does: a form's line further down is no row.
    const spaced = await parseDocument('pdf', await buildInspectionPdf({ spacedRatings: true }));
    const codes = L.legend.map(([code]) => code);
    expect(spaced.tables[0]?.rows.slice(1)).toEqual(
      L.ratings.map(([item, code]) => [item, ...codes.map((c) => (c === code ? '•' : ''))]),
    );
    const lines = paragraphs(section(spaced, 'Interior').markdown);
    expect(lines).toContain('Window & Frames: Repair or Replace');
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
  const item = rawItem;
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

  it('reads a rated row alone at the top of a page, its finding below it, as a sentence', () => {
    const legend = [
      item('IN', 56, 740),
      item('Inspected — Component was inspected.', 90, 740),
      item('RR', 300, 740),
      item('Repair / Replace — Deficiency found.', 330, 740),
      item('P', 56, 726),
      item('- Permitted by right.', 90, 726),
    ];
    const sections = analysePages([
      { height: 792, items: [...legend, item('The roof was walked.', 56, 680)] },
      {
        height: 792,
        items: [
          item('1.2 SKYLIGHTS AND ROOF PENETRATIONS', 56, 740),
          item('IN RR', 480, 740),
          item('A roof penetration boot is missing at the west slope.', 56, 690),
          // A row of a table of uses by district: its marks repeat, so it is no rating.
          item('Townhouse Yes', 56, 600),
          item('P P P', 480, 600),
        ],
      },
    ]);
    const lines = sections.flatMap((s) => paragraphs(s.markdown));
    expect(lines).toContain('SKYLIGHTS AND ROOF PENETRATIONS: Inspected, Repair / Replace');
    expect(lines).toContain('A roof penetration boot is missing at the west slope.');
    expect(lines).toContain('Townhouse Yes P P P');
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

describe('PDF layout analysis: appraisal charts and accounts', () => {
  const item = rawItem;

  it('reads a grade in words ("Good Avg. Fair Poor") marked for each component, with its description', () => {
    const components: [string, string, number, string?][] = [
      ['Foundation', 'Reinforced concrete', 1],
      ['Roof', 'Flat built-up composition', 2],
      ['HVAC System', 'Mounted HVAC system', 1],
      ['Furnishings', 'Personal property excluded', 1, 'N/A'],
    ];
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('Improvement Summary Description', 60, 700),
          ...['Good', 'Avg.', 'Fair', 'Poor'].map((g, k) => item(g, 360 + k * 50, 700)),
          ...components.flatMap(([name, description, grade, mark = 'X'], k) => [
            item(name, 60, 686 - k * 14),
            item(description, 160, 686 - k * 14),
            item(mark, 365 + grade * 50 - (mark.length - 1) * 2.5, 686 - k * 14),
          ]),
          item('The building was viewed from the outside only.', 60, 560),
        ],
      },
    ]);
    const [section] = sections;
    expect(section?.tables[0]?.rows).toEqual([
      ['Improvement Summary Description', 'Good', 'Avg.', 'Fair', 'Poor'],
      ['Foundation: Reinforced concrete', '', 'X', '', ''],
      ['Roof: Flat built-up composition', '', '', 'X', ''],
      ['HVAC System: Mounted HVAC system', '', 'X', '', ''],
      ['Furnishings: Personal property excluded', '', 'N/A', '', ''],
    ]);
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toContain('Roof: Flat built-up composition (Fair)');
    expect(lines).toContain('Foundation: Reinforced concrete (Avg.)');
    // A cell that says otherwise than a mark says so itself.
    expect(lines).toContain('Furnishings: Personal property excluded (N/A)');
  });

  it('reads a worked sum set in columns of operators as each line’s label and figure', () => {
    // Label, operator, figure, the sum's operators set apart and one figure printed as "= $…".
    const rows: [string, string, string, number][] = [
      ['Building & Site Improvements:', '=', '$1,429,953', 440],
      ['Less Depreciation @ 0.0%*:', '= (', '-)', 440],
      ['Depreciated Value of Improvements:', '= $1,429,953', '', 0],
      ['Plus Estimated Land Value:', '=', '324,135', 440],
      ['Total Estimated Value via Cost Approach:', '= $1,754,088', '', 0],
      ['Rounded to:', '', '$1,755,000', 440],
    ];
    const sections = analysePages([
      {
        height: 792,
        items: [
          rawItem(
            'The value of the subject via the Cost Approach is calculated as follows.',
            60,
            720,
          ),
          ...rows.flatMap(([label, op, figure, x], k) => [
            rawItem(label, 60, 700 - k * 14),
            ...(op ? [rawItem(op, 330, 700 - k * 14)] : []),
            ...(figure ? [rawItem(figure, x, 700 - k * 14)] : []),
          ]),
          rawItem('The subject is recently constructed; no depreciation accrues.', 60, 600),
        ],
      },
    ]);
    const lines = paragraphs(sections[0]?.markdown ?? '');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Building & Site Improvements: $1,429,953',
        'Less Depreciation @ 0.0%*: (-)',
        'Depreciated Value of Improvements: $1,429,953',
        'Plus Estimated Land Value: 324,135',
        'Total Estimated Value via Cost Approach: $1,754,088',
        'Rounded to: $1,755,000',
      ]),
    );
    expect(lines.join('\n')).not.toMatch(/=/);
  });

  it('tells the paragraphs of a letter set tighter than the report after it', () => {
    // Page 1: a letter in single spacing (14 pt apart), paragraphs a blank line apart (28 pt);
    // pages 2 and 3: the report in one-and-a-half spacing (22 pt).
    const prose = 'The subject is a light industrial building with shop space and office area';
    const letter = [
      'October 18, 2023',
      '',
      'Dear Sir or Madam:',
      '',
      'Pursuant to your request, I have prepared an appraisal of the property and',
      'its improvements as described in the report that follows this letter. I have',
      'personally inspected the site and the improvements valued in this report.',
      '',
      'As a result of my investigation, the final estimated market value of the fee',
      'simple estate, as of the date of completion of construction, estimated to be',
      'December 31, 2023, is: $1,305,000.',
      '',
      'This letter must remain attached to the report, which contains 36 pages, in',
      'order for the value opinions set forth to be considered valid. Your attention',
      'is directed to the assumptions and limiting conditions.',
    ];
    let y = 720;
    const letterItems = letter.flatMap((text) => {
      y -= 14;
      return text ? [rawItem(text, 60, y)] : [];
    });
    const report = (page: number) => ({
      height: 792,
      items: Array.from({ length: 20 }, (_, k) =>
        rawItem(`${prose} ${page}.${k}`, 60, 720 - k * 22),
      ),
    });
    const sections = analysePages([{ height: 792, items: letterItems }, report(2), report(3)]);
    const lines = paragraphs(sections.map((s) => s.markdown).join('\n\n'));
    expect(lines.slice(0, 5)).toEqual([
      'October 18, 2023',
      'Dear Sir or Madam:',
      'Pursuant to your request, I have prepared an appraisal of the property and its improvements as described in the report that follows this letter. I have personally inspected the site and the improvements valued in this report.',
      'As a result of my investigation, the final estimated market value of the fee simple estate, as of the date of completion of construction, estimated to be December 31, 2023, is: $1,305,000.',
      'This letter must remain attached to the report, which contains 36 pages, in order for the value opinions set forth to be considered valid. Your attention is directed to the assumptions and limiting conditions.',
    ]);
  });

  it('ends a block at a page break before a capital, and goes on after a word that leads on', () => {
    // Each page: what it opens with, ten findings of two lines a paragraph apart, what it
    // closes with.
    const page = (n: number, first: string[], last: string[]) => {
      let y = 734;
      const items = first.map((t) => rawItem(t, 60, (y -= 14)));
      for (let k = 0; k < 10; k++) {
        items.push(
          rawItem(`Moisture readings along the north wall of room ${n} were`, 60, (y -= 30)),
        );
        items.push(rawItem(`normal at point ${k}.`, 60, (y -= 14)));
      }
      last.forEach((t, k) => items.push(rawItem(t, 60, (y -= k === 0 ? 30 : 14))));
      return { height: 792, items };
    };
    const sections = analysePages([
      page(1, [], ['Recommendation: gutters']),
      page(2, ['Basement Stairs and Rails'], ['The loose handrail is described in the']),
      page(3, ['Interior Findings table above.'], ['A second reading was']),
      page(4, ['skipped as the meter had failed.'], []),
    ]);
    const lines = paragraphs(sections.map((s) => s.markdown).join('\n\n'));
    expect(lines).toContain('Recommendation: gutters');
    expect(lines).toContain('Basement Stairs and Rails');
    expect(lines).toContain(
      'The loose handrail is described in the Interior Findings table above.',
    );
    expect(lines).toContain('A second reading was skipped as the meter had failed.');
  });

  it('reads a header of titles over one row of figures as one record, beside the sentence that introduces it', () => {
    const titles = ['Appraisal Premise', 'Interest Appraised', 'Date of Value', 'Value Conclusion'];
    const values = ['Retrospective As Is', 'Fee Simple Estate', 'January 1, 2018', '$7,500,000'];
    const sections = analysePages([
      {
        height: 792,
        items: [
          item(
            'Based on the analysis, the market value of the subject is concluded as follows:',
            60,
            740,
          ),
          ...titles.map((t, k) => item(t, 60 + k * 130, 700)),
          ...values.map((v, k) => item(v, 60 + k * 130, 686)),
          item('Compiled by the appraiser', 60, 660),
          // A piece of a wider table repeats its cells: it stays a table.
          ...['Condition', 'Good', 'Good', 'Average'].map((t, k) => item(t, 60 + k * 130, 600)),
          ...['Size (SF)', '19,500', '23,600', '10,000'].map((t, k) => item(t, 60 + k * 130, 586)),
        ],
      },
    ]);
    const lines = paragraphs(sections[0]?.markdown ?? '');
    const record = titles.map((t, k) => `${t}: ${values[k]}`);
    const at = lines.indexOf(record[0]!);
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at, at + 4)).toEqual(record);
    expect(sections[0]?.tables.map((t) => t.rows[0])).toEqual([
      ['Condition', 'Good', 'Good', 'Average'],
    ]);
  });

  it('reads pairs side by side with a label and one value set further right under them as pairs', () => {
    const pairs: [string, string, string, string][] = [
      ['Primary Building Type:', 'Office', 'Height per Story:', "10'"],
      ['Effective Age:', '30 YRS', 'Number of Buildings:', '1'],
      ['Condition:', 'Fair', 'Gross Building Area:', '72,720 SF'],
    ];
    const sections = analysePages([
      {
        height: 792,
        items: [
          ...pairs.flatMap((r, k) => r.map((t, c) => item(t, 60 + c * 120, 700 - k * 14))),
          item('MVS Sec/Page', 60, 658),
          item('15/17', 420, 658),
          item('Base Square Foot Cost', 60, 644),
          item('$208.00', 420, 644),
        ],
      },
    ]);
    expect(sections[0]?.tables).toEqual([]);
    expect(paragraphs(sections[0]?.markdown ?? '')).toEqual([
      'Primary Building Type: Office',
      "Height per Story: 10'",
      'Effective Age: 30 YRS',
      'Number of Buildings: 1',
      'Condition: Fair',
      'Gross Building Area: 72,720 SF',
      'MVS Sec/Page: 15/17',
      'Base Square Foot Cost: $208.00',
    ]);
  });

  it('reads a size and its unit as a value, not as an item rated by a code the document explains', () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('SF = Square feet of the building', 60, 740),
          item('Gross Building Area', 60, 700),
          item('72,720 SF', 260, 700),
          item('Net Rentable Area', 60, 686),
          item('72,720 SF', 260, 686),
          item('Average Floor Plate', 60, 672),
          item('18,180 SF', 260, 672),
        ],
      },
    ]);
    const text = sections.map((s) => s.markdown).join('\n');
    expect(text).not.toContain('Rating');
    expect(text).not.toMatch(/72,720: /);
    expect(text).toMatch(/Gross Building Area\W+72,720 SF/);
  });

  it('keeps a currency sign set apart from its amount with the amount, column by column', () => {
    const row = (name: string, cost: string, y: number): RawTextItem[] => [
      item(name, 60, y),
      item('$', 250, y),
      item(cost, 300, y),
      item('$', 380, y),
      item(cost, 430, y),
    ];
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('Property Category', 60, 714),
          item('Cost', 300, 714),
          item('15 Year', 430, 714),
          ...row('Site Drainage', '12,320.95', 700),
          ...row('Parking Lot', '389,076.27', 686),
          ...row('Sidewalks / Curbs', '23,962.86', 672),
        ],
      },
    ]);
    const text = sections.map((s) => s.markdown).join('\n');
    expect(text).toMatch(/Parking Lot\W+\$389,076\.27\W+\$389,076\.27/);
    expect(text).not.toMatch(/\|\s*\$\s*\|/);
  });

  it('reads a bullet drawn from a symbol font as a bullet', () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('\uf0b7', 60, 700),
          item('No responsibility is assumed for the legal description.', 78, 700),
          item('\uf0b7', 60, 686),
          item('The property is appraised free and clear of any liens.', 78, 686),
        ],
      },
    ]);
    const text = sections.map((s) => s.markdown).join('\n');
    expect(text).not.toContain('\uf0b7');
    expect(paragraphs(text)).toContain('• No responsibility is assumed for the legal description.');
  });
});

describe('PDF layout analysis: cells wrapped over several lines', () => {
  const item = rawItem;
  /** A row of cells at `y`, each at its column's `x` (every 170 points unless given). */
  const row = (
    cells: string[],
    y: number,
    xs: number[] = cells.map((_, k) => 56 + k * 170),
  ): RawTextItem[] => cells.flatMap((c, k) => (c === '' ? [] : [item(c, xs[k]!, y)]));

  it('joins a wrapped cell into one, leaving rows that start a new item as rows', () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          ...row(['Factor', 'Health impact', 'Value impact'], 740),
          ...row(['Landslide', 'Low: no direct', 'Moderate: slope'], 726),
          ...row(['', 'health exposure.', 'failure can damage'], 714),
          ...row(['Noise', 'Low: chronic', 'Moderate.'], 700),
          ...row(['', 'noise affects sleep.', 'Quiet streets sell.'], 688),
        ],
      },
    ]);
    expect(sections[0]?.tables[0]?.rows).toEqual([
      ['Factor', 'Health impact', 'Value impact'],
      ['Landslide', 'Low: no direct health exposure.', 'Moderate: slope failure can damage'],
      ['Noise', 'Low: chronic', 'Moderate.'],
      // A cell that starts a new sentence is a row of its own.
      ['', 'noise affects sleep.', 'Quiet streets sell.'],
    ]);
  });

  it('joins the lines a single cell wraps onto, whatever their case, and a first row that wraps', () => {
    // Three columns: a number, a finding wide enough for its text, a reference.
    const wide = [56, 90, 300];
    const sections = analysePages([
      {
        height: 792,
        items: [
          // A summary table with no header line: its first row wraps too.
          ...row(['1', 'Observed dampness at the skirting', '1.1'], 500, wide),
          ...row(['', 'level of the Hall of Flat No.', ''], 488, wide),
          ...row(['', '103', ''], 476, wide),
          ...row(['2', 'Observed leakage at the Parking', '2.1'], 460, wide),
          ...row(['', 'ceiling below Flat No. 103', ''], 448, wide),
          // Choices of a list, one under the other, are not one wrapped cell.
          ...row(['Patio', 'Paver/Tile', 'Brick'], 300),
          ...row(['', 'Patio Slab', ''], 288),
        ],
      },
    ]);
    const tables = sections[0]?.tables ?? [];
    expect(tables[0]?.rows).toEqual([
      ['1', 'Observed dampness at the skirting level of the Hall of Flat No. 103', '1.1'],
      ['2', 'Observed leakage at the Parking ceiling below Flat No. 103', '2.1'],
    ]);
    expect(JSON.stringify(tables)).not.toContain('Paver/Tile Patio Slab');
  });

  it('keeps rows set far apart under their header, cells centred under it, and a name cut after "&"', () => {
    const heads = [56, 220, 380];
    const rowsAt = [56, 217.5, 380];
    const sections = analysePages([
      {
        height: 792,
        items: [
          ...row(['CATEGORY', 'STATUS', 'VERDICT'], 600, heads),
          ...row(['Roofing &', 'HEALTHY', 'Shingles in good'], 550, rowsAt),
          ...row(['Attic', '', 'repair, 10 years left.'], 536, rowsAt),
          // "SAFETY RISK" centred under "STATUS", starting left of it.
          ...row(['Electrical', 'SAFETY RISK', 'No GFCI in the kitchen.'], 486, [56, 207.5, 380]),
          // One wrapped row with no other row near it reads as the line it is.
          ...row(['1', 'Observed dampness at the', '1.1'], 300, [56, 90, 300]),
          ...row(['', 'skirting level of the hall', ''], 288, [56, 90, 300]),
        ],
      },
    ]);
    expect(sections[0]?.tables.map((t) => t.rows)).toEqual([
      [
        ['CATEGORY', 'STATUS', 'VERDICT'],
        ['Roofing & Attic', 'HEALTHY', 'Shingles in good repair, 10 years left.'],
        ['Electrical', 'SAFETY RISK', 'No GFCI in the kitchen.'],
      ],
    ]);
    expect(paragraphs(sections[0]?.markdown ?? '')).toContain(
      '1 Observed dampness at the skirting level of the hall 1.1',
    );
  });
});

describe('PDF layout analysis: sidebars', () => {
  const item = rawItem;

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

describe('PDF layout analysis: labels over values, figures over labels, letter spacing', () => {
  const item = (str: string, x: number, y: number, size = 9, font = 'body'): RawTextItem => ({
    str,
    transform: [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
    fontName: font,
  });
  const body = (y: number): RawTextItem[] =>
    [0, 1, 2, 3].map((k) =>
      item(
        'The tenancy details and the inspected rooms are set out below for both parties to read.',
        40,
        y - k * 12,
      ),
    );

  it('pairs small capital labels with the values under them, column by column and row by row', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('REPORT ID', 43, 660, 7, 'label'),
          item('EJARI REFERENCE', 298, 660, 7, 'label'),
          item('SNF-CO-2026-27', 43, 649, 10, 'value'),
          item('042026-042027', 298, 649, 10, 'value'),
          item('ANNUAL RENT', 43, 632, 7, 'label'),
          item('SECURITY DEPOSIT', 298, 632, 7, 'label'),
          item('AED 118,000', 43, 621, 10, 'value'),
          item('AED 5,900', 298, 621, 10, 'value'),
          item('CONTRACT STATUS', 43, 604, 7, 'label'),
          item('Completed', 43, 593, 10, 'value'),
          ...body(540),
        ],
      },
    ]);
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Report ID: SNF-CO-2026-27',
        'Ejari reference: 042026-042027',
        'Annual rent: AED 118,000',
        'Security deposit: AED 5,900',
        'Contract status: Completed',
      ]),
    );
    expect(section?.tables).toHaveLength(0);
  });

  it('pairs labels with values when a column beside them is printed between their lines', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Recommended Action', 460, 680, 8, 'label'),
          item('Verification', 88, 674, 8, 'label'),
          item('Urgency', 355, 674, 8, 'label'),
          item('REPLACE / VENDOR', 455, 668, 9.5, 'value'),
          item('VERIFIED', 88, 661, 9.5, 'value'),
          item('NEXT 0-30 DAYS', 340, 661, 9.5, 'value'),
          item('REVIEW', 483, 655, 9.5, 'value'),
          ...body(600),
        ],
      },
    ]);
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Recommended Action: REPLACE / VENDOR REVIEW',
        'Verification: VERIFIED',
        'Urgency: NEXT 0-30 DAYS',
      ]),
    );
  });

  /** The one section of a page: body text, then rows of up to four cells in fixed columns. */
  const gridPage = (rows: [number, string[]][], after: number) => {
    const cells = rows.flatMap(([y, row]) =>
      row.map((c, k) => item(c, [45, 160, 300, 415][k] as number, y, 9, 'body')),
    );
    return analysePages([{ height: 792, items: [...body(760), ...cells, ...body(after)] }])[0];
  };

  it('reads pairs of label and value side by side as "Label: value" lines, row by row', () => {
    const section = gridPage(
      [
        [700, ['Wildfire', 'Relatively Low', 'Earthquake', 'Very High']],
        [686, ['Tornado', 'Relatively Moderate', 'Coastal Flood', 'Relatively Moderate']],
        [672, ['Inland Flood', 'Very High', 'Hail', 'Very Low']],
        [658, ['Strong Wind', 'Very Low']],
        [560, ['Report No.:', 'RS-0142', 'Inspection Date:', 'April 27, 2026']],
        [546, ['Client:', 'Sample Client Ltd.', 'Inspector:', 'Sample Inspector']],
      ],
      480,
    );
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Wildfire: Relatively Low',
        'Earthquake: Very High',
        'Coastal Flood: Relatively Moderate',
        'Inland Flood: Very High',
        'Strong Wind: Very Low',
        'Report No.: RS-0142',
        'Inspection Date: April 27, 2026',
        'Inspector: Sample Inspector',
      ]),
    );
    expect(section?.tables).toHaveLength(0);
  });

  it('keeps a four-column table with a header row a table', () => {
    const section = gridPage(
      [
        [700, ['Room', 'Floor', 'Finish', 'Condition']],
        [686, ['Kitchen', 'Ground', 'Tile', 'Good']],
        [672, ['Bedroom', 'First', 'Carpet', 'Fair']],
        [658, ['Bathroom', 'First', 'Vinyl', 'Poor']],
      ],
      600,
    );
    expect(section?.tables).toHaveLength(1);
    expect(section?.tables[0]?.rows[0]).toEqual(['Room', 'Floor', 'Finish', 'Condition']);
  });

  it('reads rows under a header that only names the columns as pairs, whatever their spacing', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Field', 45, 700, 9, 'bold'),
          item('Details', 192, 700, 9, 'bold'),
          item('Owner Name', 45, 678, 9, 'body'),
          item('Sample Owner', 192, 678, 9, 'body'),
          item('Facing', 45, 656, 9, 'body'),
          item('North', 192, 656, 9, 'body'),
          item('Bathrooms', 45, 634, 9, 'body'),
          item('4', 192, 634, 9, 'body'),
        ],
      },
    ]);
    expect(section?.tables).toEqual([]);
    expect(paragraphs(section?.markdown ?? '')).toEqual([
      expect.stringContaining('The tenancy details'),
      'Owner Name: Sample Owner',
      'Facing: North',
      'Bathrooms: 4',
    ]);
  });

  it('keeps a two-column table whose header names what its columns hold a table', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Utility', 45, 700, 9, 'bold'),
          item('Provided By', 192, 700, 9, 'bold'),
          item('Electricity', 45, 678, 9, 'body'),
          item('Grid Power Co', 192, 678, 9, 'body'),
          item('Natural Gas', 45, 656, 9, 'body'),
          item('Valley Gas', 192, 656, 9, 'body'),
        ],
      },
    ]);
    expect(section?.tables[0]?.rows).toEqual([
      ['Utility', 'Provided By'],
      ['Electricity', 'Grid Power Co'],
      ['Natural Gas', 'Valley Gas'],
    ]);
  });

  it('reads a label centred beside its value of two lines as one pair', () => {
    // A summary grid: a label set midway between the two lines of its value, rows of labels
    // indented under a group's label, and a parent row further out again.
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Effective Date', 45, 700, 9, 'label'),
          item('10/30/2025', 220, 700, 9, 'value'),
          item('To provide an estimation of Market Value', 220, 682, 9, 'value'),
          item('Purpose of Appraisal', 45, 675, 9, 'label'),
          item('“as is”.', 220, 668, 9, 'value'),
          item('Subject Property Information', 45, 650, 9, 'label'),
          item('Land Size (AC)', 75, 632, 9, 'label'),
          item('0.5', 220, 632, 9, 'value'),
          item('Building Size (SF)', 75, 614, 9, 'label'),
          item('3,524', 220, 614, 9, 'value'),
          item('Zoning', 45, 596, 9, 'label'),
          item('None (Outside City Limits)', 220, 596, 9, 'value'),
          item('Indicated Property Value via', 45, 578, 9, 'label'),
          item('Sales Comparison Approach', 75, 560, 9, 'label'),
          item('$368,000', 220, 560, 9, 'value'),
          item('Final Value (Fee Simple Estate)', 45, 542, 9, 'label'),
          item('$368,000', 220, 542, 9, 'value'),
        ],
      },
    ]);
    expect(paragraphs(section?.markdown ?? '').slice(1)).toEqual([
      'Effective Date: 10/30/2025',
      'Purpose of Appraisal: To provide an estimation of Market Value “as is”.',
      'Subject Property Information',
      'Land Size (AC): 0.5',
      'Building Size (SF): 3,524',
      'Zoning: None (Outside City Limits)',
      'Indicated Property Value via',
      'Sales Comparison Approach: $368,000',
      'Final Value (Fee Simple Estate): $368,000',
    ]);
  });

  it('pairs labels ending in a colon with the values under them, whatever their type', () => {
    // A report's pages in one face and size before many pages of an ordinance in another: the
    // document's body type says nothing of the report's labels.
    const ordinance = Array.from({ length: 40 }, (_, k) =>
      item(
        'Sec. 202-1. This title is intended to implement the purposes set forth herein.',
        40,
        760 - k * 12,
        10,
        'ordinance',
      ),
    );
    const [section] = analysePages([
      {
        height: 792,
        items: [
          item('Property Name:', 77, 700, 11, 'bold'),
          item('Year Built:', 364, 700, 11, 'bold'),
          item('Future Restaurant Site', 77, 684, 11, 'regular'),
          item('Vacant', 364, 684, 11, 'regular'),
          item('Current Use Allowed/Permitted:', 77, 650, 11, 'bold'),
          item('Proposed Use Allowed?', 364, 650, 11, 'bold'),
          item('Vacant', 77, 634, 11, 'regular'),
          item('Yes', 364, 634, 11, 'regular'),
          item('Minimum Lot Area', 77, 600, 11, 'bold'),
          item('Minimum Lot Width', 244, 600, 11, 'bold'),
          item('Minimum Lot Depth', 397, 600, 11, 'bold'),
          item('15,000 sq. ft.', 77, 585, 11, 'regular'),
          item('100 ft', 244, 585, 11, 'regular'),
        ],
      },
      { height: 792, items: ordinance },
    ]);
    expect(paragraphs(section?.markdown ?? '').slice(0, 6)).toEqual([
      'Property Name: Future Restaurant Site',
      'Year Built: Vacant',
      'Current Use Allowed/Permitted: Vacant',
      'Proposed Use Allowed?: Yes',
      'Minimum Lot Area: 15,000 sq. ft.',
      'Minimum Lot Width: 100 ft',
    ]);
  });

  /** Pages of an ordinance appended to a report, in a face and size of their own. */
  const ordinancePage = () => ({
    height: 792,
    items: Array.from({ length: 40 }, (_, k) =>
      item(
        'Sec. 202-1. This title is intended to implement the purposes set forth herein.',
        40,
        760 - k * 12,
        10,
        'ordinance',
      ),
    ),
  });

  it('reads a cover of large lines as the title and what it says, not as headings over the report', () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('SAMPLE ZONING REPORT', 150, 700, 24, 'bold'),
          item('REPORT NO: 2026-0007', 200, 660, 11, 'regular'),
          item('PROPERTY:', 240, 600, 16, 'bold'),
          item('12 Sample Road', 230, 580, 14, 'regular'),
          item('PREPARED FOR:', 220, 520, 16, 'bold'),
          item('Sample Developer', 225, 500, 14, 'regular'),
          item('www.sample-consultant.example', 200, 400, 14, 'bold'),
        ],
      },
      {
        height: 792,
        items: [
          item('Executive Summary', 77, 720, 14, 'bold'),
          ...Array.from({ length: 4 }, (_, k) =>
            item(
              'The subject property is located in the C-2 zoning district of the county.',
              77,
              690 - k * 13,
              11,
              'regular',
            ),
          ),
        ],
      },
      ordinancePage(),
    ]);
    const named = sections.filter((x) => x.name !== null);
    expect(named.map((x) => [x.name, x.level])).toEqual([
      ['SAMPLE ZONING REPORT', 1],
      ['Executive Summary', 2],
    ]);
    const cover = paragraphs(named[0]?.markdown ?? '').join('\n');
    expect(cover).toContain('PREPARED FOR:');
    expect(cover).toContain('12 Sample Road');
    expect(cover).toContain('www.sample-consultant.example');
  });

  it('heads each paragraph of a summary with its title in bold, in a document with larger headings', () => {
    const prose = (text: string, y: number): RawTextItem[] =>
      [0, 1, 2].map((k) => item(text, 77, y - k * 13, 11, 'regular'));
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('Executive Summary', 77, 720, 14, 'bold'),
          item('Zoning Information', 77, 690, 11, 'bold'),
          ...prose(
            'The subject property is located in the C-2 zoning district of the county.',
            677,
          ),
          item('Parking Regulations', 77, 610, 11, 'bold'),
          ...prose('A restaurant with a drive-through needs 14 spaces per 1,000 square feet.', 597),
          // An item's name in bold over a finding of one line stays with its finding.
          item('Signage', 77, 530, 11, 'bold'),
          item('No sign permit was found for the existing pole sign on the site.', 77, 517, 11),
        ],
      },
      ordinancePage(),
    ]);
    const named = sections.filter((x) => x.name !== null);
    expect(named.map((x) => x.name)).toEqual([
      'Executive Summary',
      'Zoning Information',
      'Parking Regulations',
    ]);
    expect(named[1]?.level).toBeGreaterThan(named[0]?.level ?? 0);
    expect(paragraphs(named[1]?.markdown ?? '')[0]).toMatch(/^The subject property is located/);
    expect(paragraphs(named[2]?.markdown ?? '').join('\n')).toContain('Signage');
  });

  it('pairs a row of boxes with the values under them when some boxes are blank', () => {
    // The second row's one value has the next part's label ("Comments:") close under it.
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('Parking Regulations', 60, 720, 14, 'bold'),
          item('Min. Vehicle Stalls Required', 60, 690, 11, 'bold'),
          item('Max. Vehicle Stalls Allowed', 260, 690, 11, 'bold'),
          item('Bike Stalls Required', 460, 690, 11, 'bold'),
          item('14 per 1,000 sq. ft.', 60, 675, 11, 'bold'),
          item('125% of the minimum', 260, 675, 11, 'bold'),
          item('Electric Vehicle Parking Stalls Required', 60, 647, 11, 'bold'),
          item('Loading Docks/Truck Parking Required', 310, 647, 11, 'bold'),
          item('1', 60, 632.5, 11, 'bold'),
          item('Comments:', 60, 604, 11, 'bold'),
          item(
            'Bicycle parking is required for uses with more than 100 parking spaces.',
            60,
            589,
            11,
          ),
        ],
      },
      ordinancePage(),
    ]);
    const section = sections.find((x) => x.name === 'Parking Regulations');
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Min. Vehicle Stalls Required: 14 per 1,000 sq. ft.',
        'Max. Vehicle Stalls Allowed: 125% of the minimum',
        'Electric Vehicle Parking Stalls Required: 1',
      ]),
    );
    const text = lines.join('\n');
    expect(text).not.toContain('Bike Stalls Required:');
    expect(text).not.toContain('Loading Docks/Truck Parking Required:');
  });

  it('leaves lines set close together apart when nothing sits midway between them', () => {
    // A reading beside a picture's scale, set a little lower: not one row ("26.2 Hotspot : …").
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Hotspot : 26.2 °C', 300, 700, 10, 'body'),
          item('26.2', 100, 694, 10, 'scale'),
          item('Coldspot : 21.2 °C', 300, 670, 10, 'body'),
        ],
      },
    ]);
    const text = paragraphs(section?.markdown ?? '').join('\n');
    expect(text).toContain('Hotspot : 26.2 °C');
    expect(text).not.toContain('26.2 Hotspot');
    expect(text).toContain('Coldspot : 21.2 °C');
  });

  it('pairs figures in large type with the capital labels centred under them', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('57', 121, 660, 27),
          item('Good', 271, 660, 20),
          item('2 yrs', 441, 660, 27),
          item('ROOF CONDITION INDEX', 91, 643, 9),
          item('VISUAL CONDITION', 236, 643, 9),
          item('REMAINING ROOF LIFE', 417, 643, 9),
          ...body(600),
        ],
      },
    ]);
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Roof condition index: 57',
        'Visual condition: Good',
        'Remaining roof life: 2 yrs',
      ]),
    );
  });

  it('reads letter-spaced headings as words the document uses, and leaves spaced measures alone', () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('T E N A N C Y D E TA I L S', 40, 700, 9),
          item('Tenancy type: Standard', 40, 688),
          item('I N S P E C TO R', 40, 660, 9),
          item('Sample Agent', 40, 648),
          item('Kitchen size 4 m x 3 m as measured.', 40, 620),
        ],
      },
    ]);
    const text = sections.map((s) => `${s.name ?? ''}\n${s.markdown}`).join('\n');
    expect(text).toContain('TENANCY DETAILS');
    expect(text).toContain('INSPECTOR');
    expect(text).toContain('4 m x 3 m');
    expect(text).not.toContain('T E N');
  });

  it('reads titles set large over a row of as many scores as the header of a table, not a heading', () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Section scores', 40, 700, 14, 'bold'),
          item('Roof', 92, 670, 12),
          item('Walls', 236, 670, 12),
          item('Drainage', 380, 670, 12),
          item('5.2', 46, 654, 20),
          item('6.4', 190, 654, 20),
          item('8.1', 334, 654, 20),
          item('Fair', 92, 640, 8),
          item('Fair', 236, 640, 8),
          item('Good', 380, 640, 8),
          ...body(600),
        ],
      },
    ]);
    expect(sections.map((s) => s.name)).not.toContain('Roof Walls Drainage');
    const text = sections.map((s) => s.markdown).join('\n');
    expect(text).toContain('| Roof | Walls | Drainage |');
    expect(text).toContain('| 5.2 | 6.4 | 8.1 |');
  });

  it("reads a flyer's letter-spaced tiles of four letters as words beside tiles of five", () => {
    const sections = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('B E D S', 40, 700, 9),
          item('B A T H S', 200, 700, 9),
          item('S Q F T', 360, 700, 9),
          item('4', 40, 688),
          item('3', 200, 688),
          item('2140', 360, 688),
          item('Grades A B C D apply to each room.', 40, 660),
          item('Place of worship', 40, 640),
          item('P P P P P', 200, 640),
          item('P P P P', 300, 640),
        ],
      },
    ]);
    const text = sections.map((s) => `${s.name ?? ''}\n${s.markdown}`).join('\n');
    expect(text).toContain('BEDS');
    expect(text).toContain('SQFT');
    expect(text).toContain('A B C D');
    expect(text).not.toContain('B E D S');
    // A grid's marks, one letter again and again, stay marks.
    expect(text).toContain('P P P P P');
    expect(text).not.toContain('PPPP');
  });

  it('keeps a sentence whole across lines spaced wider than the body text', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          ...body(700),
          item('The living room has a new damp-related defect at the window sill with', 40, 620),
          item('paint chipped and peeling by about 5 cm. The kitchen is unchanged.', 40, 603),
          item('Keys were returned.', 40, 586),
        ],
      },
    ]);
    const lines = paragraphs(section?.markdown ?? '');
    expect(lines).toContain(
      'The living room has a new damp-related defect at the window sill with paint chipped and peeling by about 5 cm. The kitchen is unchanged.',
    );
    // A line that starts a sentence after a full stop, as far down, starts a paragraph.
    expect(lines).toContain('Keys were returned.');
  });

  it('starts a paragraph at each list item and at each `Label: value` line under another', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Property: Sample Commercial Complex, Block B', 40, 680),
          item('Inspection Date: March 10, 2025', 40, 668),
          item('Inspector: Sample Engineer', 40, 656),
          item('- Active water seepage observed along the north wall', 40, 630),
          item('- Efflorescence deposits visible at several places', 40, 618),
        ],
      },
    ]);
    expect(paragraphs(section?.markdown ?? '')).toEqual(
      expect.arrayContaining([
        'Property: Sample Commercial Complex, Block B',
        'Inspection Date: March 10, 2025',
        'Inspector: Sample Engineer',
        '- Active water seepage observed along the north wall',
        '- Efflorescence deposits visible at several places',
      ]),
    );
  });

  it('starts a paragraph at each numbered item after one that ended its sentence', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Observations:', 40, 680),
          item('1. Damp patches observed on the bedroom wall near the window.', 40, 662),
          item('2. Minor cracks visible on the living room ceiling.', 40, 650),
          item('3. Paint peeling in the kitchen, worst behind the sink and', 40, 638),
          item('around the window frame.', 40, 626),
        ],
      },
    ]);
    expect(paragraphs(section?.markdown ?? '')).toEqual(
      expect.arrayContaining([
        '1. Damp patches observed on the bedroom wall near the window.',
        '2. Minor cracks visible on the living room ceiling.',
        '3. Paint peeling in the kitchen, worst behind the sink and around the window frame.',
      ]),
    );
  });

  it('splits a table header whose titles ran together where the first row’s cells start', () => {
    const [section] = analysePages([
      {
        height: 792,
        items: [
          ...body(760),
          item('Component', 100, 660, 8, 'bold'),
          item('Min Temp (C) Max Temp (C)', 240, 660, 8, 'bold'),
          item('Risk Level', 400, 660, 8, 'bold'),
          item('Main Distribution Board', 100, 643, 7.5),
          item('31.2', 240, 643, 7.5),
          item('47.8', 294, 643, 7.5),
          item('CRITICAL', 400, 643, 7.5),
          item('Neutral Bus Bar', 100, 625, 7.5),
          item('27.5', 240, 625, 7.5),
          item('31.2', 294, 625, 7.5),
          item('LOW', 400, 625, 7.5),
        ],
      },
    ]);
    expect(section?.tables[0]?.rows).toEqual([
      ['Component', 'Min Temp (C)', 'Max Temp (C)', 'Risk Level'],
      ['Main Distribution Board', '31.2', '47.8', 'CRITICAL'],
      ['Neutral Bus Bar', '27.5', '31.2', 'LOW'],
    ]);
  });

  it('takes a paragraph set in larger type as text, not as headings', () => {
    const sentence =
      'Check-out inspection of the unit conducted in July with five rooms and ten photos recorded';
    const sections = analysePages([
      {
        height: 792,
        items: [
          item('Summary', 40, 740, 16),
          ...[0, 1, 2].map((k) => item(sentence, 40, 716 - k * 14, 11)),
          ...body(640),
          ...body(580),
        ],
      },
    ]);
    expect(sections.map((s) => s.name).filter((n) => n !== null)).toEqual(['Summary']);
    expect(
      paragraphs(sections.find((s) => s.name === 'Summary')?.markdown ?? '').join(' '),
    ).toContain('Check-out inspection of the unit');
  });
});

describe('a page of a report app: spaced headings, small labels over values, figure cards', () => {
  it('reads each layout as a reader would, in one section', async () => {
    const doc = await parseDocument('pdf', await buildReportAppPdf());
    const L = REPORT_APP_LAYOUT;
    expect(doc.sections.map((s) => s.name).filter((n) => n !== null)).toEqual(['Check-out Report']);
    const lines = paragraphs(doc.sections.map((s) => s.markdown).join('\n\n'));
    for (const [figure, label] of L.cards)
      expect(lines).toContain(`${label.charAt(0)}${label.slice(1).toLowerCase()}: ${figure}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        'Annual rent: AED 118,000',
        'Security deposit: AED 5,900',
        'Tenancy type: Standard',
        'Contract status: Completed',
        'TENANCY DETAILS',
        `Inspector: ${L.inspector}`,
        L.summary.join(' '),
      ]),
    );
    expect(doc.tables).toHaveLength(0);
  });
});

describe('PDF layout of a state inspection form filled in by a program', () => {
  const F = STATE_FORM_LAYOUT;
  let doc: ParsedDocument;
  beforeAll(async () => {
    doc = await parseDocument('pdf', await buildStateFormPdf());
  });

  it('nests the lettered items under the Roman-numbered systems, in the body size', () => {
    expect(doc.sections.map((s) => [s.name, s.level])).toEqual([
      [F.title, 1],
      ...F.systems.flatMap((system) => [
        [system.name, 2],
        ...system.items.map((item) => [item.name, 3]),
      ]),
    ]);
  });

  it('keeps a location line apart from the finding title under it, the title with its category', () => {
    for (const system of F.systems)
      for (const item of system.items) {
        const lines = paragraphs(section(doc, item.name).markdown);
        expect(lines).toContain(`location:${item.location}`);
        expect(lines).toContain(`${item.finding} ${item.category}`);
        expect(lines).toContain(item.text);
      }
  });
});

describe('PDF layout analysis: a flyer in two columns', () => {
  // A listing flyer's first page (PDF units, 792 high): a headline in 40 pt and its blurb left;
  // the address, price and figures right, in type of their own sizes on baselines of their own;
  // below a photo's band, the agent's card left and a call to action right.
  const left = [
    rawItem('Sample Realty', 64, 739, 16),
    rawItem('LISTING REPORT', 37, 717, 6.5),
    rawItem('HOME', 37, 674, 40),
    rawItem('WORTH A LOOK', 37, 636, 40),
    rawItem('A bright open kitchen, wide slider doors', 37, 575, 11.5),
    rawItem('and a backyard made for guests on a', 37, 559, 11.5),
    rawItem('quiet street near the park and schools.', 37, 543, 11.5),
    rawItem('Sample Person', 124, 214, 17),
    rawItem('Listing Specialist', 124, 200, 8.6),
    rawItem('+15550100100', 50, 160, 8.6),
  ];
  const right = [
    rawItem('SALE REPORT', 470, 742, 8),
    rawItem('SNAPSHOT', 351, 704, 6.5),
    rawItem('12 Sample Lane,', 351, 679, 20),
    rawItem('Springfield, ST 00000', 351, 657, 20),
    rawItem('$500,000', 351, 621, 24),
    rawItem('BEDS', 359, 592, 6.5),
    rawItem('4', 359, 572, 13),
    rawItem('Live listing and showing', 339, 210, 16),
  ];

  it('reads each column in turn, block by block', () => {
    const sections = analysePages([{ height: 792, items: [...left, ...right] }]);
    const lines = sections.flatMap((s) => paragraphs(s.markdown));
    // Not spliced into the headline row by row ("HOME 12 Sample Lane,").
    expect(sections.map((s) => s.name)).toContain('HOME WORTH A LOOK');
    expect(lines).toContain('Snapshot: 12 Sample Lane, Springfield, ST 00000 $500,000');
    // The upper block's right column comes before the lower block.
    const address = lines.indexOf('Snapshot: 12 Sample Lane, Springfield, ST 00000 $500,000');
    expect(lines.indexOf('+15550100100')).toBeGreaterThan(address);
  });

  it('reads a page of one block its left column first, then its right', () => {
    const top = (item: RawTextItem) => ((item.transform as number[])[5] ?? 0) > 500;
    const sections = analysePages([
      { height: 792, items: [...left.filter(top), ...right.filter(top)] },
    ]);
    const lines = sections.flatMap((s) => paragraphs(s.markdown));
    const blurb = lines.findIndex((l) => l.startsWith('A bright open kitchen'));
    expect(blurb).toBeGreaterThanOrEqual(0);
    expect(
      lines.indexOf('Snapshot: 12 Sample Lane, Springfield, ST 00000 $500,000'),
    ).toBeGreaterThan(blurb);
  });

  it('keeps a name set large over a role under it as text, not as a heading', () => {
    const sections = analysePages([{ height: 792, items: [...left, ...right] }]);
    const lines = sections.flatMap((s) => paragraphs(s.markdown));
    expect(sections.map((s) => s.name)).not.toContain('Sample Person');
    expect(lines).toContain('Sample Person');
    expect(lines.indexOf('Listing Specialist')).toBe(lines.indexOf('Sample Person') + 1);
  });

  it('reads a hostile page of a quarter of a million text items without running out of stack', () => {
    // More items than a call takes arguments: looking for a gutter must not spread them.
    const items = Array.from({ length: 250_000 }, (_, k) =>
      rawItem('w', 40 + (k % 50) * 10, 700 - Math.floor(k / 50) * 0.1),
    );
    expect(() => analysePages([{ height: 792, items }])).not.toThrow();
  }, 20_000);

  it('reads rows across when the columns share their baselines, as a form does', () => {
    const rows = ['Roof', 'Siding', 'Gutters', 'Windows'].flatMap((label, k) => [
      rawItem(`${label}:`, 37, 700 - k * 20, 11.5),
      rawItem(`Good ${k}`, 351, 700 - k * 20, 11.5),
    ]);
    const sections = analysePages([{ height: 792, items: rows }]);
    const lines = sections.flatMap((s) => paragraphs(s.markdown));
    expect(lines).toContain('Roof: Good 0');
    expect(lines).toContain('Windows: Good 3');
  });
});
