import { describe, expect, it } from 'vitest';
import {
  fontHeadings,
  labelValuePairs,
  pageBodySizes,
  refineOutline,
  withBadges,
} from '../src/parse/pdf/headings.js';
import type { HeadingMark } from '../src/parse/pdf/headings.js';
import { buildLine } from '../src/parse/pdf/lines.js';
import type { Line } from '../src/parse/pdf/lines.js';

const line = (text: string, size: number, y: number, page = 1, font = 'body'): Line => ({
  page,
  y,
  x: 50,
  end: 50 + text.length * size * 0.5,
  size,
  text,
  segments: [],
  font,
});

const TERMS =
  'The Service Provider will perform the Services with the skill and care reasonably expected.';

/** A letter in 10 pt (its headings bold, at 10 pt) before pages of terms in 8 pt. */
function letterThenTerms(): Line[] {
  const lines: Line[] = [];
  let y = 760;
  const add = (text: string, size: number, page: number, font = 'body', gap = 1.3): void => {
    y -= gap * size;
    lines.push(line(text, size, y, page, font));
  };
  add('Dear client', 10, 1);
  add('ABOUT US', 10, 1, 'bold', 2.6);
  for (let k = 0; k < 4; k++)
    add('We hold memberships with the institute of building surveyors.', 10, 1);
  add('Fee proposal for the following services:', 10, 1);
  add('Investigation and report fixed fee of three thousand dollars', 10, 1);
  add('Deposit', 10, 1, 'bold', 2.6);
  for (let k = 0; k < 4; k++) add('A deposit of half the fee is required upon signing.', 10, 1);
  y = 760;
  for (const page of [2, 3]) {
    y = 760;
    add('1. SERVICE PROVIDER’S OBLIGATIONS', 8, page, 'bold');
    for (let k = 0; k < 30; k++) add(TERMS, 8, page);
    add('2. HEALTH AND SAFETY', 8, page, 'bold');
    for (let k = 0; k < 30; k++) add(TERMS, 8, page);
  }
  return lines;
}

describe('headings by font size', () => {
  it('count the label/value pairs of a line', () => {
    expect(labelValuePairs('Chapter 3: Roof')).toBe(1);
    expect(labelValuePairs('Property: 12 Elm Road Inspection Type: Pre-Purchase')).toBe(2);
    expect(labelValuePairs('Notes:')).toBe(0);
  });

  it('leave a grid of labels and values set in a large font as body text', () => {
    const lines = [
      line('Home Inspection Report', 18, 780),
      line('Property: 12 Elm Road Inspection Type: Pre-Purchase', 13, 750),
      line('Date: 3 March 2026', 13, 735),
      line('The house was inspected on a dry day.', 10, 700),
      line('Chapter 3: Roof', 13, 660),
      line('The slates are sound.', 10, 640),
    ];
    expect(fontHeadings(lines, 10).map((h) => [h.name, h.level])).toEqual([
      ['Home Inspection Report', 1],
      ['Chapter 3: Roof', 2],
    ]);
  });

  it('read a page set in larger type than the rest of the document as body, not headings', () => {
    const lines = letterThenTerms();
    expect(pageBodySizes(lines)).toEqual(
      new Map([
        [1, 10],
        [2, 8],
        [3, 8],
      ]),
    );
    const names = fontHeadings(lines, 8, new Set(), 'body').map((h) => h.name);
    expect(names).not.toContain('Fee proposal for the following services:');
    expect(names).not.toContain('Investigation and report fixed fee of three thousand dollars');
  });

  it('find headings set in the body size in another face when no heading is larger', () => {
    const names = fontHeadings(letterThenTerms(), 8, new Set(), 'body').map((h) => [
      h.name,
      h.page,
    ]);
    expect(names).toEqual([
      ['ABOUT US', 1],
      ['Deposit', 1],
      ['1. SERVICE PROVIDER’S OBLIGATIONS', 2],
      ['2. HEALTH AND SAFETY', 2],
      ['1. SERVICE PROVIDER’S OBLIGATIONS', 3],
      ['2. HEALTH AND SAFETY', 3],
    ]);
  });

  it('leave words in another face as body where the document marks headings by size', () => {
    const lines = [
      line('Electrical', 14, 760),
      line('DISTRIBUTION SYSTEM \\ Outlets', 10, 730, 1, 'bold'),
      line('Some outlets are loose in their boxes and should be secured.', 10, 717),
      line('The panel is labelled and its breakers are sized for their wires.', 10, 704),
    ];
    expect(fontHeadings(lines, 10, new Set(), 'body').map((h) => h.name)).toEqual(['Electrical']);
  });

  it('find titles in capitals centred over the body where the addenda have larger titles', () => {
    // Centred on a page 612 wide.
    const centred = (text: string, y: number, page: number, font = 'bold'): Line => {
      const width = text.length * 5;
      return { ...line(text, 10, y, page, font), x: 306 - width / 2, end: 306 + width / 2 };
    };
    const prose = 'The site is level and at street grade, with no distinguishing features.';
    const lines = [
      centred('SITE ANALYSIS', 700, 1),
      // A subheading of its own face under it, then body after a blank line.
      line('Description of Subject Site:', 10, 672, 1, 'bold'),
      line(prose, 10, 640, 1),
      // Bold capitals at the left margin, and centred capitals in the body's face: no titles.
      line('HAZARDOUS MATERIALS', 10, 610, 1, 'bold'),
      line(prose, 10, 597, 1),
      centred('NOTE TO READER', 580, 1, 'body'),
      line(prose, 10, 567, 1),
      // A title set over three lines is one.
      centred('CORRELATION ANALYSIS', 700, 2),
      centred('AND', 688, 2),
      centred('FINAL VALUE ESTIMATE', 676, 2),
      line(prose, 10, 640, 2),
      line(prose, 10, 627, 2),
      // The addenda's titles are larger.
      line('Subject Property Photos', 16, 700, 3),
      line(prose, 10, 670, 3),
    ];
    expect(
      fontHeadings(lines, 10, new Set(), 'body', [612, 612, 612]).map((h) => [h.name, h.level]),
    ).toEqual([
      ['SITE ANALYSIS', 2],
      ['CORRELATION ANALYSIS AND FINAL VALUE ESTIMATE', 2],
      ['Subject Property Photos', 1],
    ]);
  });

  it('find titles in a face of their own on pages set in a body of their own, a blank line over the text', () => {
    // A form in 7 pt under a larger title, then an addendum page in 12 pt whose titles are
    // bold capitals with a blank line between them and their text.
    const prose = 'Approximately 0-120 days on the market at the effective date of this appraisal.';
    const lines: Line[] = [
      line('Uniform Residential Appraisal Report', 14, 760, 1),
      ...Array.from({ length: 20 }, (_, k) =>
        line(`Room count ${k} Bedrooms Baths Gross Living Area`, 7, 740 - 9 * k, 1, 'form'),
      ),
    ];
    let y = 760;
    const add = (text: string, font: string, gap: number): void => {
      y -= gap * 12;
      const l = line(text, 12, y, 2, font);
      lines.push({ ...l, segments: [{ x: l.x, end: l.end, text, font }] });
    };
    add('EXPOSURE TIME', 'addbold', 0);
    for (let k = 0; k < 5; k++) add(prose, 'addbody', k === 0 ? 2.4 : 1.2);
    add('LEGAL NON CONFORMING STATEMENT', 'addbold', 2.4);
    for (let k = 0; k < 5; k++) add(prose, 'addbody', k === 0 ? 2.4 : 1.2);
    const names = fontHeadings(lines, 7, new Set(), 'form', [612, 612]).map((h) => h.name);
    expect(names).toEqual([
      'Uniform Residential Appraisal Report',
      'EXPOSURE TIME',
      'LEGAL NON CONFORMING STATEMENT',
    ]);
  });
});

describe('an outline refined by the headings of its type', () => {
  // Two pages of lines each, pages 1 to 12.
  const lines = Array.from({ length: 24 }, (_, i) =>
    line(`Line ${i}`, 10, 700, Math.floor(i / 2) + 1),
  );
  const mark = (at: number, span: number, name: string, level: number): HeadingMark => ({
    at,
    span,
    name,
    level,
    page: (lines[at] as Line).page,
  });
  const font = [mark(4, 1, 'SITE ANALYSIS', 3), mark(8, 1, 'TAXES', 3), mark(20, 1, 'Photos', 2)];

  it('puts the headings of a long entry named after a merged file beside it, at its level', () => {
    // "Combined Appraisal-1" is printed nowhere (span 0) and runs over pages 2 to 10.
    const outline = [
      mark(0, 1, 'Cover Page', 1),
      mark(2, 0, 'Combined Appraisal-1', 1),
      mark(20, 0, 'Addenda', 1),
    ];
    expect(refineOutline(lines, outline, font).map((m) => [m.name, m.level])).toEqual([
      ['Cover Page', 1],
      ['Combined Appraisal-1', 1],
      ['SITE ANALYSIS', 1],
      ['TAXES', 1],
      ['Addenda', 1],
    ]);
  });

  it('nests them under a long entry whose title is printed, and leaves short entries alone', () => {
    const outline = [mark(0, 1, 'Report', 1), mark(18, 1, 'Addenda', 1)];
    expect(refineOutline(lines, outline, font).map((m) => [m.name, m.level])).toEqual([
      ['Report', 1],
      ['SITE ANALYSIS', 2],
      ['TAXES', 2],
      ['Addenda', 1],
    ]);
  });
});

describe('lines', () => {
  it('keep a bullet set apart by a tab with its text', () => {
    const item = (str: string, x: number) => ({
      str,
      x,
      y: 700,
      width: str.length * 5,
      size: 10,
      font: 'f',
    });
    const bulleted = buildLine(1, [item('•', 72), item('No allowance for planning services', 99)]);
    expect(bulleted.segments.map((s) => s.text)).toEqual(['• No allowance for planning services']);
    const columns = buildLine(1, [item('Fixed', 72), item('$3,000.00', 140)]);
    expect(columns.segments.map((s) => s.text)).toEqual(['Fixed', '$3,000.00']);
  });
});

/** A state inspection form: items lettered under systems numbered in Roman, all in 10 pt. */
function inspectionForm(): Line[] {
  const lines: Line[] = [];
  let y = 760;
  const add = (text: string, size: number, page: number, font = 'body', gap = 1.4): void => {
    y -= gap * size;
    if (y < 60) y = 760;
    lines.push(line(text, size, y, page, font));
  };
  const finding = (page: number): void => {
    add('Comments:', 10, page, 'label');
    add('location:Back Yard', 10, page);
    for (let k = 0; k < 3; k++)
      add(
        'The surface was covered with an outdoor carpet, which prevented an inspection.',
        10,
        page,
      );
  };
  add('PROPERTY INSPECTION REPORT FORM', 14, 1, 'bold');
  add('Table of contents', 10, 1, 'bold');
  for (const entry of ['A. Site Context', 'B. Entry Structures', 'C. Cladding and Trim'])
    add(entry, 10, 1, 'bold');
  // Each page: a system in Roman numerals, then its items, each with a finding under it.
  const pages: [number, string, string[]][] = [
    [2, 'III. Property Assessment Details', ['✕ A. Site Context']],
    [
      2,
      'IV. Ground-Level Exterior Structures',
      ['B. Entry Structures', 'C. Cladding and Trim', '1) New furnace installed in 2021'],
    ],
    [
      3,
      'V. Interior Elements',
      ['C. Cabinetry and Countertops', 'I. Flooring Surfaces', 'J. Ceiling Surfaces'],
    ],
  ];
  for (const [page, system, items] of pages) {
    add(system, 10, page, 'bold', 3);
    for (const item of items) {
      add(item, 10, page, 'bold');
      finding(page);
    }
  }
  add('VI. Electrical Systems', 10, 3, 'bold', 3);
  return lines;
}

describe('headings numbered as an outline', () => {
  it('nest lettered items under Roman-numbered systems, in the body size and another face', () => {
    const marks = fontHeadings(inspectionForm(), 10, new Set(), 'body').map((h) => [
      h.name,
      h.level,
      h.page,
    ]);
    expect(marks).toEqual([
      ['PROPERTY INSPECTION REPORT FORM', 1, 1],
      ['III. Property Assessment Details', 2, 2],
      ['A. Site Context', 3, 2],
      ['IV. Ground-Level Exterior Structures', 2, 2],
      ['B. Entry Structures', 3, 2],
      ['C. Cladding and Trim', 3, 2],
      ['V. Interior Elements', 2, 3],
      ['C. Cabinetry and Countertops', 3, 3],
      ['I. Flooring Surfaces', 3, 3],
      ['J. Ceiling Surfaces', 3, 3],
      ['VI. Electrical Systems', 2, 3],
    ]);
  });

  it('take no numbered line set in the body face, and no run of fewer than three', () => {
    const lines = inspectionForm().map((l) => ({
      ...l,
      font: l.font === 'bold' ? 'body' : l.font,
    }));
    expect(fontHeadings(lines, 10, new Set(), 'body').map((h) => h.name)).toEqual([
      'PROPERTY INSPECTION REPORT FORM',
    ]);
    const few = inspectionForm().filter((l) => !/^(?:[IV]+|[C-J])\. /.test(l.text));
    expect(fontHeadings(few, 10, new Set(), 'body').map((h) => h.name)).toEqual([
      'PROPERTY INSPECTION REPORT FORM',
    ]);
  });
});

describe('a status at the right end of a heading line', () => {
  const headed = (title: string, badge: string): Line => ({
    ...line(`${title} ${badge}`, 13.5, 700, 1, 'bold'),
    segments: [
      { x: 45, end: 250, text: title },
      { x: 480, end: 560, text: badge },
    ],
  });
  const mark = (l: Line): HeadingMark => ({ at: 0, span: 1, name: l.text, level: 5, page: 1 });

  it('becomes the first line of the section, not part of its name', () => {
    const l = headed('4.5 Ground-Level Entry Structures', 'NOT INSPECTED');
    expect(withBadges([l], [mark(l)])).toEqual([
      { ...mark(l), name: '4.5 Ground-Level Entry Structures', badge: 'NOT INSPECTED' },
    ]);
  });

  it('stays in a title in capitals and after a label', () => {
    for (const l of [
      headed('GROUND-LEVEL EXTERIOR', 'STRUCTURES'),
      headed('Appraiser:', 'GEORGE LANCE'),
      headed('Roof Condition', 'Satisfactory'),
    ])
      expect(withBadges([l], [mark(l)])).toEqual([mark(l)]);
  });
});
