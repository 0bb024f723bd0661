import { describe, expect, it } from 'vitest';
import { analysePages } from '../src/parse/pdf.js';
import {
  isPageNumber,
  removeCheckColumnLegends,
  removeContentsEntries,
  removeOcrFurniture,
  removeRepeatedTitles,
  removeRuleLines,
  removeRunningLines,
} from '../src/parse/pdf/furniture.js';
import type { Line } from '../src/parse/pdf/lines.js';

function line(page: number, y: number, text: string): Line {
  return { page, y, x: 50, end: 500, size: 9, text, segments: [{ x: 50, end: 500, text }] };
}

/** A line laid out word by word, 6 points a letter and a gap of 12 between words. */
function wordLine(y: number, text: string): Line {
  let x = 60;
  const words = text.split(' ').map((w) => {
    const word = { x, end: x + 6 * w.length, text: w };
    x = word.end + 12;
    return word;
  });
  const end = words.at(-1)!.end;
  return { page: 1, y, x: 60, end, size: 8, text, segments: [{ x: 60, end, text }], words };
}

describe('page furniture', () => {
  it('knows a page number, also one a tool drew twice', () => {
    expect(isPageNumber('Page 3 of 17')).toBe(true);
    expect(isPageNumber('Page 1 of 17Page 1 of 17')).toBe(true);
    expect(isPageNumber('- 4 -')).toBe(true);
    expect(isPageNumber('Page 1 of 17 SUMMARY')).toBe(false);
    expect(isPageNumber('Built in 1969')).toBe(false);
    expect(isPageNumber('Page IV of VII')).toBe(true);
    expect(isPageNumber('Page IV')).toBe(false);
  });

  it("drops a report's long running header found on a third of its pages, appendices without it, and front matter numbered in roman numerals", () => {
    // 30 pages: the header runs over the 10 report pages (3 to 12), not over the cover, the
    // contents, 8 pages of photos or 10 of copies; the introduction is numbered "Page II of VII".
    const header = 'Northwest Montana Human Services, Inc. - 214 S Main St ____';
    const pages = Array.from({ length: 30 }, (_, i) => {
      const n = i + 1;
      return [
        ...(n >= 3 && n <= 12 ? [line(n, 800, header)] : []),
        ...(n >= 13 && n <= 20 ? [line(n, 800, 'Photographs of the Property')] : []),
        line(n, 400, `Body of page ${n}`),
        ...(n <= 7
          ? [
              line(
                n,
                40,
                `Introduction Page ${['I', 'II', 'III', 'IV', 'V', 'VI', 'VII'][n - 1]} of VII`,
              ),
            ]
          : []),
      ];
    });
    const kept = removeRunningLines(pages, Array(30).fill(842)).map((p) => p.map((l) => l.text));
    expect(kept.flat().filter((t) => t === header || t.startsWith('Introduction Page'))).toEqual(
      [],
    );
    // A section's title over its 8 pages of photos is no running header of the report.
    expect(kept[12]).toEqual(['Photographs of the Property', 'Body of page 13']);
    // Nor is a long title that starts every other page (one analysis per property).
    const alternate = Array.from({ length: 30 }, (_, i) => [
      ...(i % 3 === 0 ? [line(i + 1, 800, 'SWOT Analysis (Investor-Focused)')] : []),
      line(i + 1, 400, `Body of page ${i + 1}`),
    ]);
    expect(removeRunningLines(alternate, Array(30).fill(842))[0]!.map((l) => l.text)).toEqual([
      'SWOT Analysis (Investor-Focused)',
      'Body of page 1',
    ]);
    // Nor is a short line on a third of the pages.
    const short = Array.from({ length: 30 }, (_, i) => [
      ...(i < 10 ? [line(i + 1, 800, 'Site Analysis')] : []),
      line(i + 1, 400, `Body of page ${i + 1}`),
    ]);
    expect(removeRunningLines(short, Array(30).fill(842))[0]!.map((l) => l.text)).toEqual([
      'Site Analysis',
      'Body of page 1',
    ]);
  });

  it('drops a footer that runs along the bottom edge however its letters are spaced, on portrait and landscape pages', () => {
    // Portrait pages are 842 high, the last one landscape (595): the footer sits at another height.
    const heights = [842, 842, 842, 595];
    const footers = [
      'Job No.25011 1/1 Opua Street P a g e | 1',
      'Job No.25011 1/1 Opua Street Pa g e |2',
      'Job No.25011 1/1 Opua Street P a g e | 3',
      'Job No.25011 1/1 Opua Street P a g e | 4',
    ];
    const pages = heights.map((h, i) => [
      line(i + 1, h / 2, `Body text of page ${i + 1}`),
      line(i + 1, i === 3 ? 20 : 30, footers[i]!),
    ]);
    const kept = removeRunningLines(pages, heights);
    expect(kept.map((p) => p.map((l) => l.text))).toEqual(
      heights.map((_, i) => [`Body text of page ${i + 1}`]),
    );
  });

  it('drops the footer of a two-page document, and a page-numbered one found on two pages of six', () => {
    const two = [1, 2].map((n) => [
      line(n, 400, `Findings of page ${n}`),
      line(n, 40, 'The index is an underwriting support tool; decisions need further diligence.'),
    ]);
    expect(removeRunningLines(two, [842, 842]).map((p) => p.map((l) => l.text))).toEqual([
      ['Findings of page 1'],
      ['Findings of page 2'],
    ]);
    const six = [1, 2, 3, 4, 5, 6].map((n) => [
      line(n, 400, `Terms of page ${n}`),
      ...(n === 2 || n === 3 ? [line(n, 40, `Job No. 25009 4 Elliot St P a g e | ${n}`)] : []),
      ...(n === 4 || n === 5 ? [line(n, 40, 'Signed for the client')] : []),
    ]);
    expect(removeRunningLines(six, Array(6).fill(842)).map((p) => p.map((l) => l.text))).toEqual([
      ['Terms of page 1'],
      ['Terms of page 2'],
      ['Terms of page 3'],
      ['Terms of page 4', 'Signed for the client'],
      ['Terms of page 5', 'Signed for the client'],
      ['Terms of page 6'],
    ]);
  });

  it('drops a footer whose one cell differs on a page, and knows roman page numbers', () => {
    const heights = [842, 842, 842, 842];
    const cells = (page: number, last: string): Line => {
      const texts = ['ACME PROPERTIES', 'www.acme.example', last];
      const segments = texts.map((text, k) => ({ x: 30 + k * 200, end: 150 + k * 200, text }));
      return { page, y: 20, x: 30, end: 550, size: 7, text: texts.join(' '), segments };
    };
    const pages = heights.map((_, i) => [
      line(i + 1, 400, `Body text of page ${i + 1}`),
      cells(i + 1, i === 3 ? '19 July 2026 · Page 4 of 4' : `SHA-256: d1ce · Page ${i + 1} of 4`),
    ]);
    expect(removeRunningLines(pages, heights).map((p) => p.map((l) => l.text))).toEqual(
      heights.map((_, i) => [`Body text of page ${i + 1}`]),
    );
    expect(isPageNumber('iv')).toBe(true);
    expect(isPageNumber('C')).toBe(false);
  });

  it("drops a cell of a form's running footer printed alone under an addendum page", () => {
    // Four form pages whose footer has the form's version in a cell, then two addendum pages
    // that print the version alone at their foot. A bar of chapters heads every page, and the
    // last page's title, alone under it, is one of the bar's cells: it stays.
    const heights = Array(6).fill(842) as number[];
    const cells = (page: number, y: number, texts: string[]): Line => {
      const segments = texts.map((text, k) => ({ x: 30 + k * 200, end: 150 + k * 200, text }));
      return { page, y, x: 30, end: 550, size: 7, text: texts.join(' '), segments };
    };
    const pages = heights.map((_, i) => [
      cells(i + 1, 820, ['SUMMARY', 'ROOFING', 'ELECTRICAL']),
      ...(i === 5 ? [line(i + 1, 790, 'SUMMARY')] : []),
      line(i + 1, 400, `Body text of page ${i + 1}`),
      i < 4
        ? cells(i + 1, 20, [
            'Sample Form 70 March 2005',
            'Form Version 9/2011',
            `Page ${i + 1} of 4`,
          ])
        : line(i + 1, 30, 'Form Version 9/2011'),
    ]);
    expect(removeRunningLines(pages, heights).map((p) => p.map((l) => l.text))).toEqual(
      heights.map((_, i) => [...(i === 5 ? ['SUMMARY'] : []), `Body text of page ${i + 1}`]),
    );
  });

  it('drops a footer that names another form on each page, and keeps short captions that differ in a word', () => {
    const heights = Array(6).fill(842) as number[];
    const codes = ['1004', 'ADDENDUM', 'PHOTOS', 'LEGAL', 'MAP', 'DEFINITIONS'];
    const views = ['Front', 'Rear', 'Street', 'Left', 'Right', 'Kitchen'];
    const pages = heights.map((_, i) => [
      line(i + 1, 400, `Body text of page ${i + 1}`),
      line(i + 1, 40, `Subject ${views[i]!} of home`),
      line(i + 1, 20, `Form ${codes[i]!} - "SAMPLE" appraisal software by a sample vendor, inc.`),
    ]);
    expect(removeRunningLines(pages, heights).map((p) => p.map((l) => l.text))).toEqual(
      heights.map((_, i) => [`Body text of page ${i + 1}`, `Subject ${views[i]!} of home`]),
    );
  });

  it("drops an OCR'd page's header read a little differently on each page, and a footer that numbers its page", () => {
    const ocr = (page: number, texts: string[]): Line[] =>
      texts.map((text, k) => ({ ...line(page, 780 - 12 * k, text), fromOcr: true }));
    // A header with no page number, misread differently on each page (found by likeness), and
    // footers that end with their page's number.
    const pages = [
      ocr(1, [
        'Lakeview Surveys pre-purchase report, 12 Lakeview Tce',
        'Site visit notes for the lodge',
        'The roof was dry.',
        'Ref 7731, Page |1',
      ]),
      ocr(2, [
        'Lakeview Surveys pre-purchase rep0rt, 12 Lakevlew Tce',
        'The deck boards are sound.',
        'Ref 7731. Page|2',
      ]),
      ocr(3, [
        'Lakeview Survey5 pre-purchase report. 12 Lakeview Tce',
        'Gutters need clearing.',
        'Stair rails are loose.',
      ]),
      ocr(4, [
        'Certificate of cover',
        'Cover runs to the end of the year.',
        'Form 88 01 Page 1 of 1',
      ]),
    ];
    const kept = removeOcrFurniture(pages).map((p) => p.map((l) => l.text));
    expect(kept).toEqual([
      ['Site visit notes for the lodge', 'The roof was dry.'],
      ['The deck boards are sound.'],
      ['Gutters need clearing.', 'Stair rails are loose.'],
      ['Certificate of cover', 'Cover runs to the end of the year.'],
    ]);
  });

  it("ends an OCR'd page's last paragraph at the page break when its sentence ended, its footer gone", () => {
    const footer = (n: number): string => `Ref 7731, 12 Lakeview Tce, Harbourside Page |${n}`;
    const sections = analysePages([
      { items: [], height: 842, ocrMarkdown: `The roof was dry and sound.\n\n${footer(1)}` },
      {
        items: [],
        height: 842,
        ocrMarkdown: `Lakeview Surveys Ltd, for the owner\n\n${footer(2)}`,
      },
      { items: [], height: 842, ocrMarkdown: `Gutters need clearing.\n\n${footer(3)}` },
    ]);
    const text = sections.map((s) => s.markdown).join('\n\n');
    expect(text).not.toContain('Harbourside');
    expect(text.split(/\n{2,}/)).toEqual([
      'The roof was dry and sound.',
      'Lakeview Surveys Ltd, for the owner',
      'Gutters need clearing.',
    ]);
  });

  it("removes a browser's print stamps wherever OCR read them on a page, not a log's times", () => {
    const ocr = (page: number, texts: string[]): Line[] =>
      texts.map((text, k) => ({ ...line(page, 780 - 12 * k, text), fromOcr: true }));
    // A printed web page in columns: OCR reads the stamps among the columns' lines.
    const app = (n: number): string => `https://app.example.org/checklist/${n} ${n}/4`;
    const pages = [
      ocr(1, [
        'Site Checklist',
        'Walkways',
        '3/4/25, 9:05 AM',
        app(1),
        'Clear of debris.',
        'Fine.',
      ]),
      ocr(2, ['Fire Exits', 'about:blank', 'Signs lit.', '3/4/25, 9:05 AM', app(2), 'Fine.']),
      ocr(3, ['Visit Log', '3/4/25, 9:40 AM', 'Gate checked.', 'about:blank 3/4', app(3), 'Done.']),
      ocr(4, ['Sources', 'https://maps.example.org/site', 'about:blank', 'End of checklist.']),
    ];
    const kept = removeOcrFurniture(pages).map((p) => p.map((l) => l.text));
    expect(kept).toEqual([
      ['Site Checklist', 'Walkways', 'Clear of debris.', 'Fine.'],
      ['Fire Exits', 'Signs lit.', 'Fine.'],
      // A time of its own is the log's; an address printed once is the report's.
      ['Visit Log', '3/4/25, 9:40 AM', 'Gate checked.', 'Done.'],
      ['Sources', 'https://maps.example.org/site', 'End of checklist.'],
    ]);
  });

  it("keeps lines of OCR'd pages that only look alike, and lines read from the text layer", () => {
    const ocr = (page: number, texts: string[]): Line[] =>
      texts.map((text, k) => ({ ...line(page, 780 - 12 * k, text), fromOcr: true }));
    const pages = [
      ocr(1, ['Bedroom one: carpet worn', 'Walls sound.']),
      ocr(2, ['Bedroom two: carpet stained', 'Ceiling sound.']),
      ocr(5, ['Lakeside Council Rates Summary', 'Rates are paid.']),
      ocr(6, ['Lakeside Council Water Summary', 'Water is metered.']),
      ocr(7, ['Lakeside Council Waste Summary', 'Bins are collected weekly.']),
      [line(3, 40, 'Summary page 3'), line(3, 400, 'Body text')],
      [line(4, 40, 'See page 12'), line(4, 400, 'More body text')],
    ];
    expect(removeOcrFurniture(pages)).toEqual(pages);
  });

  it("drops the running header printed again on each section divider, and keeps a cover's title and a form's labels", () => {
    const header = 'ACME SURVEYS Drone Roof Report | AS-2026-0007';
    const divider = 'ACME SURVEYS | Drone Roof Report';
    const pages = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [
      line(n, 806, header),
      // The cover's title, once; three dividers; a form's labels at one height on other pages.
      ...(n === 1 ? [line(n, 600, 'Drone Roof Report'), line(n, 560, divider)] : []),
      ...(n === 2 || n === 5 || n === 7
        ? [line(n, 560, `${n}.0 Chapter ${n}`), line(n, 400, divider)]
        : [line(n, 400, 'Observation Priority Recommendation')]),
    ]);
    expect(removeRunningLines(pages, Array(8).fill(842)).map((p) => p.map((l) => l.text))).toEqual([
      ['Drone Roof Report', divider, 'Observation Priority Recommendation'],
      ['2.0 Chapter 2'],
      ['Observation Priority Recommendation'],
      ['Observation Priority Recommendation'],
      ['5.0 Chapter 5'],
      ['Observation Priority Recommendation'],
      ['7.0 Chapter 7'],
      ['Observation Priority Recommendation'],
    ]);
    // Printed on two pages only, or shorter than a name (under 20 letters): kept.
    const twice = pages.map((p) => p.filter((l) => l.page !== 7 || l.text !== divider));
    expect(removeRunningLines(twice, Array(8).fill(842))[1]!.map((l) => l.text)).toEqual([
      '2.0 Chapter 2',
      divider,
    ]);
    const short = pages.map((p) =>
      p.map((l) => (l.text === divider ? line(l.page, l.y, 'ACME | Roof Report') : l)),
    );
    expect(removeRunningLines(short, Array(8).fill(842))[1]!.map((l) => l.text)).toEqual([
      '2.0 Chapter 2',
      'ACME | Roof Report',
    ]);
  });

  it('keeps text that repeats in the body, away from the edges', () => {
    const heights = [842, 842, 842];
    const pages = heights.map((h, i) => [line(i + 1, 400, 'Condition: Serviceable')]);
    expect(removeRunningLines(pages, heights)).toEqual(pages);
  });

  it('drops the entries of a table of contents, and keeps its heading and a sentence with dots', () => {
    const lines = [
      line(5, 700, 'TABLE OF CONTENTS'),
      line(5, 680, 'LETTER OF TRANSMITTAL..........................................2'),
      line(5, 660, 'Zoning ........................................................ 36'),
      line(5, 640, '2. B2 – Durability…………………6'),
      line(5, 620, '5.1 External Envelope Survey'),
      line(5, 600, 'The slab was poured in 1985... and is level.'),
    ];
    expect(removeContentsEntries(lines).map((l) => l.text)).toEqual([
      'TABLE OF CONTENTS',
      '5.1 External Envelope Survey',
      'The slab was poured in 1985... and is level.',
    ]);
  });

  it('drops rules drawn as text, whole lines and cells of a line', () => {
    const signature: Line = {
      ...line(1, 300, 'Signature: ____________'),
      segments: [
        { x: 50, end: 110, text: 'Signature:' },
        { x: 200, end: 400, text: '____________' },
      ],
    };
    const kept = removeRuleLines([
      line(1, 800, '_______________________________'),
      line(1, 700, 'Photographs of the Property'),
      line(1, 500, '- - - - - - -'),
      signature,
      line(1, 200, 'Built in 1951 - renovated in 1994'),
    ]);
    expect(kept.map((l) => l.text)).toEqual([
      'Photographs of the Property',
      'Signature:',
      'Built in 1951 - renovated in 1994',
    ]);
  });

  it("says a section's title printed again at the top of each of its pages once, and keeps other top lines", () => {
    const pages = [
      [line(1, 800, 'Photographs of the Property'), line(1, 400, '1) Front of the building.')],
      [line(2, 800, 'Photographs of the Property'), line(2, 400, '3) Reception area.')],
      [line(3, 800, 'Photographs of the Property'), line(3, 400, '5) Break room.')],
      [line(4, 800, 'Improved Sales Data'), line(4, 400, 'Sale 1 is the older sale.')],
      // A heading that follows the page's own first line is not the page's title.
      [line(5, 800, 'PLUMBING'), line(5, 780, 'Description'), line(5, 400, 'Copper supply.')],
      [line(6, 800, 'INTERIOR'), line(6, 780, 'Description'), line(6, 400, 'Carpet floors.')],
      // A long line in capitals is read in linear time (a pattern of codes once backtracked
      // on it for minutes).
      [line(7, 800, 'THE HOMETEAM INSPECTION SERVICE GENERIC SAMPLE HOME INSPECTION REPORT 2024')],
      // A reading that happens to repeat is no title.
      [line(8, 800, 'Hotspot : 27.3 °C'), line(8, 400, 'Image one.')],
      [line(9, 800, 'Hotspot : 27.3 °C'), line(9, 400, 'Image two.')],
    ];
    const kept = removeRepeatedTitles(pages, Array(9).fill(842)).map((p) => p.map((l) => l.text));
    expect(kept).toEqual([
      ['Photographs of the Property', '1) Front of the building.'],
      ['3) Reception area.'],
      ['5) Break room.'],
      ['Improved Sales Data', 'Sale 1 is the older sale.'],
      ['PLUMBING', 'Description', 'Copper supply.'],
      ['INTERIOR', 'Description', 'Carpet floors.'],
      ['THE HOMETEAM INSPECTION SERVICE GENERIC SAMPLE HOME INSPECTION REPORT 2024'],
      ['Hotspot : 27.3 °C', 'Image one.'],
      ['Hotspot : 27.3 °C', 'Image two.'],
    ]);
  });

  it("drops a check form's column codes printed before every item, and keeps a grid's header and spaced letters", () => {
    const items = [
      'I NI D X NP Dishwasher Comment: The rinse arm was loose.',
      'I NI D X NP Range Hood',
      'I NI D X NP Garbage Disposal Comment: It hummed and did not turn.',
      'I NI D X NP Laundry Sink',
      'I NI D X NP AC Condenser Comment: The fins were bent.',
    ].map((t, i) => wordLine(700 - 20 * i, t));
    const header = wordLine(720, 'S R C NP NI NO');
    const spaced = wordLine(500, 'R O O M 0 1 O F 0 5');
    const alone = wordLine(480, 'I NI D Shed');
    const kept = removeCheckColumnLegends([header, ...items, spaced, alone]);
    expect(kept.map((l) => l.text)).toEqual([
      'S R C NP NI NO',
      'Dishwasher Comment: The rinse arm was loose.',
      'Range Hood',
      'Garbage Disposal Comment: It hummed and did not turn.',
      'Laundry Sink',
      // The codes of the legend go; a code that names the item stays.
      'AC Condenser Comment: The fins were bent.',
      'R O O M 0 1 O F 0 5',
      'Shed',
    ]);
    expect(kept[1]!.x).toBe(kept[1]!.words![0]!.x);
    expect(kept[1]!.segments[0]!.text).toBe('Dishwasher Comment: The rinse arm was loose.');
    // Fewer than five lines open with the codes: an item list's own words, left as they are.
    const few = items.slice(0, 4);
    expect(removeCheckColumnLegends(few).map((l) => l.text)).toEqual(few.map((l) => l.text));
  });
});
