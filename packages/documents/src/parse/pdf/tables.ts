import { fewWords, padRows } from '../text.js';
import { formFontsByPage, formRows } from './forms.js';
import type { Line, Segment } from './lines.js';

/**
 * A line of titles set apart over a row of as many figures ("Property  Health  Livability" over
 * "5.2  6.2  8.1" on a report's score tiles) titles their columns: it is no heading. Pure.
 */
export function titlesOverFigures(lines: readonly Line[], i: number): boolean {
  const line = lines[i] as Line;
  const next = lines[i + 1];
  return (
    line.segments.length >= 2 &&
    line.segments.every((s) => /\p{L}/u.test(s.text) && !/\d/.test(s.text)) &&
    next !== undefined &&
    next.page === line.page &&
    next.segments.length === line.segments.length &&
    next.segments.every((s) => /^[\d.,%/$+-]+$/.test(s.text.trim()))
  );
}

/** A run of lines laid out in aligned columns. */
export interface TableRun {
  start: number;
  end: number; // exclusive
  rows: string[][];
  page: number;
}

export const MAX_CELL_CHARS = 40;

/**
 * Tables: two or more consecutive body lines with at least two segments each, whose segments
 * fall into the columns set by the first line (left edges, right edges or column spans agree).
 * Prose in two columns looks the same, so runs whose cells are mostly long text are not tables.
 */
export function findTables(lines: Line[], isBody: (i: number) => boolean): TableRun[] {
  const runs: TableRun[] = [];
  let i = 0;
  while (i < lines.length) {
    let first = lines[i] as Line;
    if (!isBody(i) || first.segments.length < 2) {
      i++;
      continue;
    }
    // A header whose titles ran together ("Min Temp (C) Max Temp (C)") is split where the
    // first row's cells start.
    const second = lines[i + 1];
    if (second && isBody(i + 1) && second.segments.length > first.segments.length)
      first = splitLabelRow(first, second);
    const cols = first.segments;
    const tiles = titlesOverFigures(lines, i);
    const tol = first.size * 0.6;
    const columnOf = (s: Segment): number => {
      for (let c = 0; c < cols.length; c++) {
        const col = cols[c] as Segment;
        const nextStart = cols[c + 1]?.x ?? Number.POSITIVE_INFINITY;
        if (Math.abs(s.x - col.x) <= tol || Math.abs(s.end - col.end) <= tol) return c;
        if (s.x >= col.x - tol && s.x < nextStart - tol && s.end <= nextStart + tol) return c;
        // A row label set further out than the first row's, an indented one's parent
        // ("Zoning" under the indented "Location" rows): the first column still.
        if (c === 0 && s.x < col.x && s.end <= nextStart - tol) return 0;
        // A cell centred under its column's shorter title, wider on both sides ("SAFETY RISK"
        // under "Status").
        const middle = (s.x + s.end) / 2;
        const prevEnd = cols[c - 1]?.end ?? Number.NEGATIVE_INFINITY;
        const spans = s.x < col.x && s.end > col.end && s.x > prevEnd;
        if (spans && Math.abs(middle - (col.x + col.end) / 2) <= 2 * tol) return c;
      }
      return -1;
    };
    const rows: string[][] = [cols.map((s) => s.text)];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as Line;
      if (!isBody(j) || line.segments.length === 0) break;
      const prev = lines[j - 1] as Line;
      // Rows set far apart (cells padded) still belong when every cell starts in a column;
      // a row of labels ("Levels: | Estimated Age:") so far down heads a table of its own.
      const aligned =
        line.segments.length >= 3 &&
        line.segments.length === cols.length &&
        line.segments.every((seg, c) => columnOf(seg) === c && !seg.text.endsWith(':'));
      const gap = prev.y - line.y;
      if (line.page === prev.page && gap > (aligned ? 6 : 3) * line.size) break;
      // A cell's text wrapped onto the next line alone ("level of Hall of Flat No. 103" under
      // "Observed dampness at the skirting"): it goes on in its column, whatever its case.
      if (line.segments.length === 1) {
        const only = line.segments[0] as Segment;
        const c = columnOf(only);
        const above = rows[rows.length - 1] as string[];
        const near = line.page === prev.page && gap <= 1.6 * line.size;
        const cell = above[c] ?? '';
        // Only text long enough to wrap goes on so ("Paver/Tile" then "Patio Slab" are two
        // choices of a list), or a word cut at its hyphen ("Medium-" / "Risk").
        const wraps =
          cell.split(/\s+/).length >= 3 || /-$/.test(cell) || /^\p{Ll}/u.test(only.text);
        if (c <= 0 || !near || cell === '' || ENDS.test(cell) || !wraps) break;
        above[c] = `${above[c]} ${only.text}`;
        continue;
      }
      // Score tiles: each figure beside, not under, its title; the titles are the header.
      if (j === i + 1 && tiles) {
        rows.push(line.segments.map((s) => s.text));
        continue;
      }
      const row: string[] = cols.map(() => '');
      let last = -1;
      let ok = true;
      for (const s of line.segments) {
        const c = columnOf(s);
        if (c <= last) {
          ok = false;
          break;
        }
        row[c] = s.text;
        last = c;
      }
      if (!ok) break;
      const above = rows[rows.length - 1] as string[];
      // The first row goes on too ("Observed dampness at the skirting" / "level of …"), but
      // only in words: a row of figures under a header is a row.
      if (continues(above, row) && (rows.length > 1 || row.every((c) => !/^\d/.test(c)))) {
        row.forEach((cell, c) => {
          if (cell !== '') above[c] = `${above[c]} ${cell}`;
        });
        continue;
      }
      rows.push(row);
    }
    // A header's titles wrapped onto a second line, over two rows or more.
    if (rows.length >= 4 && headerGoesOn(rows[0] as string[], rows[1] as string[])) {
      const [head, wrapped] = rows.splice(0, 2) as [string[], string[]];
      rows.unshift(head.map((h, c) => (wrapped[c] ? `${h} ${wrapped[c]}` : h)));
    }
    const cells = rows.flat().filter((c) => c !== '');
    const long = cells.filter((c) => c.length > MAX_CELL_CHARS).length;
    // One row of three or more cells wrapped over several lines is a table too.
    const wrappedRow = rows.length === 1 && cols.length >= 3 && j - i >= 2;
    if ((rows.length >= 2 || wrappedRow) && long * 2 < cells.length) {
      // Titles wrapped over two lines read as a table of their own just above ("AS-IS Price
      // Estimate: | As-Repaired Price | …" over " | Estimate: | …"): they are this table's
      // header when every line of theirs titles a value column.
      const prev = runs.at(-1);
      const titlesAbove = prev !== undefined && prev.end <= i && titlesOnly(prev.rows);
      let above = titlesAbove ? headerAbove(lines, i, cols, rows, isBody, prev.start) : null;
      if (above && prev && above.start <= prev.start) runs.pop();
      else above = headerAbove(lines, i, cols, rows, isBody, prev?.end ?? 0);
      if (above) rows.unshift(above.row);
      const start = above?.start ?? i;
      runs.push({ start, end: j, rows: withoutOperators(padRows(rows)), page: first.page });
      i = j;
    } else {
      i++;
    }
  }
  return runs;
}

/** Lines a table's header may be set over, and how far apart (in sizes) they and the table are. */
const HEADER_LINES = 4;
const HEADER_LEADING = 2;
const HEADER_GAP = 4;

/**
 * A column's title, or a line of one: a few words, no punctuation of a sentence or list, a colon
 * only at its end ("Land Only Price:").
 */
function columnTitle(text: string): boolean {
  const words = text.replace(/:$/, '');
  return (
    fewWords(words, 32, 4) &&
    !/[.,;:]/.test(words.replace(/\.(?=\w)/g, '')) &&
    !/^\p{Ll}/u.test(words)
  );
}

/** Rows of column titles alone: each cell empty or a title with a word in it, no amount. Pure. */
function titlesOnly(rows: readonly string[][]): boolean {
  return rows.every((r) =>
    r.every((c) => c === '' || (columnTitle(c) && /\p{L}{3}/u.test(c) && !/[$€£%]/.test(c))),
  );
}

/**
 * The header of a table whose first row starts with its label ("90-Day Marketing Time | $225,000 |
 * $225,000 | $4,290 | $215,000"), printed over its value columns and set apart from its rows, each
 * title wrapped and staggered over lines of its own ("As-Is Price | As-Repaired | 30-Day Quick",
 * "Land Only Price", "Estimate | Price Estimate | Sale Price"): the lines just above whose every
 * segment is a title (a few words, no sentence) standing over one value column (by its middle,
 * between the columns' midpoints), none centred over the label column or starting left of it.
 * Each column's title is its words top to bottom. Null when no line above is such, or it titles
 * fewer than two value columns or half of them.
 */
function headerAbove(
  lines: readonly Line[],
  i: number,
  cols: readonly Segment[],
  rows: readonly string[][],
  isBody: (i: number) => boolean,
  floor: number,
): { start: number; row: string[] } | null {
  const labelCol = cols[0];
  // Rows of a label and its figures ("90-Day Marketing Time | $225,000 | …"): a row of titles
  // is a header itself, and labels ending in a colon pair with their values, unless every
  // value is a figure ("Land: | $1,606 | $292.18" under "2022 Assessed Value | 2022 Taxes").
  const figures = rows.every((r) => r.slice(1).every((c) => c === '' || NUMERIC.test(c)));
  if (
    !labelCol ||
    cols.length < 3 ||
    rows.some((r) => !/\p{L}{2}/u.test(r[0] ?? '') || (!figures && /:$/.test(r[0] ?? ''))) ||
    !(rows[0] ?? []).slice(1).some((c) => /\d/.test(c))
  )
    return null;
  const first = lines[i] as Line;
  const bound = (c: number, side: -1 | 1): number => {
    const col = cols[c] as Segment;
    const next = cols[c + side];
    if (!next) return side < 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    return side < 0 ? (next.end + col.x) / 2 : (col.end + next.x) / 2;
  };
  const titles: string[][] = cols.map(() => []);
  let start = i;
  for (let k = i - 1; k >= Math.max(floor, i - HEADER_LINES); k--) {
    const line = lines[k] as Line;
    const below = lines[k + 1] as Line;
    const leading = k === i - 1 ? HEADER_GAP : HEADER_LEADING;
    if (
      line.page !== first.page ||
      !isBody(k) ||
      line.y - below.y > leading * first.size ||
      line.size > first.size * 1.1
    )
      break;
    const placed = line.segments.map((seg) => {
      const middle = (seg.x + seg.end) / 2;
      if (middle <= labelCol.end || seg.x <= labelCol.x || !columnTitle(seg.text)) return -1;
      for (let c = 1; c < cols.length; c++)
        if (middle >= bound(c, -1) && middle < bound(c, 1)) return c;
      return -1;
    });
    if (placed.some((c) => c < 0)) break;
    placed.forEach((c, n) => (titles[c] as string[]).unshift(line.segments[n]!.text));
    start = k;
  }
  const titled = titles.filter((t) => t.length > 0).length;
  if (start === i || titled < 2 || titled * 2 < cols.length - 1) return null;
  return { start, row: titles.map((t) => t.join(' ').replace(/:$/, '')) };
}

/** A cell cut after a joining word or mark ("Roofing &", "Doors and"). */
const CUT_AFTER_JOIN = /(?:[&,/-]|\b(?:and|or|of))$/;

/** A cell whose sentence ended ("… of Flat No." has not: an abbreviation before a number). */
const ENDS = /(?<!\b(?:No|Nos|St|Dr|Fig|approx|vs))[.!?)]$/i;

/**
 * A row that only goes on with the text of the row above: nothing in its first column (or the
 * rest of a first cell cut after "&", ",", "/", "and", "or", "of"), and each of its cells under a
 * cell of that row whose sentence has not ended ("verify before relying on" under "Moderate:
 * Map/source screening estimate,"). Pure.
 */
export function continues(above: readonly string[], row: readonly string[]): boolean {
  if (row.every((c) => c === '')) return false;
  // "Roofing &" over "Attic": a first cell cut after a joining word goes on too.
  const firstJoins = CUT_AFTER_JOIN.test(above[0] ?? '');
  if (row[0] !== '' && !firstJoins) return false;
  return row.every((cell, c) => {
    if (cell === '') return true;
    const prev = above[c] ?? '';
    if (c === 0 && firstJoins) return true;
    return prev !== '' && !/[.!?)]$/.test(prev) && /^[\p{Ll}\d(]/u.test(cell);
  });
}

/**
 * A header's titles wrapped onto a second line ("Proj. Annual" over "Revenue", "High Season /"
 * over "Low Season"): nothing in the first column, two titles or more of a few words without
 * figures, each under a title that is no value. Pure.
 */
function headerGoesOn(header: readonly string[], row: readonly string[]): boolean {
  if (row[0] !== '' || row.filter((c) => c !== '').length < 2) return false;
  return row.every(
    (cell, c) =>
      cell === '' ||
      ((header[c] ?? '') !== '' &&
        TITLE_WORDS.test(cell) &&
        !/\d/.test(header[c] ?? '') &&
        !/^(?:yes|no|n\/a|none)$/i.test(header[c] ?? '') &&
        cell.split(/\s+/).length <= 3 &&
        !/[.!?:]$/.test(header[c] ?? '')),
  );
}

/** Words of a column's title: a capital first, letters and a few marks, no figures. */
const TITLE_WORDS = /^\p{Lu}[\p{L}'’.()/&-]*(?:\s+[\p{L}'’.()/&-]+)*$/u;

// ---------------------------------------------------------------------------------------------
// Grids: label/value grids and rating grids

/** What the grids need to know of the document's body text. */
export interface BodyStyle {
  size: number;
  /** The font of most body-size characters ('' when unknown). */
  font: string;
}

/** A run of lines that is a grid, with what it reads as. */
export interface GridRun {
  start: number;
  end: number; // exclusive
  page: number;
  /** Label/value grids: "Label: value" lines, in reading order. */
  pairs?: string[];
  /** Rating grids: the table (header row first) and one sentence per marked row. */
  table?: string[][];
  sentences?: string[];
}

function emphasised(s: Segment, line: Line, body: BodyStyle): boolean {
  const size = s.size ?? line.size;
  if (size >= body.size * 1.15) return true;
  return body.font !== '' && (s.font ?? '') !== '' && s.font !== body.font;
}

/**
 * A row of labels each ending in a colon ("Property Name: | Year Built:"), or some in a question
 * mark ("Current Use Allowed/Permitted: | Proposed Use Allowed?"), whatever its type.
 */
function colonLabels(line: Line): boolean {
  return (
    line.segments.some((s) => s.text.endsWith(':')) &&
    line.segments.every((s) => /\p{L}.*[:?]$/u.test(s.text))
  );
}

function sameRow(prev: Line, next: Line, factor: number): boolean {
  const gap = prev.y - next.y;
  return prev.page === next.page && gap > 0 && gap <= factor * Math.max(prev.size, next.size);
}

function cleanLabel(text: string): string {
  return text.replace(/\s*[:–—-]\s*$/, '').trim();
}

/** Whether a value starting at `x` sits under a label starting at `column` (flush or indented up to about an em). */
function valueUnder(column: number, x: number, size: number): boolean {
  return x >= column - 4 && x <= column + Math.max(4, size * 0.9);
}

/**
 * A label row whose labels ran together into one segment ("Attic Insulation: Insulation Type
 * Attic Insulation: R-value") split where the next line's values start a column: at the word
 * the value sits under. Lines whose words are unknown are left as they are. Pure.
 */
export function splitLabelRow(head: Line, next: Line): Line {
  const words = head.words;
  if (!words || words.length === 0) return head;
  const orphans = next.segments.filter(
    (v) => !head.segments.some((s) => valueUnder(s.x, v.x, head.size)),
  );
  if (orphans.length === 0) return head;
  const cuts = new Set<number>();
  for (const v of orphans) {
    const w = words.find((w) => valueUnder(w.x, v.x, head.size));
    if (w && !head.segments.some((s) => s.x === w.x)) cuts.add(w.x);
  }
  if (cuts.size === 0) return head;
  const segments: Segment[] = [];
  for (const s of head.segments) {
    const inside = words.filter((w) => w.x >= s.x - 0.5 && w.end <= s.end + 0.5);
    const starts = [s.x, ...[...cuts].filter((c) => c > s.x && c < s.end).sort((a, b) => a - b)];
    if (starts.length === 1 || inside.length === 0) {
      segments.push(s);
      continue;
    }
    starts.forEach((start, k) => {
      const end = starts[k + 1] ?? Infinity;
      const part = inside.filter((w) => w.x >= start - 0.5 && w.x < end - 0.5);
      if (part.length === 0) return;
      segments.push({
        ...s,
        x: part[0]!.x,
        end: part.at(-1)!.end,
        text: part.map((w) => w.text).join(' '),
      });
    });
  }
  return { ...head, segments };
}

/**
 * A label/value grid: rows of labels in bold or larger type, each label with its value on the
 * line(s) below in body type, aligned in columns ("Main panel capacity" over "200 AMP"). It
 * starts with a row of at least two labels whose next line holds values under them.
 */
function labelGrid(lines: Line[], i: number, body: BodyStyle): GridRun | null {
  const next = lines[i + 1];
  if (!next) return null;
  const head = splitLabelRow(lines[i] as Line, next);
  if (head.segments.length < 2 || !sameRow(head, next, 2.5)) return null;
  // Labels are told by their type (bold or larger), or by the colon each ends with.
  const byColon = colonLabels(head) && !next.segments.some((s) => s.text.endsWith(':'));
  const labelRow = (line: Line): boolean =>
    byColon ? colonLabels(line) : line.segments.every((s) => emphasised(s, line, body));
  const valueRow = (line: Line): boolean =>
    byColon
      ? !line.segments.some((s) => s.text.endsWith(':'))
      : !line.segments.some((s) => emphasised(s, line, body));
  if (!labelRow(head)) return null;
  const columns: number[] = head.segments.map((s) => s.x);
  const columnOf = (x: number): number => columns.findIndex((c) => valueUnder(c, x, head.size));
  if (!valueRow(next) || next.segments.some((s) => columnOf(s.x) < 0)) return null;
  const labels = new Map<number, string>();
  const values = new Map<number, string[]>();
  const pairs: string[] = [];
  const flush = (): void => {
    for (const [c, label] of [...labels].sort((a, b) => a[0] - b[0])) {
      const value = (values.get(c) ?? []).join(' ');
      pairs.push(value === '' ? label : `${label}: ${value}`);
    }
    labels.clear();
    values.clear();
  };
  const labelStyle = head.segments[0] as Segment;
  const likeLabel = (s: Segment, line: Line): boolean =>
    Math.abs((s.size ?? line.size) - (labelStyle.size ?? head.size)) < 0.5 &&
    (s.font ?? '') === (labelStyle.font ?? '');
  let valueLines = 0;
  let firstValueColumns = 0;
  let j = i;
  for (; j < lines.length; j++) {
    const line = j === i ? head : (lines[j] as Line);
    if (j > i && !sameRow(lines[j - 1] as Line, line, 3)) break;
    const cols = line.segments.map((s) => columnOf(s.x));
    if (cols.some((c) => c < 0)) break;
    if (labelRow(line)) {
      // A label row looks like the first one (a heading in larger type ends the grid).
      if (!line.segments.every((s) => likeLabel(s, line))) break;
      if (labels.size > 0 && valueLines === 0) break;
      flush();
      valueLines = 0;
      line.segments.forEach((s, k) => labels.set(cols[k] as number, cleanLabel(s.text)));
    } else if (valueRow(line)) {
      if (!cols.every((c) => labels.has(c))) break;
      if (line.segments.some((s) => s.text.length > 80)) break;
      // A value wraps onto a second line in some columns only; a second full row (or a third
      // line) under one row of labels makes a table with a header row, not a grid.
      if (valueLines >= 2 || (valueLines === 1 && cols.length >= firstValueColumns)) {
        if (pairs.length === 0) return null;
        break;
      }
      // A wrapped value follows at the body's line spacing; text further down is not part of it.
      if (valueLines === 1 && !sameRow(lines[j - 1] as Line, line, 1.6)) break;
      if (valueLines === 0) firstValueColumns = cols.length;
      valueLines++;
      line.segments.forEach((s, k) => {
        const c = cols[k] as number;
        values.set(c, [...(values.get(c) ?? []), s.text]);
      });
    } else break;
  }
  // A trailing label row without values below it is not part of the grid.
  if (labels.size > 0 && values.size === 0) {
    j--;
    labels.clear();
  }
  // One row of labels over one row of values, and more rows in its columns below (in another
  // type here and there): a table with a header row.
  const below = lines[j];
  if (
    pairs.length === 0 &&
    valueLines === 1 &&
    below &&
    below.segments.length >= 2 &&
    sameRow(lines[j - 1] as Line, below, 3) &&
    below.segments.every((s) => columnOf(s.x) >= 0)
  )
    return null;
  flush();
  if (pairs.length < 2) return null;
  return { start: i, end: j, page: head.page, pairs };
}

const CODE = /^(?:[A-Z]{1,3}|N\/A)$/;
/** A rating column named in words, as appraisals grade each component of a building. */
const RATING_WORD = /^(?:excellent|good|average|avg\.?|fair|poor)$/i;
const MARK = /^(?:[•●■▪◼□☐☑☒✓✔✗✘xX*+]|yes|no)$/i;

/**
 * The meaning a legend gives each code: "S = Serviceable", "NP: Not Present",
 * "RR Repair / Replace — Deficiency ...". Codes without a legend are absent.
 */
export function legendOf(lines: Line[], codes: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const text = lines.map((l) => l.segments.map((s) => s.text).join('   ')).join('\n');
  for (const code of codes) {
    const c = code.replace(/[/]/g, '\\/');
    const patterns = [
      // "S = Serviceable", "NP: Not present", "R - Repair or Replace"
      new RegExp(
        `(?:^|\\s)${c}(?:\\s*[=:]|\\s+[–—-])\\s*([A-Za-z][A-Za-z ,/&'-]{1,40}?)(?=\\s{2,}|\\s*[—–(;.]|\\s+[A-Z]{1,3}\\s*(?:=|:|–|—|-)\\s|$)`,
        'm',
      ),
      // "RR Repair / Replace — Deficiency requiring ..."
      new RegExp(`(?:^|\\s)${c}\\s+([A-Z][A-Za-z ,/&'-]{1,40}?)\\s+[—–]\\s`, 'm'),
    ];
    for (const p of patterns) {
      const m = p.exec(text);
      // "S= Serviceable, R= Review": the meaning ends before the comma.
      const meaning = m?.[1]?.replace(/[\s,/&-]+$/, '');
      if (meaning && !CODE.test(meaning)) {
        out.set(code, meaning);
        break;
      }
    }
  }
  return out;
}

/** "1.4 Window & Frames" -> "Window & Frames". */
function itemName(text: string): string {
  return text.replace(/^\d+(?:\.\d+)*\.?\s+/, '').trim();
}

/**
 * A rating grid: a header line of column codes ("S R C NP NI NO", optionally after a first
 * column title), then rows of items each with marks under some of the codes. Read by words, since
 * codes a few points apart fall into one segment.
 */
function ratingGrid(lines: Line[], i: number, legendLines: Line[]): GridRun | null {
  const head = lines[i] as Line;
  const words = head.words ?? [];
  const column = (t: string): boolean => CODE.test(t) || RATING_WORD.test(t);
  const firstCode = words.findIndex((w) => column(w.text));
  if (firstCode < 0) return null;
  const codes = words.slice(firstCode);
  if (codes.length < 2 || !codes.every((w) => column(w.text))) return null;
  // Columns that are ratings in words ("Good Avg. Fair Poor"), after an item and its description.
  const worded = codes.some((w) => RATING_WORD.test(w.text));
  const title = words
    .slice(0, firstCode)
    .map((w) => w.text)
    .join(' ');
  // A first row that is an item of its own ("3.0 SERVICE CONDUCTORS  IN OK") is no header.
  if (firstCode > 3 || /^\d/.test(title)) return null;
  const left = (codes[0] as { x: number }).x - head.size * 0.5;
  const centres = codes.map((w) => (w.x + w.end) / 2);
  const tol = Math.max(head.size, ...codes.map((w) => w.end - w.x));
  const rows: string[][] = [];
  const marked: { name: string; codes: string[] }[] = [];
  // The spacing of the rows read so far (null before the first).
  let step: number | null = null;
  let j = i + 1;
  for (; j < lines.length; j++) {
    const line = lines[j] as Line;
    const lw = line.words ?? [];
    const prev = lines[j - 1] as Line;
    // Rows set double-spaced (a blank line's height between two) still go on, when a mark stands
    // to the right of the item and the rows so far were spaced the same.
    const gap = prev.y - line.y;
    const regular = step === null || Math.abs(gap - step) <= 0.15 * step;
    const spread = regular && lw.some((w) => w.x > left) ? 3.2 : 2.2;
    if (!sameRow(prev, line, spread)) break;
    step = gap;
    // Words across the line between items and marks: prose, not a row.
    if (lw.some((w) => w.x <= left && w.end > left + 1)) break;
    const before = line.segments.filter((sg) => sg.end <= left + 1);
    const item =
      worded && before.length >= 2
        ? `${(before[0] as Segment).text}: ${before
            .slice(1)
            .map((sg) => sg.text)
            .join(' ')}`
        : lw
            .filter((w) => w.end <= left + 1)
            .map((w) => w.text)
            .join(' ');
    const marks = lw.filter((w) => w.x > left);
    if (item === '' || item.length > 80) break;
    const row = codes.map(() => '');
    let ok = true;
    for (const m of marks) {
      const centre = (m.x + m.end) / 2;
      let best = -1;
      let bestDistance = tol;
      centres.forEach((c, k) => {
        const d = Math.abs(c - centre);
        if (d <= bestDistance) {
          best = k;
          bestDistance = d;
        }
      });
      if (best < 0 || !(MARK.test(m.text) || CODE.test(m.text))) {
        ok = false;
        break;
      }
      row[best] = m.text;
    }
    if (!ok) break;
    rows.push([item, ...row]);
    // A grade in words is the column's, unless the cell says otherwise ("N/A" under "Avg.").
    const on = codes.flatMap((w, k) =>
      row[k] === '' ? [] : [worded && !MARK.test(row[k] as string) ? (row[k] as string) : w.text],
    );
    if (on.length > 0) marked.push({ name: itemName(item), codes: on });
  }
  if (marked.length === 0) return null;
  const legend = legendOf(
    legendLines,
    codes.map((w) => w.text),
  );
  const sentences = marked.map((m) => {
    const rating = m.codes.map((c) => legend.get(c) ?? c).join(', ');
    // "Roof: Flat built-up composition (Avg.)": the item, its description and the grade.
    return worded && m.name.includes(': ') ? `${m.name} (${rating})` : `${m.name}: ${rating}`;
  });
  return {
    start: i,
    end: j,
    page: head.page,
    table: [[title || 'Item', ...codes.map((w) => w.text)], ...rows],
    sentences,
  };
}

/** The meaning the document's legend gives a code, looked up once per code. */
type LegendLookup = (code: string) => string | undefined;

function legendLookup(lines: Line[]): LegendLookup {
  const cache = new Map<string, string | undefined>();
  return (code) => {
    if (!cache.has(code)) cache.set(code, legendOf(lines, [code]).get(code));
    return cache.get(code);
  };
}

/** A quantity: a number of three digits or more, with thousands separators or decimals. */
const QUANTITY = /^[$€£]?(?:\d{1,3}(?:,\d{3})+|\d+\.\d+|\d{3,})$/;

/** An item followed by codes the legend explains: "3.1 SERVICE GROUNDING  IN OK". */
function codedRow(line: Line, legend: LegendLookup): { item: string; codes: string[] } | null {
  const words = line.words ?? [];
  let k = words.length;
  while (k > 0 && CODE.test((words[k - 1] as { text: string }).text)) k--;
  const codes = words.slice(k).map((w) => w.text);
  const item = words
    .slice(0, k)
    .map((w) => w.text)
    .join(' ');
  if (codes.length === 0 || item === '' || item.length > 80 || !/\p{L}/u.test(item)) return null;
  // After a quantity a code is its unit ("Gross Building Area  72,720 SF"), not a rating.
  if (QUANTITY.test((words[k - 1] as { text: string }).text)) return null;
  if (!codes.every((c) => legend(c) !== undefined)) return null;
  return { item, codes };
}

/**
 * Rated rows without a header line: each row an item and, at its right end, the codes that rate
 * it, every code explained by the document's legend ("IN Inspected — ...", "RR Repair /
 * Replace — ..."). Two or more such rows in a row become a table (item, rating) and sentences;
 * one row alone, rated by two codes or more, a sentence.
 */
function codedRows(lines: Line[], i: number, legend: LegendLookup): GridRun | null {
  const rows: { item: string; codes: string[] }[] = [];
  let j = i;
  for (; j < lines.length; j++) {
    const line = lines[j] as Line;
    if (j > i && !sameRow(lines[j - 1] as Line, line, 6)) break;
    const row = codedRow(line, legend);
    if (!row) break;
    rows.push(row);
  }
  if (rows.length === 0) return null;
  const sentences = rows.map(
    (r) => `${itemName(r.item)}: ${r.codes.map((c) => legend(c) ?? c).join(', ')}`,
  );
  if (rows.length === 1) {
    // One row alone (the first of a page, its finding below it) when two codes or more rate it,
    // each once: "1.2 SKYLIGHTS … IN RR". A row of a table of districts repeats its marks ("P P").
    const { codes } = rows[0] as { codes: string[] };
    if (codes.length < 2 || new Set(codes).size < codes.length) return null;
    return { start: i, end: j, page: (lines[i] as Line).page, sentences };
  }
  return {
    start: i,
    end: j,
    page: (lines[i] as Line).page,
    table: [['Item', 'Rating'], ...rows.map((r) => [r.item, r.codes.join(' ')])],
    sentences,
  };
}

// ---------------------------------------------------------------------------------------------
// Small labels over their values, and figures over their labels (report apps, cover pages)

/** A label of at most so many characters and words: no digits, not ending a sentence. */
function shortLabel(text: string, maxChars: number, maxWords: number): boolean {
  return fewWords(text, maxChars, maxWords) && !/\d/.test(text) && !/[.:;!?,]$/.test(text);
}

/** A label as report apps print it: a few words, no digits, not ending a sentence. */
function labelLike(text: string): boolean {
  return shortLabel(text, 32, 4);
}

function allCaps(text: string): boolean {
  return text === text.toUpperCase() && /\p{Lu}/u.test(text);
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'to']);

/**
 * A label printed in capitals as a reader writes it: "DATE OF INSPECTION" -> "Date of
 * inspection"; short words that are not English small words keep their capitals ("REPORT ID").
 * Labels not in capitals are kept. Pure.
 */
export function labelCase(text: string): string {
  if (!allCaps(text)) return text;
  const words = text.split(' ').map((w) => {
    const lower = w.toLowerCase();
    return w.length <= 2 && !SMALL_WORDS.has(lower) ? w : lower;
  });
  const first = words.join(' ');
  return first.charAt(0).toUpperCase() + first.slice(1);
}

function styleOf(s: Segment, line: Line): string {
  return `${s.font ?? ''}@${Math.round((s.size ?? line.size) * 2) / 2}`;
}

/** One style for every segment of the line ('' when they differ). */
function lineStyle(line: Line): string {
  const styles = new Set(line.segments.map((s) => styleOf(s, line)));
  return styles.size === 1 ? ([...styles][0] as string) : '';
}

/** Whether segment `v` sits under (or over) `l`: flush left, centred on it, or inside its span. */
function aligned(l: Segment, v: Segment, size: number): boolean {
  const tol = Math.max(4, size * 0.9);
  if (Math.abs(v.x - l.x) <= tol) return true;
  if (Math.abs((v.x + v.end) / 2 - (l.x + l.end) / 2) <= tol) return true;
  return v.x >= l.x - tol && v.end <= l.end + tol;
}

/** Pairs each segment of `values` with the one segment of `labels` it sits under, or null. */
function columnPairs(labels: Line, values: Line): Map<number, string> | null {
  const out = new Map<number, string>();
  let last = -1;
  for (const v of values.segments) {
    const c = labels.segments.findIndex((l) => aligned(l, v, labels.size));
    if (c <= last) return null;
    out.set(c, v.text);
    last = c;
  }
  return out.size > 0 ? out : null;
}

/**
 * Labels in small type over their values in another type ("REPORT ID" over "SNF-CO-2026-27",
 * "ANNUAL RENT" over "AED 118,000"), row after row and in one or more columns, each label with
 * the value(s) under it; lines of a column beside may fall between the rows of another. Labels
 * are set apart by their type (smaller than their values, or in capitals over values that are
 * not) and are short and digit-free. Rows of values under one row of labels make a table with
 * a header row, not a grid; a value line that runs on into a paragraph is a heading's text.
 */
function stackedLabels(lines: Line[], i: number): GridRun | null {
  const head = lines[i] as Line;
  const style = lineStyle(head);
  if (head.fromOcr || style === '' || !head.segments.every((s) => labelLike(s.text))) return null;
  const labelSize = head.segments[0]?.size ?? head.size;
  type Label = { line: Line; segment: Segment; values: string[]; rows: Set<Line> };
  const labels: Label[] = [];
  let end = i;
  let lastValueLine = i - 1;
  for (let j = i; j < lines.length; j++) {
    const line = lines[j] as Line;
    if (j > i && !sameRow(lines[j - 1] as Line, line, 3)) break;
    if (lineStyle(line) === style) {
      if (!line.segments.every((s) => labelLike(s.text))) break;
      for (const segment of line.segments)
        labels.push({ line, segment, values: [], rows: new Set() });
      continue;
    }
    const styles = line.segments.map((s) => styleOf(s, line));
    if (styles.includes(style) || line.segments.some((s) => s.text.length > 80)) break;
    // Values a little larger than their labels; a line far larger is a heading.
    const bigger = line.segments.every(
      (s) => (s.size ?? line.size) >= labelSize + 0.5 && (s.size ?? line.size) <= labelSize * 1.6,
    );
    const sameOrSmaller = line.segments.every((s) => (s.size ?? line.size) >= labelSize - 0.25);
    const capitals =
      sameOrSmaller &&
      labels.every((l) => allCaps(l.segment.text)) &&
      !line.segments.every((s) => allCaps(s.text) && labelLike(s.text));
    if (!bigger && !capitals) break;
    // Each value under the nearest label above it, in that label's column.
    const owners = line.segments.map((v) => {
      let best: Label | undefined;
      for (const l of labels)
        if (
          l.line.y > line.y &&
          aligned(l.segment, v, l.line.size) &&
          (!best || l.line.y < best.line.y)
        )
          best = l;
      return best;
    });
    if (owners.some((o) => o === undefined)) break;
    // A value line that runs on into a paragraph is not a value.
    const after = lines[j + 1];
    if (
      after &&
      sameRow(line, after, 1.6) &&
      after.segments.some((s) => styles.includes(styleOf(s, after))) &&
      after.segments.some((s) => s.text.length >= 40)
    )
      break;
    // A second full row under the same labels: a table's rows.
    const full = owners.length >= 2;
    if (
      full &&
      owners.some(
        (o) =>
          (o as Label).rows.size > 0 && [...(o as Label).rows].some((r) => r.segments.length >= 2),
      )
    )
      return null;
    owners.forEach((o, k) => {
      (o as Label).values.push((line.segments[k] as Segment).text);
      (o as Label).rows.add(line);
    });
    lastValueLine = j;
    end = j + 1;
  }
  if (lastValueLine < i) return null;
  // Rows further down under the same labels, in the values' type: a table with a header row.
  const next = lines[end];
  const lastRow = lines[lastValueLine] as Line;
  if (
    next &&
    next.segments.length >= 2 &&
    sameRow(lastRow, next, 4) &&
    lineStyle(next) !== '' &&
    lineStyle(next) === lineStyle(lastRow) &&
    next.segments.every((v) => labels.some((l) => aligned(l.segment, v, l.line.size)))
  )
    return null;
  const pairs = labels
    .filter((l) => l.values.length > 0)
    .map((l) => `${labelCase(cleanLabel(l.segment.text))}: ${l.values.join(' ')}`);
  if (pairs.length === 0) return null;
  return { start: i, end, page: head.page, pairs };
}

/**
 * Figures over their labels, as on a cover page or a dashboard ("57 | Good | 2 yrs" in large
 * type over "ROOF CONDITION INDEX | VISUAL CONDITION | REMAINING ROOF LIFE"): two or more short
 * values, each centred over a label in capitals in much smaller type.
 */
function valueCards(lines: Line[], i: number): GridRun | null {
  const values = lines[i] as Line;
  const labels = lines[i + 1];
  if (!labels || values.fromOcr || values.segments.length < 2 || !sameRow(values, labels, 3))
    return null;
  if (labels.segments.length !== values.segments.length) return null;
  if (!labels.segments.every((s) => labelLike(s.text) && allCaps(s.text))) return null;
  if (!values.segments.every((s) => s.text.split(' ').length <= 3)) return null;
  if (!values.segments.every((s) => (s.size ?? values.size) >= labels.size * 1.5)) return null;
  const columns = columnPairs(labels, values);
  if (!columns || columns.size !== labels.segments.length) return null;
  const pairs = labels.segments.map((l, c) => `${labelCase(l.text)}: ${columns.get(c) ?? ''}`);
  return { start: i, end: i + 2, page: values.page, pairs };
}

/** A box's label on a form: a few words from a capital, no digits, no closing stop or colon. */
function boxLabel(text: string): boolean {
  return /^\p{Lu}/u.test(text) && shortLabel(text, 48, 6);
}

/**
 * A form's row of boxes, some left blank: labels in one style set apart from the body's (bold),
 * standing apart from the line above, over one line of values with figures in the same style,
 * fewer values than labels, each under its own label ("Min. Vehicle Stalls Required | Max.
 * Vehicle Stalls Allowed | Bike Stalls Required" over "14 with 1,000 sq.ft of GFA | 125% of the
 * min stalls required"). Each value goes with its label; a blank box says nothing. More rows of
 * values under the labels make a table.
 */
function boxesOverValues(lines: Line[], i: number, body: BodyStyle): GridRun | null {
  const head = lines[i] as Line;
  const values = lines[i + 1];
  if (!values || head.fromOcr || head.segments.length < 2) return null;
  // Boxes are labelled in a type of their own; a grid of names in the body's type is a table's.
  if (!head.segments.every((s) => emphasised(s, head, body))) return null;
  // A box stands apart from what is above it; a line right under another is a table's row.
  const above = lines[i - 1];
  if (above && sameRow(above, head, 1.8)) return null;
  if (values.segments.length >= head.segments.length || !sameRow(head, values, 3)) return null;
  const style = lineStyle(head);
  if (style === '' || lineStyle(values) !== style) return null;
  if (!head.segments.every((s) => boxLabel(s.text))) return null;
  if (!values.segments.every((s) => s.text.length <= 40 && /\d/.test(s.text))) return null;
  const columns = columnPairs(head, values);
  if (!columns) return null;
  // A row of values under them makes a table; a label of the form's next part ("Comments:")
  // does not.
  const after = lines[i + 2];
  if (
    after &&
    sameRow(values, after, 3) &&
    after.segments.every((v) => head.segments.some((l) => aligned(l, v, head.size))) &&
    !after.segments.some((v) => v.text.endsWith(':'))
  )
    return null;
  const pairs = [...columns].map(
    ([c, value]) => `${labelCase(cleanLabel((head.segments[c] as Segment).text))}: ${value}`,
  );
  return { start: i, end: i + 2, page: head.page, pairs };
}

/**
 * Form rows, label/value grids and rating grids, in line order; their lines are neither headings
 * nor tables.
 */
export function findGrids(lines: Line[], body: BodyStyle): GridRun[] {
  const runs: GridRun[] = [];
  const legend = legendLookup(lines);
  const forms = formFontsByPage(lines);
  for (let i = 0; i < lines.length; i++) {
    const run =
      formRows(lines, i, forms) ??
      ratingGrid(lines, i, lines) ??
      codedRows(lines, i, legend) ??
      labelGrid(lines, i, body) ??
      stackedLabels(lines, i) ??
      valueCards(lines, i) ??
      boxesOverValues(lines, i, body);
    if (run) {
      runs.push(run);
      i = run.end - 1;
    }
  }
  return runs;
}

/** The words a header row names a two-column table's columns by. */
const COLUMN_WORDS =
  /^(?:label|value|item|description|field|key|name|detail|attribute|parameter)s?$/i;

/** A cell of figures only ("12", "$1,200", "40 %"): a value, never a label. */
const NUMERIC = /^[\d.,%$€£ -]+$/;

/**
 * Two lines each wholly in one font, the fonts different, the first of words only ("Minimum Lot
 * Area | …" in bold over "15,000 sq. ft. | …"): the first set apart from the second, whatever
 * the document's body type (a report's pages before hundreds of pages of an ordinance in
 * another face and size).
 */
function inOtherType(rows: readonly Line[]): boolean {
  const [head, values] = rows;
  if (rows.length !== 2 || !head || !values) return false;
  // Titles are words: a row with a figure in it ("$368,000", "Rental # | 1 | 2") is a row.
  if (head.segments.some((s) => /\d/.test(s.text))) return false;
  const fontOf = (l: Line): string | null => {
    const fonts = new Set(l.segments.map((s) => s.font ?? ''));
    return fonts.size === 1 && !fonts.has('') ? [...fonts][0]! : null;
  };
  const a = fontOf(head);
  const b = fontOf(values);
  return a !== null && b !== null && a !== b;
}

/** Whether the first row alone is set apart by type or capitals: a header, not labels. */
function headerSetApart(emph: readonly boolean[], caps: readonly boolean[]): boolean {
  return (
    (emph[0] === true && !emph.slice(1).some(Boolean)) ||
    (caps[0] === true && !caps.slice(1).some(Boolean))
  );
}

/**
 * A two-column table without a header row of its own (no row set apart by type), each row a
 * label and its value ("Main Panel Capacity | 200 Amps"): read as "Label: value" lines.
 */
export function keyValueLines(lines: Line[], run: TableRun, body: BodyStyle): string[] | null {
  const rowLines = lines.slice(run.start, run.end);
  if (rowLines.some((l) => l.fromOcr)) return null;
  const emph = rowLines.map((l) => l.segments.every((s) => emphasised(s, l, body)));
  const caps = run.rows.map((r) =>
    r.every((c) => c !== '' && c === c.toUpperCase() && /\p{Lu}/u.test(c)),
  );
  // A header that only names the columns ("Label | Value", "Item | Description"): the rows
  // below are the pairs.
  const [head, ...below] = run.rows;
  if (
    head?.length === 2 &&
    head.every((c) => COLUMN_WORDS.test(c.trim())) &&
    below.length > 0 &&
    below.every((r) => r[0] !== '' && r[1] !== '' && !NUMERIC.test(r[0] as string))
  )
    return below.map((r) => `${cleanLabel(r[0] as string)}: ${r[1] as string}`);
  const [labels, values] = run.rows;
  // Labels over their values ("CLIENT | INSPECTOR" over "Sample Client | J. Doe"): one pair per
  // column; a label left blank ("Minimum Lot Depth" over nothing) says nothing.
  if (
    run.rows.length === 2 &&
    labels &&
    values &&
    ((emph[0] && !emph[1]) || (caps[0] && !caps[1]) || inOtherType(rowLines)) &&
    values.filter((v) => v !== '').length * 2 > values.length
  )
    return labels.flatMap((l, c) => (values[c] ? [`${cleanLabel(l)}: ${values[c]}`] : []));
  // A header of short titles, all different, over a single row with figures ("Appraisal Premise |
  // Date of Value | Value Conclusion" over "As Is | January 1, 2018 | $7,500,000"): one record, a
  // pair per column, so the sentence that introduces it ("… concluded as follows:") keeps its
  // answer beside it. A piece of a wider table ("Condition | Good | Good") repeats its cells.
  if (
    run.rows.length === 2 &&
    labels &&
    values &&
    labels.length >= 3 &&
    new Set(labels.map((l) => l.toLowerCase())).size === labels.length &&
    labels.every((l) => labelLike(l) && /^\p{Lu}/u.test(l)) &&
    values.some((v) => /\d/.test(v)) &&
    values.every((v) => v !== '')
  )
    return labels.map((l, c) => `${cleanLabel(l)}: ${values[c] as string}`);
  const width = run.rows[0]?.length ?? 0;
  if (width >= 4 && width % 2 === 0) return pairedColumns(run.rows, emph, caps);
  if (run.rows.some((r) => r.length !== 2 || r[0] === '' || r[1] === '')) return null;
  if (headerSetApart(emph, caps)) return null;
  if (run.rows.some((r) => NUMERIC.test(r[0] as string))) return null;
  return run.rows.map((r) => `${cleanLabel(r[0] as string)}: ${r[1] as string}`);
}

/**
 * A grid of label/value pairs side by side, without a header row ("Wildfire | Relatively Low |
 * Earthquake | Very High", "Client: | Sample Ltd. | Inspector: | Sample Inspector"): read as
 * "Label: value" lines, row by row. Told from a table by its labels ending in a colon, or by values the pairs
 * share (a rating scale) under labels that are all different.
 */
function pairedColumns(
  rows: readonly string[][],
  emph: readonly boolean[],
  caps: readonly boolean[],
): string[] | null {
  const width = rows[0]?.length ?? 0;
  if (rows.length < 2 || rows.some((r) => r.length !== width)) return null;
  if (headerSetApart(emph, caps)) return null;
  const labels: string[] = [];
  const valuesByPair: Set<string>[] = [];
  // A row of a label and one value set further right ("MVS Sec/Page | | | 15/17") under two
  // rows of pairs: a pair of its own.
  const single = rows.map(
    (r, k) => k >= 2 && r[0] !== '' && r[1] === '' && r.filter((c) => c !== '').length === 2,
  );
  for (const [k, r] of rows.entries()) {
    if (single[k]) continue;
    for (let c = 0; c < width; c += 2) {
      const label = r[c] as string;
      const value = r[c + 1] as string;
      // A value wrapped onto the next row under no label ("| | Treeville, VA 12345 |") goes on
      // with the pair above it.
      const above = rows[k - 1];
      if (label === '' && value !== '' && above && (above[c] !== '' || above[c + 1] !== ''))
        continue;
      if ((label === '') !== (value === '')) return null;
      if (label === '') continue;
      if (NUMERIC.test(label)) return null;
      labels.push(label);
      (valuesByPair[c / 2] ??= new Set()).add(value.toLowerCase());
    }
  }
  const colons = labels.every((l) => /:\s*$/.test(l));
  const [first, ...others] = valuesByPair;
  const shared =
    new Set(labels.map((l) => l.toLowerCase())).size === labels.length &&
    first !== undefined &&
    others.some((o) => [...o].some((v) => first.has(v)));
  if (!colons && !shared && !figuredPairs(rows.filter((_, k) => !single[k]))) return null;
  const out: string[] = [];
  rows.forEach((r, k) => {
    if (single[k])
      return out.push(`${cleanLabel(r[0] as string)}: ${r.slice(1).find((c) => c !== '')}`);
    for (let c = 0; c < width; c += 2) {
      if (r[c] === '') continue;
      let value = r[c + 1] as string;
      for (let n = k + 1; n < rows.length && !single[n]; n++) {
        const next = rows[n] as string[];
        if (next[c] !== '' || next[c + 1] === '') break;
        value += ` ${next[c + 1] as string}`;
      }
      out.push(`${cleanLabel(r[c] as string)}: ${value}`);
    }
  });
  return out;
}

/** A code, not a label: "Q4", "C3", "N/A", "AB" (a short word, "Age", is a label). */
const CODE_CELL = /^(?:\p{Lu}{1,3}\d*|\p{L}\d+|N\/A)$/u;

/**
 * Pairs told by their figures ("Finished Above Grade | 3,002 Sq. Ft. | Total Bedrooms | 5"): the
 * first row has a figure where a value stands, so it is no header of titles; most values have
 * figures; and each label is words, eight at most (a form's "Within 250 Feet of a Flood Zone
 * Line | No" is a pair too), found nowhere among the values (a comparables grid's "Condition |
 * C4 | C4 | C4" repeats its cells). Pure.
 */
function figuredPairs(rows: readonly string[][]): boolean {
  const values = rows.flatMap((r) => r.filter((c, i) => i % 2 === 1 && c !== ''));
  const labels = rows.flatMap((r) => r.filter((c, i) => i % 2 === 0 && c !== ''));
  const first = rows[0] ?? [];
  const seen = new Set(values.map((v) => v.toLowerCase()));
  return (
    first.some((c, i) => i % 2 === 1 && /\d/.test(c)) &&
    values.filter((v) => /\d/.test(v)).length * 2 >= values.length &&
    labels.every(
      (l) =>
        /\p{L}{2}/u.test(l) &&
        !CODE_CELL.test(l) &&
        !/^\d/.test(l) &&
        l.split(/\s+/).length <= 8 &&
        !seen.has(l.toLowerCase()),
    )
  );
}

/** A cell that is only an operator of a worked sum ("=", "+", "x"). */
const OPERATOR = /^[=+×x÷]$/;

/**
 * The operators of a worked sum set in cells of their own ("Total Cost: | = | $1,429,953",
 * "Total Estimated Value via Cost Approach: | = $1,754,088") are no cells: "= " before a figure or
 * after a label goes, and so does a column of operators with an "=" among them (a column of marks,
 * "x", has none); an "=" alone in a cell goes too, and two columns it leaves that never both hold
 * text in a row are one, so each row reads as its label and its figure. Pure.
 */
export function withoutOperators(rows: string[][]): string[][] {
  // A table without an "=" is no worked sum.
  if (!rows.some((r) => r.some((c) => /^=(\s|$)|\s=$/.test(c.trim())))) return rows;
  const width = rows[0]?.length ?? 0;
  const text = (c: string | undefined): string => (c ?? '').trim();
  let out = rows.map((r) => r.map((c) => c.replace(/^=\s+(?=[-$(\d])/, '').replace(/\s+=$/, '')));
  const equals = new Set<number>();
  for (let c = 0; c < width; c++) {
    const cells = out.map((r) => text(r[c])).filter((t) => t !== '');
    if (cells.some((t) => t === '=')) equals.add(c);
    if (cells.length > 0 && cells.some((t) => t === '=') && cells.every((t) => OPERATOR.test(t)))
      out = out.map((r) => r.map((cell, k) => (k === c ? '' : cell)));
  }
  out = out.map((r) => r.map((cell) => (text(cell) === '=' ? '' : cell)));
  // A bracket opened in one cell and closed in the next ("= (" | "-)", a deduction of nothing)
  // is one cell.
  out = out.map((r) =>
    r.map((cell, c) => {
      if (/\($/.test(text(cell)) && /^[^()]*\)$/.test(text(r[c + 1])))
        return `${text(cell)}${text(r[c + 1])}`;
      return c > 0 && /\($/.test(text(r[c - 1])) && /^[^()]*\)$/.test(text(cell)) ? '' : cell;
    }),
  );
  // Columns the operators left: two side by side, one of which held an "=", never both in use.
  for (let c = width - 2; c >= 0; c--) {
    if (!equals.has(c) && !equals.has(c + 1)) continue;
    if (out.some((r) => text(r[c]) !== '' && text(r[c + 1]) !== '')) continue;
    out = out.map((r) => [...r.slice(0, c), text(r[c]) || (r[c + 1] ?? ''), ...r.slice(c + 2)]);
  }
  const used = Array.from({ length: out[0]?.length ?? 0 }, (_, c) =>
    out.some((r) => text(r[c]) !== ''),
  );
  out = out.map((r) => r.filter((_, c) => used[c]));
  const same =
    out.length === rows.length && out.every((r, k) => r.join('\u0000') === rows[k]?.join('\u0000'));
  return same ? rows : out;
}
