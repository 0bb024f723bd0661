import { normalizeSpace } from '../text.js';
import { MARK_GLYPHS, WRAPPED_END, bodySizeOf, range, round } from './lines.js';
import type { Line, Segment } from './lines.js';
import type { PdfDocument } from './load.js';
import { titlesOverFigures } from './tables.js';

export interface HeadingMark {
  /** Index in the line list where the section starts. */
  at: number;
  /** Lines (from `at`) that make up the heading text and are not body. */
  span: number;
  name: string;
  level: number;
  page: number;
  /** A status printed at the right end of the heading's line ("NOT INSPECTED"): body text. */
  badge?: string;
}

export const MAX_HEADING_CHARS = 120;

/**
 * Font-size headings: a short line (< 120 characters, not ending with a period, with a letter)
 * at least 1.2 times the body size, and not in its own page's body size where that page is set
 * in larger type than the rest (a letter in 10 pt before terms and conditions in 8 pt: its
 * text is body, not a run of headings). Levels follow the distinct heading sizes, largest = 1.
 * Consecutive heading lines of one size close together are one (wrapped) heading.
 */
export function fontHeadings(
  lines: Line[],
  bodySize: number,
  exclude: ReadonlySet<number> = new Set(),
  bodyFont = '',
  widths: readonly number[] = [],
): HeadingMark[] {
  // Only a page whose body would be headings by the document's size has a body of its own.
  const pageBody = new Map(
    [...pageBodySizes(lines)].filter(([, size]) => size >= bodySize * 1.2 - 0.01),
  );
  const pageFont = pageBodyFonts(lines, bodySize);
  // A line a little larger than the body in a face of its own, all of it ("Contact Information"
  // in bold 10 pt over label rows in 9 pt), is set apart as much as a larger one.
  const pageSize = pageTypeSizes(lines);
  const boldTitle = (l: Line): boolean =>
    l.size >= Math.max(bodySize, pageSize.get(l.page) ?? 0) * BOLD_HEADING_RATIO - 0.01 &&
    l.text.split(' ').length <= STYLED_WORDS &&
    !WRAPPED_END.test(l.text) &&
    !VALUE_WORD.test(l.text) &&
    !!l.font &&
    l.font !== pageFont.get(l.page) &&
    l.segments.length === 1 &&
    l.segments.every((s) => (s.runs ?? []).every((r) => r.font === l.font)) &&
    HEADING_WORDS.test(l.text.replace(SECTION_NUMBER, ''));
  // A title repeated over and over ("Degraded", "No change" on a snag list's items) is a badge.
  const badges = new Map<string, number>();
  for (const l of lines)
    if (l.size < bodySize * 1.2 - 0.01 && boldTitle(l))
      badges.set(l.text.toLowerCase(), (badges.get(l.text.toLowerCase()) ?? 0) + 1);
  const setApart = (l: Line): boolean =>
    l.size >= bodySize * 1.2 - 0.01 ||
    (boldTitle(l) && (badges.get(l.text.toLowerCase()) ?? 0) < 2);
  const isHeading = (l: Line, i: number): boolean =>
    !exclude.has(i) &&
    !l.marginTitle &&
    setApart(l) &&
    round(l.size) !== pageBody.get(l.page) &&
    l.text.length < MAX_HEADING_CHARS &&
    !/\.$/.test(l.text) &&
    /\p{L}/u.test(l.text) &&
    !numeric(l.text) &&
    !inParagraph(lines, i) &&
    !titlesOverFigures(lines, i) &&
    !nameOverRole(lines, i);
  const marks: { at: number; span: number; size: number; page: number; name: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (!isHeading(line, i)) continue;
    const prev = marks[marks.length - 1];
    const prevLine = lines[i - 1];
    if (
      prev &&
      prev.at + prev.span === i &&
      prevLine &&
      prevLine.page === line.page &&
      round(prev.size) === round(line.size) &&
      prevLine.y - line.y < 2 * line.size &&
      (prev.name + ' ' + line.text).length < MAX_HEADING_CHARS * 2
    ) {
      prev.span++;
      prev.name = `${prev.name} ${line.text}`;
      continue;
    }
    marks.push({ at: i, span: 1, size: line.size, page: line.page, name: line.text });
  }
  // "Property: 12 Elm Road Inspection Type: Pre-Purchase Date: …" in a large font is a grid of
  // labels and values, not a heading: its lines stay body text, where they can be found.
  const listed = marks.filter((m) => labelValuePairs(m.name) < 2);
  const cover = coverTitle(lines, listed, exclude);
  const onCover = (m: { at: number; page: number }): boolean =>
    cover !== null && m.page === 1 && m.at !== cover.at;
  const headings = listed.filter((m) => !onCover(m));
  const sizes = [...new Set(headings.map((m) => round(m.size)))].sort((a, b) => b - a);
  const sized = headings.map((m) => ({
    at: m.at,
    span: m.span,
    name: m.name,
    page: m.page,
    level: Math.min(6, sizes.indexOf(round(m.size)) + 1),
  }));
  // A document that marks its headings by size sets other words in bold for emphasis (an
  // item's name above its finding); one that never does marks them by face alone, and so does
  // a page set in larger type, whose headings cannot be larger than the rest by much.
  const taken = new Set(sized.flatMap((m) => range(m.at, m.at + m.span)));
  // A heading of one line, a level below every heading set apart by size.
  const lineMark = (i: number): HeadingMark => {
    const line = lines[i] as Line;
    return {
      at: i,
      span: 1,
      name: line.text,
      page: line.page,
      level: Math.min(6, sizes.length + 1),
    };
  };
  const styledAt = styledHeadings(lines, bodySize, pageBody, bodyFont, exclude).filter(
    (i) => !taken.has(i) && (sized.length === 0 || pageBody.has((lines[i] as Line).page)),
  );
  // A title in a face of its own over a paragraph ("Zoning Information" in bold over what a
  // summary says of it) heads that paragraph in either kind of document.
  const styled = [
    ...styledAt,
    ...paragraphTitles(lines, exclude).filter((i) => !taken.has(i) && !styledAt.includes(i)),
  ].map(lineMark);
  // Titles in capitals centred over the body, in its size and a face of their own ("SITE
  // ANALYSIS" over each part of a report whose addenda have larger titles), are headings in
  // either kind of document.
  const found = new Set([...sized, ...styled].flatMap((m) => range(m.at, m.at + m.span)));
  const centred = centredTitles(lines, bodySize, pageBody, bodyFont, widths, exclude)
    .filter((m) => !range(m.at, m.at + m.span).some((k) => found.has(k)))
    .map((m) => ({ ...m, level: Math.min(6, sizes.length + 1) }));
  // A form's titles up its margin name the bands of rows beside them.
  const margin = lines.flatMap((line, i) =>
    line.marginTitle && !exclude.has(i) ? [lineMark(i)] : [],
  );
  // Items numbered in an outline ("IV. Ground-Level Exterior Structures", "B. Entry
  // Structures") in a face of their own are headings in either kind of document, each kind of
  // number a level of its own.
  const marked = new Set([...found, ...centred.flatMap((m) => range(m.at, m.at + m.span))]);
  const numbered = numberedHeadings(
    lines,
    exclude,
    (l) => pageFont.get(l.page) ?? bodyFont,
    (l) => pageSize.get(l.page) ?? bodySize,
  )
    .filter((m) => !marked.has(m.at))
    .map((m) => ({ ...m, level: Math.min(6, sizes.length + 1 + m.level) }));
  return [...sized, ...styled, ...centred, ...margin, ...numbered]
    .filter((m) => !onCover(m))
    .sort((a, b) => a.at - b.at);
}

/** A person's name: two or three words, each with a capital ("Sample Person", "A. Sample"). */
const PERSON_NAME = /^\p{Lu}[\p{Ll}.'-]*(?:\s+\p{Lu}[\p{Ll}.'-]*){1,2}$/u;
/** A role under a name, a few words ending in the role ("Listing Specialist", "Home Inspector"). */
const ROLE_LINE =
  /^(?:[\p{L}.&-]+\s+){0,3}(?:agent|specialist|inspector|realtor|broker|appraiser|engineer|surveyor|consultant|manager|director|owner|assessor|advis[eo]r)s?$/iu;

/**
 * A person's name set large right over their role in smaller type, a contact card's or a
 * signature's ("Sample Person" over "Listing Specialist"): a name to find, not a section's
 * title. Pure.
 */
function nameOverRole(lines: readonly Line[], i: number): boolean {
  const line = lines[i] as Line;
  const next = lines[i + 1];
  return (
    next !== undefined &&
    next.page === line.page &&
    next.size < line.size &&
    line.y - next.y < 2 * line.size &&
    PERSON_NAME.test(line.text) &&
    ROLE_LINE.test(next.text)
  );
}

/**
 * Titles over paragraphs: a short line wholly in one face with a word in it (not a code such
 * as a rating's "C2", not a label with a colon, not a bullet), space above it, and right under
 * it, at its left edge and in its size, two lines of prose in another face, each running across
 * the column. A summary's topics in bold over what it says of each ("Zoning Information",
 * "Parking Regulations") are such titles, two or more on a page; an item's name over a one-line
 * finding is not. Pure.
 */
export function paragraphTitles(lines: readonly Line[], exclude: ReadonlySet<number>): number[] {
  const out: number[] = [];
  lines.forEach((line, i) => {
    if (exclude.has(i) || !line.font || line.marginTitle || line.segments.length !== 1) return;
    if (line.segments.some((s) => s.font !== undefined && s.font !== line.font)) return;
    const text = line.text;
    if (!/\p{L}{3}/u.test(text) || !titleText(text, /[,;:.]$/)) return;
    const [a, b] = [lines[i + 1], lines[i + 2]];
    const prose = (n: Line | undefined): n is Line =>
      n !== undefined &&
      n.page === line.page &&
      n.segments.length === 1 &&
      n.font !== line.font &&
      Math.abs(n.size - line.size) < 0.5 &&
      Math.abs(n.x - line.x) < 2 &&
      n.text.length >= PROSE_CHARS;
    if (!prose(a) || !prose(b) || a.font !== b.font) return;
    if (line.y - a.y <= 0 || line.y - a.y > 2.2 * line.size) return;
    const prev = lines[i - 1];
    if (prev && prev.page === line.page && prev.y - line.y < 1.6 * line.size) return;
    out.push(i);
  });
  // A summary has topics: one title alone on its page ("Comments" over a comparable's remarks)
  // is a form's box, and the form's next rows are not under it.
  const perPage = new Map<number, number>();
  for (const i of out) {
    const page = (lines[i] as Line).page;
    perPage.set(page, (perPage.get(page) ?? 0) + 1);
  }
  return out.filter((i) => (perPage.get((lines[i] as Line).page) ?? 0) >= 2);
}

/** Characters a line of prose has at least (a cover has none outside its large lines). */
const PROSE_CHARS = 60;
/** Lines a cover has at most besides its large ones (a report number, a date, a telephone). */
const COVER_LINES = 8;

/**
 * A cover (a first page of large lines and little else: no prose, no grid, a few short lines
 * such as a report number and a date, before at least one more page) names the document once:
 * its largest line is the title, and the other large lines (the address, "PREPARED FOR:", the
 * firm and its web address) are what the cover says, not headings over the whole report; their
 * sizes do not rank the report's own headings either. The title's mark, or null when the first
 * page is no cover. Pure.
 */
export function coverTitle<T extends { at: number; span: number; size: number; page: number }>(
  lines: readonly Line[],
  marks: readonly T[],
  /** Lines of grids and forms: a page with them is no cover. */
  grids: ReadonlySet<number>,
): T | null {
  const onCover = marks.filter((m) => m.page === 1);
  if (onCover.length < 2 || !lines.some((l) => l.page > 1)) return null;
  const large = new Set(onCover.flatMap((m) => range(m.at, m.at + m.span)));
  const rest = range(0, lines.length).filter((i) => lines[i]?.page === 1 && !large.has(i));
  if (rest.length > COVER_LINES || rest.some((i) => grids.has(i))) return null;
  if (rest.some((i) => (lines[i] as Line).text.length >= PROSE_CHARS)) return null;
  return onCover.reduce((best, m) => (m.size > best.size + 0.01 ? m : best));
}

/** An outline number: a Roman numeral, a capital letter or a decimal number, then a stop. */
const OUTLINE_NUMBER = /^([IVXL]{1,6}|[A-Z]|\d{1,2}(?:\.\d{1,2})*)\.\s+(?=\p{Lu})/u;
/** Marks in a form's check columns, printed on a heading's line before it. */
const CHECK_MARKS = new RegExp(`^[${MARK_GLYPHS}xX\\s]+$`, 'u');
/** Headings of one kind of number a document needs before they count as its outline. */
const OUTLINE_RUN = 3;
/** Check marks run into a heading's line ("✕ A. Food Waste Disposer"). */
const LEADING_MARKS = new RegExp(`^(?:[${MARK_GLYPHS}]\\s*)+`, 'u');

/** The value of a Roman numeral, or 0 when it is not one. */
function romanValue(text: string): number {
  const digits: Record<string, number> = { I: 1, V: 5, X: 10, L: 50 };
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = digits[text[i] as string] ?? 0;
    const next = digits[text[i + 1] as string] ?? 0;
    total += value < next ? -value : value;
  }
  return total > 0 && toRoman(total) === text ? total : 0;
}

function toRoman(n: number): string {
  const parts: [number, string][] = [
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  for (const [value, text] of parts)
    while (n >= value) {
      out += text;
      n -= value;
    }
  return out;
}

/**
 * Headings numbered as an outline and set apart by face alone: a short line in the page's body
 * size (or larger) and a face that is not its body's, opening with a Roman numeral, a capital
 * letter or a decimal number and a full stop ("III. Property Assessment Details", "B.
 * Ground-Level Entry Structures", "4.2. Site Context"), a title after it (a capital first, no
 * closing stop or colon), check-column marks before it allowed. A kind of number counts when
 * three of its lines go up in order (by one to three) somewhere in the document; its level (0 =
 * top) is the order in which the kinds first appear. I, V, X and L are Roman when they follow
 * the last Roman numeral ("IV." then "V."), else letters when they come after the last letter
 * under it ("C." then "I."). Contents are not headings: three or more such lines one right
 * under another on a page, a line whose title comes again further on, and the rest of their
 * page. Pure.
 */
function numberedHeadings(
  lines: readonly Line[],
  exclude: ReadonlySet<number>,
  /** The face of the body text on a line's page. */
  faceOf: (line: Line) => string,
  /** The type size of most of a line's page. */
  sizeOf: (line: Line) => number,
): HeadingMark[] {
  type Candidate = { at: number; kind: string; value: number; name: string; page: number };
  const found: Candidate[] = [];
  let lastLetter = 0;
  let lastRoman = 0;
  lines.forEach((line, i) => {
    if (exclude.has(i) || line.marginTitle || !line.font || line.font === faceOf(line)) return;
    if (line.size < sizeOf(line) - 0.5) return;
    const segments =
      line.segments.length > 0 ? line.segments : [{ x: line.x, end: line.end, text: line.text }];
    const last = segments[segments.length - 1];
    if (!last || segments.slice(0, -1).some((s) => !CHECK_MARKS.test(s.text))) return;
    if ((last.runs ?? []).some((r) => r.font !== line.font)) return;
    const text = last.text.replace(LEADING_MARKS, '');
    const number = OUTLINE_NUMBER.exec(text);
    if (!number || text.length > MAX_HEADING_CHARS / 2 || /[.:;,]$/.test(text)) return;
    const title = text.slice(number[0].length);
    if (title.split(' ').length > STYLED_WORDS + 2 || numeric(title) || inParagraph(lines, i))
      return;
    const token = number[1] as string;
    const letterCode = token.length === 1 ? token.charCodeAt(0) - 64 : 0;
    const roman = romanValue(token);
    let kind: string;
    let value: number;
    if (/^\d/.test(token)) {
      kind = `n${token.split('.').length}`;
      value = Number(token.split('.').pop());
    } else if (letterCode > 0 && (!roman || (roman !== lastRoman + 1 && letterCode > lastLetter))) {
      kind = 'letter';
      value = letterCode;
    } else if (roman) {
      kind = 'roman';
      value = roman;
    } else return;
    if (kind === 'letter') lastLetter = value;
    if (kind === 'roman') [lastRoman, lastLetter] = [value, 0];
    found.push({ at: i, kind, value, name: text, page: line.page });
  });
  if (found.length === 0) return [];
  // Three or more one right under another on a page, with nothing between, are a table of
  // contents, and so is a line whose words come again further on, and so is the rest of their
  // page.
  const titleKey = (text: string): string => {
    const bare = text.replace(LEADING_MARKS, '');
    return matchKey(bare.slice(OUTLINE_NUMBER.exec(bare)?.[0].length ?? 0));
  };
  const lastAt = new Map<string, number>();
  lines.forEach((line, i) => lastAt.set(titleKey(line.text), i));
  const listed = new Set<number>();
  found.forEach((c, k) => {
    if ((lastAt.get(titleKey(c.name)) ?? c.at) > c.at) listed.add(k);
  });
  for (let k = 0; k < found.length;) {
    let end = k + 1;
    const next = (j: number): boolean => {
      const [a, b] = [found[j - 1] as Candidate, found[j] as Candidate];
      return b.at === a.at + 1 && b.page === a.page;
    };
    while (end < found.length && next(end)) end++;
    if (end - k >= OUTLINE_RUN) for (let j = k; j < end; j++) listed.add(j);
    k = end;
  }
  const contentsPages = new Set([...listed].map((k) => (found[k] as Candidate).page));
  const kept = found.filter((c, k) => !listed.has(k) && !contentsPages.has(c.page));
  // A kind counts when three of its numbers go up one after another.
  const counted = new Set<string>();
  const kinds = [...new Set(kept.map((c) => c.kind))];
  for (const kind of kinds) {
    const run = kept.filter((c) => c.kind === kind);
    let rising = 1;
    for (let k = 1; k < run.length; k++) {
      const step = (run[k] as Candidate).value - (run[k - 1] as Candidate).value;
      rising = step > 0 && step <= 3 ? rising + 1 : step > 0 ? rising : 1;
      if (rising >= OUTLINE_RUN) counted.add(kind);
    }
  }
  const order = kinds.filter((k) => counted.has(k));
  return kept
    .filter((c) => counted.has(c.kind))
    .map((c) => ({ at: c.at, span: 1, name: c.name, page: c.page, level: order.indexOf(c.kind) }));
}

/** How much larger than the body a line in a face of its own is to be a heading. */
const BOLD_HEADING_RATIO = 1.1;
/** A heading's number ("2.1 ", "Section 3 — "). */
const SECTION_NUMBER =
  /^(?:(?:section|part|chapter|appendix)\s+)?\d{1,2}(?:\.\d{1,2})*\.?\s*[—–:-]?\s*/i;
/** A value, not a title. */
const VALUE_WORD = /^(?:none|yes|no|n\/a|true|false)$/i;
/** A title's words: a capital first, no figures ("12/22 Tasks Completed" is a count). */
const HEADING_WORDS = /^\p{Lu}[^\d•]*$/u;

/** The size of most of each page's characters (`bodySizeOf` of its lines). Pure. */
function pageTypeSizes(lines: readonly Line[]): Map<number, number> {
  const byPage = new Map<number, Line[]>();
  for (const l of lines) {
    const page = byPage.get(l.page);
    if (page) page.push(l);
    else byPage.set(l.page, [l]);
  }
  return new Map([...byPage].map(([page, pageLines]) => [page, bodySizeOf(pageLines)]));
}

/** A run of text this long is prose (a form's labels are shorter). */
const PROSE_RUN = 40;

/**
 * The font of most body-size prose on each page (runs of 40 characters or more, else any text),
 * in the page's own size where `pageSizes` gives one. A document's pages may each load their
 * fonts afresh, so one face has another name on every page: a line's face is told from its
 * page's body. Pure.
 */
export function pageBodyFonts(
  lines: readonly Line[],
  bodySize: number,
  pageSizes: ReadonlyMap<number, number> = new Map(),
): Map<number, string> {
  const weights = new Map<number, Map<string, number>>();
  for (const l of lines) {
    if (round(l.size) !== round(pageSizes.get(l.page) ?? bodySize)) continue;
    const fonts = weights.get(l.page) ?? new Map<string, number>();
    for (const s of l.segments) {
      const font = s.font ?? l.font;
      if (!font) continue;
      const weight = s.text.length >= PROSE_RUN ? s.text.length * 100 : s.text.length;
      fonts.set(font, (fonts.get(font) ?? 0) + weight);
    }
    weights.set(l.page, fonts);
  }
  const out = new Map<number, string>();
  for (const [page, fonts] of weights) {
    const top = [...fonts].sort((a, b) => b[1] - a[1])[0];
    if (top) out.set(page, top[0]);
  }
  return out;
}

/** How far (share of the page's width) a centred title's middle may lie from the page's. */
const CENTRE_TOLERANCE = 0.04;

/**
 * Titles in capitals centred on the page: lines in the body's size (or larger) and a face that
 * is not the body's, wholly in capitals, short, their middle within 4 % of the page's width of
 * the page's middle, over text on the same page (a blank line between allowed). Lines of
 * one title set one under the other ("CORRELATION ANALYSIS" / "AND" / "FINAL VALUE ESTIMATE")
 * are one. Pure.
 */
export function centredTitles(
  lines: readonly Line[],
  bodySize: number,
  pageBody: ReadonlyMap<number, number>,
  bodyFont: string,
  widths: readonly number[],
  exclude: ReadonlySet<number>,
): Omit<HeadingMark, 'level'>[] {
  if (!bodyFont || widths.length === 0) return [];
  const titleLine = (line: Line, i: number): boolean => {
    const width = widths[line.page - 1];
    const size = pageBody.get(line.page) ?? bodySize;
    if (!width || exclude.has(i) || !line.font || line.font === bodyFont) return false;
    if (line.size < size - 0.01 || line.segments.length > 1) return false;
    const text = line.text;
    if (text.length > 60 || text.split(' ').length > STYLED_WORDS) return false;
    if (!/\p{Lu}/u.test(text) || /\p{Ll}/u.test(text) || numeric(text)) return false;
    return Math.abs((line.x + line.end) / 2 - width / 2) <= CENTRE_TOLERANCE * width;
  };
  const out: Omit<HeadingMark, 'level'>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (!titleLine(line, i)) continue;
    let span = 1;
    while (i + span < lines.length) {
      const prev = lines[i + span - 1] as Line;
      const next = lines[i + span] as Line;
      if (
        next.page !== line.page ||
        prev.y - next.y > 2.2 * line.size ||
        !titleLine(next, i + span)
      )
        break;
      span++;
    }
    const below = lines[i + span];
    const last = lines[i + span - 1] as Line;
    // Over text: body, or a subheading ("Description of Improvements:") over body.
    const body =
      below !== undefined &&
      below.page === line.page &&
      last.y - below.y > 0 &&
      last.y - below.y <= 4.5 * line.size &&
      (below.font === bodyFont ? below.text.length >= 20 : /\p{Ll}/u.test(below.text));
    if (body)
      out.push({
        at: i,
        span,
        page: line.page,
        name: lines
          .slice(i, i + span)
          .map((l) => l.text)
          .join(' '),
      });
    i += span - 1;
  }
  return out;
}

/** Words a heading set in the body's size and another face has at most. */
const STYLED_WORDS = 8;

/**
 * The text of a title set apart by its face: short (60 characters, `STYLED_WORDS` words), no
 * label with its value, no bullet, and not ending as `ends` says a line that goes on ends. Pure.
 */
function titleText(text: string, ends: RegExp): boolean {
  return (
    text.length <= 60 &&
    text.split(' ').length <= STYLED_WORDS &&
    !ends.test(text) &&
    labelValuePairs(text) === 0 &&
    !/^[-–•●▪◦■*]/u.test(text)
  );
}

/**
 * How far (in its size) a title set apart by its face may stand above its text: one blank line
 * between them ("EXPOSURE TIME", a blank line, then "Approximately 0-120 days" on an appraisal's
 * addendum) at single spacing.
 */
const TITLE_GAP = 2.6;

/**
 * Headings set in the body's size but another face (bold): a short line wholly in a font
 * that is not the body's, standing on its own (space above it, or in capitals: "2. HEALTH AND
 * SAFETY") with body text right below it or a blank line below. Word documents mark their
 * headings this way. Pure.
 */
export function styledHeadings(
  lines: readonly Line[],
  bodySize: number,
  pageBody: ReadonlyMap<number, number>,
  bodyFont: string,
  exclude: ReadonlySet<number>,
): number[] {
  if (!bodyFont) return [];
  // A page set in a body of its own (an appraisal's addenda in 12 pt after its form pages in
  // 8 pt) has a face of its own for that body too.
  const ownFont = pageBodyFonts(lines, bodySize, pageBody);
  const out: number[] = [];
  lines.forEach((line, i) => {
    const size = pageBody.get(line.page) ?? bodySize;
    const font = pageBody.has(line.page) ? (ownFont.get(line.page) ?? bodyFont) : bodyFont;
    if (exclude.has(i) || !line.font || line.font === font) return;
    if (round(line.size) !== round(size)) return;
    if (line.segments.some((s) => s.font !== undefined && s.font !== line.font)) return;
    const text = line.text;
    if (!/\p{L}/u.test(text) || !titleText(text, /[,;:]$/)) return;
    const next = lines[i + 1];
    if (
      !next ||
      next.page !== line.page ||
      next.font !== font ||
      line.y - next.y <= 0 ||
      line.y - next.y > TITLE_GAP * line.size ||
      next.text.length < 20 ||
      // A table's header row over its rows.
      (line.segments.length > 1 && next.segments.length > 1)
    )
      return;
    const prev = lines[i - 1];
    const spaced = !prev || prev.page !== line.page || prev.y - line.y >= 1.6 * line.size;
    const capitals = /\p{Lu}{2}/u.test(text) && !/\p{Ll}/u.test(text);
    if (spaced || capitals) out.push(i);
  });
  return out;
}

/**
 * A line mostly of figures ("ZIP 94063 - 37.48655, -122.22929 - 8/2/2026 - 46 factors",
 * "86 F 6 mph NW 29%") is data set large, not a heading: it stays text, where it is found. Pure.
 */
export function numeric(text: string): boolean {
  const digits = text.replace(/\D/g, '').length;
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  return digits >= 4 && digits >= 0.4 * (digits + letters);
}

/** Lines of prose of one size a page needs before that size counts as its body type. */
const PAGE_BODY_LINES = 8;

/**
 * Each page's body size, where the page has one of its own: the size of most of its
 * characters, set in at least 8 lines of prose (one run across the column, 40 characters or
 * more). A page of a few large lines (a cover) or of a grid of labels has none of its own; a
 * short page after one that has takes that page's where it has prose of that size. Pure.
 */
export function pageBodySizes(lines: readonly Line[]): Map<number, number> {
  const byPage = new Map<number, Map<number, { chars: number; lines: number }>>();
  const totals = new Map<number, number>();
  for (const l of lines) {
    const sizes = byPage.get(l.page) ?? new Map<number, { chars: number; lines: number }>();
    const at = sizes.get(round(l.size)) ?? { chars: 0, lines: 0 };
    at.chars += l.text.length;
    if (l.segments.length <= 1 && l.text.length >= 40) at.lines++;
    sizes.set(round(l.size), at);
    byPage.set(l.page, sizes);
    totals.set(l.page, (totals.get(l.page) ?? 0) + l.text.length);
  }
  const out = new Map<number, number>();
  // A short page (a signature page after a letter) goes on in the type of the page before.
  let before: number | undefined;
  for (const page of [...byPage.keys()].sort((a, b) => a - b)) {
    const [size, most] = [...byPage.get(page)!].sort((a, b) => b[1].chars - a[1].chars)[0]!;
    if (most.lines >= PAGE_BODY_LINES && most.chars * 2 >= (totals.get(page) ?? 0)) before = size;
    else if (most.lines >= PAGE_BODY_LINES) before = undefined;
    // It goes on only where it has prose of that size.
    if (before !== undefined && (byPage.get(page)!.get(before)?.lines ?? 0) > 0)
      out.set(page, before);
  }
  return out;
}

/** Words a line of prose has and a heading does not. */
const PROSE_WORDS = 16;

/**
 * A line of a paragraph set in larger type (a summary, a cover note): one run of text, long,
 * and with a line of its size right above or below it at the spacing of text, or simply too
 * many words for a heading. Pure.
 */
export function inParagraph(lines: readonly Line[], i: number): boolean {
  const line = lines[i] as Line;
  // Prose runs across the column; a line in columns is a row of labels, not a paragraph.
  if (line.segments.length > 1) return false;
  if (line.text.split(' ').length > PROSE_WORDS) return true;
  if (line.text.length < 60) return false;
  return [lines[i - 1], lines[i + 1]].some(
    (n) =>
      n !== undefined &&
      n.segments.length === 1 &&
      n.page === line.page &&
      round(n.size) === round(line.size) &&
      Math.abs(n.y - line.y) <= 1.8 * line.size &&
      n.text.length >= 30,
  );
}

/** `Label: value` pairs in a line: a colon after a word, followed by a value. Pure. */
export function labelValuePairs(text: string): number {
  return [...text.matchAll(/[\p{L}\p{N})\]]\s?:\s+[^\s:]/gu)].length;
}

export interface OutlineTarget {
  title: string;
  level: number;
  pageIndex: number;
  top: number | null;
}

export interface OutlineNode {
  title?: unknown;
  dest?: unknown;
  items?: unknown;
}

/**
 * Whether an outline title is a file name ("New Report Cover.pdf"): tools that merge PDFs name a
 * bookmark after each merged file; such a title says nothing about the content.
 */
export function isFileName(title: string): boolean {
  return /\.(pdf|docx?|xlsx?|pptx?|jpe?g|png|tiff?|html?|txt|rtf|odt)$/i.test(title.trim());
}

/** Flattens the outline (bookmarks) to entries that resolve to a page. */
export async function outlineTargets(doc: PdfDocument): Promise<OutlineTarget[]> {
  let outline: OutlineNode[] | null;
  try {
    outline = (await doc.getOutline()) as OutlineNode[] | null;
  } catch {
    return [];
  }
  if (!outline || outline.length === 0) return [];
  const out: OutlineTarget[] = [];
  const walk = async (nodes: OutlineNode[], depth: number): Promise<void> => {
    for (const node of nodes) {
      const title = normalizeSpace(typeof node.title === 'string' ? node.title : '');
      try {
        let dest = node.dest;
        if (typeof dest === 'string') dest = await doc.getDestination(dest);
        if (title && !isFileName(title) && Array.isArray(dest) && dest.length > 0) {
          const target: unknown = dest[0];
          let pageIndex: number | null = null;
          if (typeof target === 'number' && Number.isInteger(target)) pageIndex = target;
          else if (target && typeof target === 'object' && 'num' in target && 'gen' in target) {
            pageIndex = await doc.getPageIndex(target as { num: number; gen: number });
          }
          if (pageIndex !== null && pageIndex >= 0 && pageIndex < doc.numPages) {
            const mode = (dest[1] as { name?: string } | undefined)?.name;
            const topRaw =
              mode === 'XYZ'
                ? dest[3]
                : mode === 'FitH' || mode === 'FitBH'
                  ? dest[2]
                  : mode === 'FitR'
                    ? dest[5]
                    : null;
            out.push({
              title,
              level: Math.min(6, depth + 1),
              pageIndex,
              top: typeof topRaw === 'number' ? topRaw : null,
            });
          }
        }
      } catch {
        // An entry that does not resolve is skipped.
      }
      if (Array.isArray(node.items) && node.items.length > 0)
        await walk(node.items as OutlineNode[], depth + 1);
    }
  };
  await walk(outline, 0);
  return out;
}

export function matchKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Places outline entries in the line list: on the entry's page, at or below its destination
 * top, the line(s) whose text is the entry's title become the heading; if the title is not
 * found the section starts at the destination (or the top of the page).
 */
export function outlineHeadings(
  lines: Line[],
  targets: OutlineTarget[],
): { marks: HeadingMark[]; found: number } {
  const firstOfPage = new Map<number, number>();
  lines.forEach((l, i) => {
    if (!firstOfPage.has(l.page)) firstOfPage.set(l.page, i);
  });
  const used = new Set<number>();
  const marks: HeadingMark[] = [];
  let found = 0;
  for (const t of targets) {
    const page = t.pageIndex + 1;
    const want = matchKey(t.title);
    let at = -1;
    let span = 0;
    const start = firstOfPage.get(page);
    if (start !== undefined) {
      for (let i = start; i < lines.length && (lines[i] as Line).page === page; i++) {
        const line = lines[i] as Line;
        if (used.has(i) || (t.top !== null && line.y > t.top + line.size)) continue;
        let acc = '';
        for (let j = i; j < lines.length && j < i + 4 && (lines[j] as Line).page === page; j++) {
          acc += matchKey((lines[j] as Line).text);
          if (acc === want) {
            at = i;
            span = j - i + 1;
            break;
          }
          if (!want.startsWith(acc)) break;
        }
        if (at >= 0) break;
      }
      if (at >= 0) found++;
      if (at < 0) {
        // Not found: start at the destination's height on that page.
        at = start;
        while (
          at < lines.length &&
          (lines[at] as Line).page === page &&
          t.top !== null &&
          (lines[at] as Line).y > t.top + 1
        )
          at++;
      }
    } else {
      // A page without text: the section starts with the next page that has some.
      at = lines.findIndex((l) => l.page > page);
      if (at < 0) at = lines.length;
    }
    for (let k = at; k < at + span; k++) used.add(k);
    marks.push({ at, span, name: t.title, level: t.level, page });
  }
  const sorted = marks
    .map((m, i) => ({ m, i }))
    .sort((p, q) => p.m.at - q.m.at || p.i - q.i)
    .map(({ m }) => m);
  return { marks: sorted, found };
}

/**
 * Headings from the outline, when it is believable: some entry's title is printed where it
 * points, or the entries point at more than one page (an outline whose every entry points at
 * page 1 and whose titles appear nowhere is broken, and font sizes do better).
 */
export function outlineMarks(lines: Line[], targets: OutlineTarget[]): HeadingMark[] | null {
  if (targets.length === 0) return null;
  const { marks, found } = outlineHeadings(lines, targets);
  const pages = new Set(targets.map((t) => t.pageIndex));
  return found > 0 || pages.size > 1 || targets.length === 1 ? marks : null;
}

/** An outline entry this long (in pages) is read with the headings its type shows. */
export const LONG_OUTLINE_ENTRY_PAGES = 6;

/**
 * Refines a coarse outline by the font headings inside its long entries. Tools that merge PDFs
 * bookmark each merged file ("Combined Appraisal-6907 Entryway 2" over 47 pages of a report whose
 * own headings are only in its type): inside an entry of `LONG_OUTLINE_ENTRY_PAGES` pages or more,
 * each font heading starts a section too: below the entry when the entry's title is printed where
 * it points, and beside it, at its level, when it is not (a file's name is no heading a reader
 * sees, and no part of the path of the headings after it). Pure.
 */
export function refineOutline(
  lines: readonly Line[],
  outline: readonly HeadingMark[],
  font: readonly HeadingMark[],
): HeadingMark[] {
  const out: HeadingMark[] = [];
  outline.forEach((mark, i) => {
    out.push(mark);
    const end = outline[i + 1]?.at ?? lines.length;
    const last = lines[end - 1];
    if (!last || end <= mark.at || last.page - mark.page + 1 < LONG_OUTLINE_ENTRY_PAGES) return;
    const inside = font.filter((f) => f.at >= mark.at + mark.span && f.at < end);
    const top = Math.min(...inside.map((f) => f.level));
    for (const f of inside)
      out.push({
        ...f,
        level: mark.span > 0 ? Math.min(6, mark.level + 1 + f.level - top) : mark.level,
      });
  });
  return out;
}

/** A status set at the right end of a heading's line: a few words, all in capitals. */
const BADGE = /^\p{Lu}[\p{Lu}\s/-]{1,28}$/u;

/**
 * Headings with a status at the right end of their line ("4.5 Ground-Level Entry Structures
 * … NOT INSPECTED"): the title alone names the section and the status becomes its first line
 * of text, so the status is not repeated in the path of every chunk below. A title in capitals
 * of its own keeps its last cell (it may be a column of the title), and so does a label
 * ("Appraiser:") over its value. Pure.
 */
export function withBadges(lines: readonly Line[], marks: readonly HeadingMark[]): HeadingMark[] {
  return marks.map((m) => {
    const line = lines[m.at];
    if (m.span !== 1 || !line || line.segments.length < 2 || m.name !== line.text) return m;
    const last = line.segments[line.segments.length - 1] as Segment;
    const title = line.segments
      .slice(0, -1)
      .map((s) => s.text)
      .join(' ');
    if (
      !BADGE.test(last.text) ||
      last.text.split(/\s+/).length > 3 ||
      !/\p{Ll}/u.test(title) ||
      // "Appraiser: GEORGE LANCE PEREIRA" is a label and its value.
      /:$/.test(title)
    )
      return m;
    return { ...m, name: title, badge: last.text };
  });
}
