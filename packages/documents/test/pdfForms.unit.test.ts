import { describe, expect, it } from 'vitest';
import { analysePages } from '../src/parse/pdf.js';
import type { RawTextItem } from '../src/parse/pdf.js';
import { withoutStackedLetters, type Item } from '../src/parse/pdf/lines.js';

const SIZE = 8;

/** A pdf.js text item at (x, y) in `font`, `size` points high, its glyphs half an em wide. */
function item(str: string, x: number, y: number, font = '', size = SIZE): RawTextItem {
  return {
    str,
    transform: [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
    fontName: font,
  };
}

type Part = [text: string, font: string];

/**
 * A form row: each part right after the one before (a label and the value typed beside it), and
 * a wide gap before a label that follows a value (the form's next field).
 */
function row(y: number, parts: Part[], x0 = 40): RawTextItem[] {
  let x = x0;
  let prev = '';
  return parts.map(([text, font]) => {
    x += prev === 'V' && font === 'L' ? 30 : prev ? 2 : 0;
    const it = item(text, x, y, font);
    x += text.length * SIZE * 0.5;
    prev = font;
    return it;
  });
}

function paragraphs(items: RawTextItem[]): string[] {
  const [section] = analysePages([{ height: 792, items }]).filter((s) => s.markdown !== '');
  return (section?.markdown ?? '')
    .split(/\n{2,}/)
    .map((p) => p.replace(/\\/g, '').trim())
    .filter((p) => p !== '');
}

const FORM: RawTextItem[] = [
  ...row(700, [
    ['Property Address', 'L'],
    ['17 Elm Dr', 'V'],
    ['City', 'L'],
    ['Johnston', 'V'],
    ['State', 'L'],
    ['RI', 'V'],
  ]),
  ...row(688, [
    ['Borrower', 'L'],
    ['Ann Buyer', 'V'],
    ['Owner of Public Record', 'L'],
    ['Eve Seller', 'V'],
    ['County', 'L'],
    ['Providence', 'V'],
  ]),
  ...row(676, [
    ['Tax Year', 'L'],
    ['2025', 'V'],
    ['R.E. Taxes $', 'L'],
    ['5,550', 'V'],
  ]),
  ...row(664, [
    ['Occupant', 'L'],
    ['Owner', 'L'],
    ['8', 'M'],
    ['Tenant', 'L'],
    ['Vacant', 'L'],
  ]),
  ...row(652, [
    ['Basement Area', 'L'],
    ['520', 'V'],
    ['sq.ft. Roof Surface', 'L'],
    ['Asphalt/Average', 'V'],
  ]),
  ...row(640, [
    ['Assignment Type', 'L'],
    ['Purchase', 'L'],
    ['8', 'M'],
    ['Refinance', 'L'],
  ]),
  ...row(628, [
    ['Finished area above grade contains:', 'L'],
    ['7', 'V'],
    ['Rooms', 'L'],
    ['3', 'V'],
    ['Bedrooms', 'L'],
  ]),
  ...row(616, [
    ['Date of Contract', 'L'],
    ['10/04/2025', 'V'],
    ['Is the property seller the owner of public record?', 'L'],
    ['Yes', 'L'],
    ['No', 'L'],
  ]),
];

describe('filled-in forms (labels in one type, the values typed in another)', () => {
  it('reads each field as "Label: value", a check mark before the choice it checks', () => {
    expect(paragraphs(FORM)).toEqual([
      'Property Address: 17 Elm Dr',
      'City: Johnston',
      'State: RI',
      'Borrower: Ann Buyer',
      'Owner of Public Record: Eve Seller',
      'County: Providence',
      'Tax Year: 2025',
      'R.E. Taxes: $5,550',
      'Occupant Owner ✘ Tenant Vacant',
      'Basement Area: 520 sq.ft.',
      'Roof Surface: Asphalt/Average',
      'Assignment Type Purchase ✘ Refinance',
      'Finished area above grade contains: 7 Rooms 3 Bedrooms',
      'Date of Contract: 10/04/2025',
      'Is the property seller the owner of public record? Yes No',
    ]);
  });

  it('reads a dash set in a font of its own as the dash it is, not as a check mark', () => {
    const dashes = [
      ...FORM.filter((i) => i.fontName !== 'M'),
      ...row(604, [
        ['Phone', 'L'],
        ['404', 'V'],
      ]),
      item('−', 72, 604, 'S'),
      item('973', 76, 604, 'V'),
      item('−', 90, 604, 'S'),
      item('2568', 94, 604, 'V'),
    ];
    const out = paragraphs(dashes);
    expect(out.join(' ')).not.toContain('✘');
    expect(out.some((p) => p.startsWith('Phone: 404') && p.includes('973'))).toBe(true);
  });

  it('leaves a row of values in columns of their own to the table it belongs to', () => {
    const grid = [
      ...FORM,
      ...[600, 588, 576].flatMap((y, k) => [
        item(['Sale Price', 'Site', 'Condition'][k] as string, 40, y, 'L'),
        ...['$450,000', '$480,029', '$400,000'].map((v, c) => item(v, 160 + c * 120, y, 'V')),
      ]),
    ];
    const out = paragraphs(grid);
    expect(out.some((p) => p.includes('Sale Price:'))).toBe(false);
    expect(out.some((p) => p.includes('$480,029'))).toBe(true);
  });

  it('does not take a bold lead-in per paragraph for a form', () => {
    const items = [700, 688, 676, 664, 652, 640, 628].flatMap((y) =>
      row(y, [
        ['Roof', 'B'],
        ['shingles are worn and lifting at the ridge.', 'R'],
      ]),
    );
    const out = paragraphs(items);
    expect(out.join(' ')).not.toContain('Roof:');
  });
});

describe('withoutStackedLetters', () => {
  const at = (str: string, x: number, y: number): Item => ({
    str,
    x,
    y,
    width: str.length * SIZE * 0.5,
    size: SIZE,
    font: 'f',
  });

  it('drops a word printed down the margin one capital a row, and keeps the rows', () => {
    const rows = [700, 690, 680, 670, 660].map((y) => at('Label text', 30, y));
    const letters = 'SUBJE'.split('').map((c, k) => at(c, 18 + (k % 2) * 0.6, 700 - k * 10));
    const kept = withoutStackedLetters([...letters, ...rows]);
    expect(kept.map((i) => i.str)).toEqual(rows.map((r) => r.str));
  });

  it('keeps the letters of a list ("A", "B", "C", "D" down its items)', () => {
    const letters = 'ABCD'.split('').map((c, k) => at(c, 18, 700 - k * 10));
    const rows = [700, 690, 680, 670].map((y) => at('Land Sale Data Sheets', 30, y));
    expect(withoutStackedLetters([...letters, ...rows])).toHaveLength(8);
  });

  it('keeps a column of marks inside a table (other text starts left of them)', () => {
    const rows = [700, 690, 680, 670, 660].flatMap((y) => [at('Item', 30, y), at('X', 120, y)]);
    expect(withoutStackedLetters(rows)).toHaveLength(rows.length);
  });
});

describe('a table whose header is set apart from its rows', () => {
  it('takes the titles staggered over the value columns above it as its header', () => {
    const items = [
      item('Price opinion of the subject property', 40, 260, '', 10),
      item('As-Is Price', 236, 197),
      item('As-Repaired', 306, 197),
      item('30-Day Quick', 451, 197),
      item('Land Only Price', 373, 191),
      item('Estimate', 239, 185),
      item('Price Estimate', 302, 185),
      item('Sale Price', 458, 185),
      item('90-Day Marketing Time', 100, 157.5, '', 9),
      item('$225,000', 236, 157.5, '', 9),
      item('$225,000', 309, 157.5, '', 9),
      item('$4,290', 388, 157.5, '', 9),
      item('$215,000', 456, 157.5, '', 9),
      item('Recommended List Price', 100, 141, '', 9),
      item('$240,000', 236, 141, '', 9),
      item('$240,000', 309, 141, '', 9),
    ];
    const [section] = analysePages([{ height: 792, items }]).filter((s) => s.tables.length > 0);
    expect(section?.tables[0]?.rows.slice(0, 2)).toEqual([
      [
        '',
        'As-Is Price Estimate',
        'As-Repaired Price Estimate',
        'Land Only Price',
        '30-Day Quick Sale Price',
      ],
      ['90-Day Marketing Time', '$225,000', '$225,000', '$4,290', '$215,000'],
    ]);
  });

  it("takes the year's titles over labelled rows of figures for its header", () => {
    // A tax table: "Land:", "Improvements:", "Total:" with the assessed value and the tax
    // beside them, the titles set apart above; the first title starts over the labels' ends.
    const items = [
      item('The assessed value and taxes for the year are shown below.', 72, 640, '', 13),
      item('Assessor code 12345', 238, 586, '', 12),
      item('2022 Assessed Value', 179, 558.5, '', 12),
      item('2022 Taxes', 357, 558.5, '', 12),
      item('Land:', 155, 531, '', 12),
      item('$1,606', 227, 531, '', 12),
      item('$292.18', 365, 531, '', 12),
      item('Improvements:', 115, 510, '', 12),
      item('-', 254, 510, '', 12),
      item('Total:', 158, 489.5, '', 12),
      item('$ 1,606', 226, 489.5, '', 12),
    ];
    const [section] = analysePages([{ height: 792, items }]).filter((s) => s.tables.length > 0);
    expect(section?.tables[0]?.rows).toEqual([
      ['', '2022 Assessed Value', '2022 Taxes'],
      ['Land:', '$1,606', '$292.18'],
      ['Improvements:', '-', ''],
      ['Total:', '$ 1,606', ''],
    ]);
  });

  it('takes titles wrapped over two aligned lines, some ending in a colon, for its header', () => {
    // The two lines of titles line up in columns of their own, so they read first as a table
    // of titles; the rows below are the figures they name.
    const items = [
      item('Value estimates of the house', 40, 260, '', 10),
      item('As-Is Value', 200, 197),
      item('Repaired Value', 280, 197),
      item('60 Day Fast Sale', 360, 197),
      item('Site Only Value:', 440, 197),
      item('Time on Market:', 520, 197),
      item('Estimate:', 280, 189),
      item('Value:', 360, 189),
      item('Expected Sale Value', 40, 170, '', 9),
      item('$91000', 205, 170, '', 9),
      item('$94000', 285, 170, '', 9),
      item('$85000', 365, 170, '', 9),
      item('$22000', 445, 170, '', 9),
      item('60+ Days', 525, 170, '', 9),
      item('Suggested Asking Value', 40, 160, '', 9),
      item('$95000', 205, 160, '', 9),
      item('$97000', 285, 160, '', 9),
      item('$89000', 365, 160, '', 9),
    ];
    const sections = analysePages([{ height: 792, items }]).filter((s) => s.tables.length > 0);
    expect(sections.flatMap((s) => s.tables)).toHaveLength(1);
    expect(sections[0]?.tables[0]?.rows.slice(0, 2)).toEqual([
      [
        '',
        'As-Is Value',
        'Repaired Value Estimate',
        '60 Day Fast Sale Value',
        'Site Only Value',
        'Time on Market',
      ],
      ['Expected Sale Value', '$91000', '$94000', '$85000', '$22000', '60+ Days'],
    ]);
  });

  it('does not take a wrapped line of text above a table for its header', () => {
    const items = [
      item('Copper, Pex', 236, 170),
      item('Water Supply', 128, 157.5, '', 9),
      item('Copper', 236, 157.5, '', 9),
      item('Good', 309, 157.5, '', 9),
      item('Drains', 128, 141, '', 9),
      item('PVC', 236, 141, '', 9),
      item('Fair', 309, 141, '', 9),
    ];
    const [section] = analysePages([{ height: 792, items }]).filter((s) => s.tables.length > 0);
    expect(section?.tables[0]?.rows[0]).toEqual(['Water Supply', 'Copper', 'Good']);
  });
});

/** A pdf.js text item turned a quarter left (it reads up the page), starting at (x, y). */
function upward(str: string, x: number, y: number, size = 7): RawTextItem {
  return {
    str,
    transform: [0, size, -size, 0, x, y],
    width: str.length * size * 0.5,
    height: size,
    fontName: 'M',
  };
}

/** Rows of a form's band, `count` of them from `top` down, 11 points apart. */
function band(name: string, top: number, count: number): RawTextItem[] {
  return Array.from({ length: count }, (_, k) =>
    item(`${name} row ${k + 1} value`, 40, top - k * 11, 'R'),
  );
}

/** A row of cells, each set at its column's x (empty cells leave their column blank). */
function cellsAt(
  y: number,
  row: string[],
  xs: readonly number[] = [40, 180, 320, 460],
): RawTextItem[] {
  return row.flatMap((c, k) => (c ? [item(c, xs[k] as number, y, 'R')] : []));
}

/** The markdown of every section, joined. */
function textOf(items: RawTextItem[]): string {
  return sectionsOf(items)
    .map((s) => s.markdown)
    .join('\n');
}

function sectionsOf(items: RawTextItem[]): { name: string | null; markdown: string }[] {
  return analysePages([{ height: 792, items }]).map((s) => ({
    name: s.name,
    markdown: s.markdown.replace(/\\/g, ''),
  }));
}

describe('appraisal forms', () => {
  it('takes the titles printed up the left margin for the headings of the bands beside them', () => {
    // Bands ruled apart (a wider parting between them), each title about the middle of its band.
    const items = [
      ...band('Subject', 700, 6),
      ...band('Contract', 630, 4),
      ...band('Site', 570, 6),
      upward('SUBJECT', 27, 660),
      upward('CONTRACT', 27, 600),
      upward('SITE', 27, 530),
    ];
    const sections = sectionsOf(items).filter((s) => s.markdown !== '');
    expect(sections.map((s) => s.name)).toEqual(['SUBJECT', 'CONTRACT', 'SITE']);
    const [subject, contract, site] = sections;
    expect(subject?.markdown).toContain('Subject row 6 value');
    expect(subject?.markdown).not.toContain('Contract');
    expect(contract?.markdown).toContain('Contract row 1 value');
    expect(contract?.markdown).toContain('Contract row 4 value');
    expect(contract?.markdown).not.toContain('Site');
    expect(site?.markdown).toContain('Site row 1 value');
  });

  it('leaves out a watermark set on a slant across the page', () => {
    const body = band('Body', 700, 8);
    // "Under Review" turned 60°, in 120-point type.
    const mark: RawTextItem = {
      str: 'Under Review',
      transform: [60, 103.9, -103.9, 60, 150, 220],
      width: 720,
      height: 120,
      fontName: 'W',
    };
    const sections = sectionsOf([...body, mark]);
    expect(sections.map((s) => s.name)).not.toContain('Under Review');
    expect(sections.map((s) => s.markdown).join(' ')).not.toContain('Review');
    expect(sections.map((s) => s.markdown).join(' ')).toContain('Body row 8 value');
  });

  it('reads a grid of label/value pairs side by side by its figures, a wrapped value with its label', () => {
    const items = [
      ...band('Intro', 720, 3),
      ...cellsAt(680, ['Physical Address', '123 Falling Tree Ct', 'Attachment Type', 'Detached']),
      ...cellsAt(669, ['', 'Treeville, VA 12345', 'Units Excluding ADUs', '1']),
      ...cellsAt(658, ['Finished Above Grade', '3,002 Sq. Ft.', 'Total Bedrooms', '5']),
      ...cellsAt(647, ['Finished Below Grade', '1,300 Sq. Ft.', 'Total Bathrooms', '3']),
      ...cellsAt(636, ['Company Address', '300 Maple Ave', 'Age', '61']),
      ...cellsAt(625, ['', 'Suite 3', '', '']),
      ...cellsAt(614, ['', 'Anytown, VA 12345', '', '']),
    ];
    const text = textOf(items);
    expect(text).toContain('Physical Address: 123 Falling Tree Ct Treeville, VA 12345');
    expect(text).toContain('Finished Above Grade: 3,002 Sq. Ft.');
    expect(text).toContain('Total Bedrooms: 5');
    expect(text).toContain('Company Address: 300 Maple Ave Suite 3 Anytown, VA 12345');
    expect(text).toContain('Age: 61');
    expect(text).not.toContain('| Finished Above Grade |');
  });

  it('reads a grid of pairs whose label is a phrase of a form, as long as eight words', () => {
    const xs = [40, 160, 280, 520];
    const items = [
      ...band('Intro', 720, 3),
      ...cellsAt(680, ['Township', '36N', 'Carrier Route', 'R004'], xs),
      ...cellsAt(669, ['Subdivision', 'Example Acres', 'Flood Zone Code', 'X'], xs),
      ...cellsAt(
        658,
        ['Census Tract', '1234.05', 'Within 250 Feet of a Flood Zone Line', 'No'],
        xs,
      ),
      ...cellsAt(647, ['Lot #', '3', 'Neighborhood Code', '150-150'], xs),
    ];
    const text = textOf(items);
    expect(text).toContain('Flood Zone Code: X');
    expect(text).toContain('Within 250 Feet of a Flood Zone Line: No');
    expect(text).toContain('Census Tract: 1234.05');
    expect(text).not.toContain('| Township |');
  });

  it('keeps a grid whose cells repeat (a comparables grid) as a table', () => {
    const items = [
      ...band('Intro', 720, 3),
      ...cellsAt(680, ['Condition', 'C4', 'C4', 'C3']),
      ...cellsAt(669, ['Quality', 'Q4', 'Q3', 'Q4']),
      ...cellsAt(658, ['Year Built', '2004', '2004', '2001']),
    ];
    const text = textOf(items);
    expect(text).not.toContain('Condition: C4');
    expect(text).toMatch(/\|\s*Condition\s*\|\s*C4\s*\|\s*C4\s*\|\s*C3\s*\|/);
  });

  it('takes a bold line a size above the body for a heading, not a badge repeated over items', () => {
    const body = (top: number, page: number): RawTextItem[] =>
      Array.from({ length: 5 }, (_, k) =>
        item(
          `The appraiser measured the dwelling and noted its finishes on page ${page}, line ${k}.`,
          40,
          top - k * 11,
          'R',
          9,
        ),
      );
    const page = (n: number, title: string): RawTextItem[] => [
      item(title, 40, 740, 'B', 10),
      ...body(720, n),
      item('Degraded', 40, 650, 'B', 10),
      ...body(635, n),
      item('Forestry and', 40, 560, 'B', 10),
      ...body(545, n),
    ];
    const sections = analysePages([
      { height: 792, items: page(1, 'Contact Information') },
      { height: 792, items: page(2, 'Market Commentary') },
    ]);
    const names = sections.map((s) => s.name);
    expect(names).toContain('Contact Information');
    expect(names).toContain('Market Commentary');
    expect(names).not.toContain('Degraded');
    expect(names).not.toContain('Forestry and');
  });

  it('joins a header whose titles wrap onto a second line, over the rows of figures', () => {
    const xs = [40, 140, 260, 380];
    const cells = (y: number, row: string[]): RawTextItem[] => cellsAt(y, row, xs);
    const items = [
      ...band('Intro', 720, 3),
      ...cells(680, ['Source', 'Proj. Annual', 'Occupancy Rate', 'High Season /']),
      ...cells(671, ['', 'Revenue', '', 'Low Season']),
      ...cells(658, ['AirDNA', '$76,200', '65%', 'March']),
      ...cells(647, ['Rabbu', '$31,799', '55%', 'March']),
    ];
    const text = textOf(items);
    expect(text).toMatch(
      /\|\s*Source\s*\|\s*Proj\. Annual Revenue\s*\|\s*Occupancy Rate\s*\|\s*High Season \/ Low Season\s*\|/,
    );
    expect(text).toMatch(/\|\s*AirDNA\s*\|\s*\$76,200\s*\|/);
  });
});
