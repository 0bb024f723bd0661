import { markdownBlocks } from '../ocrText.js';
import { normalizeSpace } from '../text.js';

// Lines from text items

/** Glyphs a form prints as check marks ("✕ A. Food Waste Disposer", "I NI ☒ NP …"). */
export const MARK_GLYPHS = '✕✖✗✘✓✔☑☒■●•';
/** A line that goes on in the next ("Forestry and", "Dwelling,", "Setback from"), or leads in. */
export const WRAPPED_END =
  /(?:[,;:(&/-]|\b(?:and|or|of|to|the|a|an|from|with|for|in|on|by|than|that|will|is|are|as))$/i;

export interface Item {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  /** pdf.js's name for the font (one per font resource: a bold face has a name of its own). */
  font: string;
}

/** A word (text between spaces) with its horizontal extent. */
export interface Word {
  x: number;
  end: number;
  text: string;
}

export interface Segment {
  x: number;
  end: number;
  text: string;
  /** The font of most of the segment's characters ('' when unknown). */
  font?: string;
  /** Largest font size in the segment. */
  size?: number;
  /** Baseline of the segment's first item (reading coordinates). */
  y?: number;
  /** The segment's text as runs of one font each, left to right (a form's labels and values). */
  runs?: FontRun[];
}

/** Text in one font: a filled-in form prints its labels in one and its values in another. */
export interface FontRun {
  font: string;
  text: string;
}

export interface Line {
  page: number;
  /** Baseline, in reading coordinates (larger = higher on the page). */
  y: number;
  x: number;
  end: number;
  /** Dominant font size on the line (weighted by characters). */
  size: number;
  text: string;
  /** Runs of text separated by wide gaps (table cells, label/value pairs). */
  segments: Segment[];
  /** The font of most of the line's characters ('' when unknown). */
  font?: string;
  /** The line's words, left to right (rating grids align marks with column codes by them). */
  words?: Word[];
  /** Laid out from OCR markdown: its tables are marked up as such, so they are kept as tables. */
  fromOcr?: boolean;
  /** A title printed up the page's margin beside the rows it names: a heading, set before them. */
  marginTitle?: boolean;
}

export interface RawTextItem {
  str?: unknown;
  transform?: unknown;
  width?: unknown;
  height?: unknown;
  fontName?: unknown;
}

/**
 * A list bullet drawn from a symbol font (Symbol's bullet, Wingdings' squares and arrows) comes
 * out of the text layer as one character of Unicode's private use area (U+F0B7 for Symbol's
 * bullet): as its own item, it is read as the bullet it is. Pure.
 */
export function bulletGlyph(str: string): string {
  return /^\s*[\uf020-\uf0ff]\s*$/u.test(str) ? '•' : str;
}

/** How far (a share of a right angle, 0.1 = 9°) text may lean from upright or a quarter turn. */
const SLANT = 0.1;

/**
 * Text items in "reading coordinates": rotated pages are turned upright by their dominant text
 * direction. Text on a slant is left out: a watermark, not what the page says.
 */
export function readingItems(raw: readonly RawTextItem[]): {
  upright: Item[];
  other: OrientedItem[];
  dominant: number;
} {
  const items: OrientedItem[] = [];
  for (const r of raw) {
    if (typeof r.str !== 'string' || r.str.trim() === '' || !Array.isArray(r.transform)) continue;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = r.transform as number[];
    const size =
      Math.hypot(c, d) || (typeof r.height === 'number' ? r.height : 0) || Math.hypot(a, b) || 1;
    // 0: left-to-right upright, 1: rotated 90° (text runs upward), 2: upside down, 3: rotated 270°.
    const angle = Math.atan2(b, a);
    const quarter = angle / (Math.PI / 2);
    // Text set on a slant ("Under Review", "DRAFT", "SAMPLE" across the page) is a watermark.
    if (Math.abs(quarter - Math.round(quarter)) > SLANT) continue;
    const orientation = ((Math.round(quarter) % 4) + 4) % 4;
    const width = typeof r.width === 'number' ? r.width : 0;
    let x = e;
    let y = f;
    if (orientation === 1) [x, y] = [f, -e];
    else if (orientation === 2) [x, y] = [-e, -f];
    else if (orientation === 3) [x, y] = [-f, e];
    const font = typeof r.fontName === 'string' ? r.fontName : '';
    items.push({ str: bulletGlyph(r.str), x, y, width, size, font, orientation });
  }
  const counts = [0, 0, 0, 0];
  for (const it of items) counts[it.orientation] = (counts[it.orientation] ?? 0) + it.str.length;
  const dominant = counts.indexOf(Math.max(...counts));
  return {
    upright: items.filter((i) => i.orientation === dominant),
    other: items.filter((i) => i.orientation !== dominant),
    dominant,
  };
}

/** An item with its direction: 0 upright, 1 turned a quarter left (reads upward), 2, 3. */
export type OrientedItem = Item & { orientation: number };

export function dominantSize(items: Item[]): number {
  const weights = new Map<number, number>();
  for (const it of items) {
    const key = Math.round(it.size * 2) / 2;
    weights.set(key, (weights.get(key) ?? 0) + it.str.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight || (weight === bestWeight && size < best)) {
      best = size;
      bestWeight = weight;
    }
  }
  return best;
}

/** A gap this many font sizes wide separates segments (table columns) rather than words. */
export const SEGMENT_GAP = 1.5;
/** A gap this many font sizes wide is a space between words. */
export const SPACE_GAP = 0.15;
/** A gap this many font sizes wide parts two runs of one font (a form's fields). */
const RUN_GAP = 0.8;

const BULLET_ONLY = /^\s*[•●▪◦■►▸➢-]\s*$/u;
const CURRENCY_ONLY = /^\s*[$€£]\s*$/;

export function buildLine(page: number, items: Item[]): Line {
  items.sort((p, q) => p.x - q.x);
  const size = dominantSize(items);
  const segments: Segment[] = [];
  const segFonts: Map<string, number>[] = [];
  const segRuns: FontRun[][] = [];
  const lineFonts = new Map<string, number>();
  const words: Word[] = [];
  let seg: Segment | null = null;
  let prevEnd = Number.NEGATIVE_INFINITY;
  for (const it of items) {
    const text = it.str.replace(/\s+/g, ' ');
    lineFonts.set(it.font, (lineFonts.get(it.font) ?? 0) + text.length);
    addWords(words, it, text, it.x - prevEnd > SPACE_GAP * it.size);
    prevEnd = Math.max(prevEnd, it.x + it.width);
    // A bullet set apart from its text by a tab ("•    No allowance for …") starts the text,
    // not a column of its own.
    const bulletOnly = segments.length === 1 && seg !== null && BULLET_ONLY.test(seg.text);
    // So does a currency sign set apart from its amount, as accounts print them ("$    389,076.27").
    const signOnly = seg !== null && CURRENCY_ONLY.test(seg.text) && /^\s*[\d(]/.test(text);
    // and a sign after an amount starts the next amount's cell ("$ 7,341.58  $ 7,341.58").
    const signAfterAmount = seg !== null && CURRENCY_ONLY.test(text) && /\d$/.test(seg.text);
    if (
      seg === null ||
      signAfterAmount ||
      (!bulletOnly && !signOnly && it.x - seg.end > SEGMENT_GAP * Math.max(size, it.size))
    ) {
      seg = { x: it.x, end: it.x + it.width, text, size: it.size, y: it.y };
      segments.push(seg);
      segFonts.push(new Map([[it.font, text.length]]));
      segRuns.push([{ font: it.font, text }]);
      continue;
    }
    const gap = it.x - seg.end;
    const needsSpace =
      !signOnly &&
      (bulletOnly || gap > SPACE_GAP * it.size) &&
      !seg.text.endsWith(' ') &&
      !text.startsWith(' ');
    seg.text += (needsSpace ? ' ' : '') + text;
    const runs = segRuns[segRuns.length - 1] as FontRun[];
    const run = runs[runs.length - 1] as FontRun;
    // A gap of most of an em parts runs of one font too (a unit after a value: "520 | sq.ft.").
    if (run.font === it.font && gap <= RUN_GAP * it.size)
      run.text += (needsSpace ? ' ' : '') + text;
    else runs.push({ font: it.font, text });
    seg.end = Math.max(seg.end, it.x + it.width);
    seg.size = Math.max(seg.size ?? 0, it.size);
    const fonts = segFonts[segFonts.length - 1] as Map<string, number>;
    fonts.set(it.font, (fonts.get(it.font) ?? 0) + text.length);
  }
  segments.forEach((s, i) => {
    s.text = normalizeSpace(s.text);
    s.font = mostOf(segFonts[i] as Map<string, number>);
    s.runs = (segRuns[i] as FontRun[])
      .map((r) => ({ font: r.font, text: normalizeSpace(r.text) }))
      .filter((r) => r.text !== '');
  });
  const kept = segments.filter((s) => s.text !== '');
  const first = kept[0];
  const last = kept[kept.length - 1];
  return {
    page,
    y: items.reduce((sum, it) => sum + it.y, 0) / items.length,
    x: first?.x ?? 0,
    end: last?.end ?? 0,
    size,
    text: kept.map((s) => s.text).join(' '),
    segments: kept,
    font: mostOf(lineFonts),
    words,
  };
}

function mostOf(weights: Map<string, number>): string {
  let best = '';
  let bestWeight = -1;
  for (const [key, weight] of weights) {
    if (weight > bestWeight) {
      best = key;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * Splits an item's text into words, placing each by its share of the item's characters (pdf.js
 * gives one width per item); `spaced` says whether a gap separates the item from the previous one.
 */
function addWords(words: Word[], it: Item, text: string, spaced: boolean): void {
  const perChar = text.length > 0 ? it.width / text.length : 0;
  let offset = 0;
  for (const part of text.split(' ')) {
    if (part !== '') {
      const x = it.x + offset * perChar;
      const end = x + part.length * perChar;
      const last = words[words.length - 1];
      if (offset === 0 && !spaced && last) {
        last.text += part;
        last.end = end;
      } else {
        words.push({ x, end, text: part });
      }
    }
    offset += part.length + 1;
  }
}

/** Baselines within this share of the larger type size are one line's. */
const ONE_LINE = 0.4;

/** Groups items into lines: by baseline (top to bottom), then left to right. */
export function groupLines(page: number, items: Item[]): Line[] {
  const sorted = [...items].sort((p, q) => q.y - p.y || p.x - q.x);
  const lines: Line[] = [];
  let bucket: Item[] = [];
  let baseline = 0;
  let bucketSize = 0;
  for (const it of sorted) {
    if (
      bucket.length > 0 &&
      Math.abs(it.y - baseline) <= ONE_LINE * Math.max(bucketSize, it.size)
    ) {
      bucket.push(it);
      bucketSize = Math.max(bucketSize, it.size);
      continue;
    }
    if (bucket.length > 0) lines.push(buildLine(page, bucket));
    bucket = [it];
    baseline = it.y;
    bucketSize = it.size;
  }
  if (bucket.length > 0) lines.push(buildLine(page, bucket));
  return lines.filter((l) => l.text !== '');
}

/** A gutter at least this many points wide may part a designed page's two columns. */
const GUTTER = 10;
/** Baselines this close (points) are one row's. */
const SHARED_BASELINE = 1;
/** At most this share of a two-column page's lines may sit on a baseline of the other column. */
const MAX_SHARED_ROWS = 0.25;
/** Each of a designed page's columns has at least this many lines beside none of the other's. */
const MIN_ALONE = 2;
/** Sizes this many times apart are a designed page's headline and its small print. */
const SPLICED_SIZES = 1.5;
/** Read across, at least this many lines of a designed page would meet lines of other sizes. */
const MIN_SPLICED = 2;

/**
 * A designed page's two columns read one after the other (a listing flyer: the headline and its
 * blurb left, the address, price and figures right, each in type of its own size). Read row by
 * row, the two columns' lines of different sizes meet near one baseline and splice into one line
 * ("PROPERTY 12 Sample Lane,"). A page is read by columns only when all of these hold:
 * - one gutter, and only one, runs clear from its top to its bottom, near its middle;
 * - each side has three lines or more, and two or more beside no line of the other side;
 * - few lines of either side sit on a baseline of the other (a table's or a form's columns
 *   share their rows' baselines);
 * - read across, two lines or more would meet a line of the other side in type two thirds as
 *   large or less (a form's labels and values, a list's ratings, differ a little in size if at
 *   all).
 * Blocks parted by a wide empty band (a photo across the columns) are read in turn, each left
 * then right. Null when the page is not such a page. Pure.
 */
function columnLines(page: number, items: readonly Item[]): Line[] | null {
  const gutter = clearGutter(items);
  if (gutter === null) return null;
  const sides = (block: readonly Item[]): [Line[], Line[]] => [
    groupLines(
      page,
      block.filter((it) => it.x < gutter),
    ),
    groupLines(
      page,
      block.filter((it) => it.x >= gutter),
    ),
  ];
  const [left, right] = sides(items);
  if (left.length < 3 || right.length < 3) return null;
  const sharing = (side: readonly Line[], other: readonly Line[]): number =>
    side.filter((l) => other.some((o) => Math.abs(o.y - l.y) <= SHARED_BASELINE)).length;
  if (sharing(left, right) + sharing(right, left) > MAX_SHARED_ROWS * (left.length + right.length))
    return null;
  // Each side has lines of its own, beside no line of the other (none `groupLines` would join it
  // with): a column of ratings set right of a list's items, each a little off its item's
  // baseline, has none.
  const near = (l: Line, o: Line): boolean =>
    Math.abs(o.y - l.y) <= ONE_LINE * Math.max(o.size, l.size);
  const alone = (side: readonly Line[], other: readonly Line[]): number =>
    side.filter((l) => !other.some((o) => near(l, o))).length;
  if (alone(left, right) < MIN_ALONE || alone(right, left) < MIN_ALONE) return null;
  // And read across, lines of very different sizes would meet: a form's labels and values, a
  // header's fields, differ a little in size if at all.
  const spliced = left.filter((l) =>
    right.some(
      (o) => near(l, o) && Math.max(l.size, o.size) >= SPLICED_SIZES * Math.min(l.size, o.size),
    ),
  ).length;
  if (spliced < MIN_SPLICED) return null;
  const blocks = blocksOf(items);
  return blocks.length === 1 ? [...left, ...right] : blocks.flatMap((b) => sides(b).flat());
}

/** An empty band this many of the page's median type sizes high parts its blocks. */
const BLOCK_GAP = 4;

/** Items in blocks parted by empty bands across the page, top block first. Pure. */
function blocksOf(items: readonly Item[]): Item[][] {
  const sizes = items.map((it) => it.size).sort((a, b) => a - b);
  const gap = BLOCK_GAP * (sizes[Math.floor(sizes.length / 2)] ?? 0);
  const blocks: Item[][] = [];
  let low = Number.POSITIVE_INFINITY;
  for (const it of [...items].sort((p, q) => q.y + q.size - (p.y + p.size))) {
    const block = blocks[blocks.length - 1];
    if (block === undefined || it.y + it.size < low - gap) blocks.push([it]);
    else block.push(it);
    low = Math.min(low, it.y);
  }
  return blocks;
}

/**
 * The middle of the one band of the page that no text item crosses from top to bottom, when
 * it is at least `GUTTER` wide and lies in the middle half of the text's width; else null. A
 * page with two such bands or more is a table's or tiles' columns, not two columns of text. Pure.
 */
function clearGutter(items: readonly Item[]): number | null {
  const spans = items.map((it) => [it.x, it.x + it.width] as const).sort((p, q) => p[0] - q[0]);
  const from = spans[0]?.[0];
  if (from === undefined) return null;
  // A loop, not Math.max(...): a hostile page may hold more items than a call takes arguments.
  const to = spans.reduce((most, s) => Math.max(most, s[1]), from);
  let reach = from;
  const gutters: number[] = [];
  for (const [x, end] of spans) {
    if (x - reach >= GUTTER) gutters.push((x + reach) / 2);
    reach = Math.max(reach, end);
  }
  const at = gutters[0];
  if (gutters.length !== 1 || at === undefined) return null;
  return at > from + (to - from) / 4 && at < to - (to - from) / 4 ? at : null;
}

export function pageLines(page: number, rawItems: readonly RawTextItem[]): Line[] {
  const { upright, other, dominant } = readingItems(rawItems);
  const items = withoutStackedLetters(upright);
  const lines = columnLines(page, items) ?? groupLines(page, items);
  const titles = dominant === 0 ? marginTitles(page, lines, other) : [];
  const rest = other.filter((it) => !titles.some((t) => t.item === it));
  return [...withMarginTitles(lines, titles), ...groupLines(page, rest)];
}

/** A margin title's words: capitals, a few words ("SALES COMPARISON APPROACH", "PUD INFORMATION"). */
const MARGIN_TITLE = /^\p{Lu}[\p{Lu} &/-]{2,39}$/u;

interface MarginTitle {
  item: OrientedItem;
  line: Line;
  /** Where its text starts and ends up the page (page coordinates, larger = higher). */
  bottom: number;
  top: number;
}

/**
 * Words printed up the left margin of a form, each beside the band of rows it names ("SUBJECT",
 * "CONTRACT", "NEIGHBORHOOD", "SITE" up the edge of a residential appraisal form): text turned a
 * quarter left, in capitals, left of the page's upright text. Pure.
 */
function marginTitles(
  page: number,
  lines: readonly Line[],
  other: readonly OrientedItem[],
): MarginTitle[] {
  if (lines.length === 0) return [];
  const lefts = lines.map((l) => l.x).sort((a, b) => a - b);
  const margin = lefts[Math.floor(lefts.length * 0.05)] as number;
  const titles: MarginTitle[] = [];
  for (const item of other) {
    const text = item.str.trim();
    // Turned a quarter left, the item's reading x runs up the page and its page x is -y.
    if (item.orientation !== 1 || !MARGIN_TITLE.test(text) || -item.y > margin) continue;
    const line: Line = {
      page,
      y: item.x + item.width,
      x: -item.y - item.size,
      end: -item.y,
      size: item.size,
      text,
      segments: [{ x: -item.y - item.size, end: -item.y, text, size: item.size, y: item.x }],
      font: item.font,
      marginTitle: true,
    };
    titles.push({ item, line, bottom: item.x, top: item.x + item.width });
  }
  return titles.sort((a, b) => b.top - a.top);
}

/** How much a parting's width counts against its distance from where a band should meet the next. */
const PARTING_DRIFT = 0.5;
/** Rows of one band are set at most this many font sizes apart. */
const BAND_ROW_GAP = 2.2;

/**
 * The page's lines with each margin title set before the first row of its band. A title sits
 * about the middle of its band, so two bands meet about midway between two titles' middles, at
 * a parting of rows near there (a form rules its bands apart, often a little wider than its
 * rows); the first band reaches up from its title over the rows set close together. Pure.
 */
function withMarginTitles(lines: readonly Line[], titles: readonly MarginTitle[]): Line[] {
  if (titles.length === 0) return [...lines];
  // The index of the row after the parting nearest `aim`, wide partings preferred, between
  // `floor` and `ceiling`.
  const parting = (aim: number, floor: number, ceiling: number): number => {
    let at = lines.findIndex((l) => l.y <= floor);
    let best = Number.NEGATIVE_INFINITY;
    for (let i = 1; i < lines.length; i++) {
      const up = (lines[i - 1] as Line).y;
      const down = (lines[i] as Line).y;
      const middle = (up + down) / 2;
      if (middle < floor || middle > ceiling) continue;
      const score = up - down - PARTING_DRIFT * Math.abs(middle - aim);
      if (score > best) {
        best = score;
        at = i;
      }
    }
    return at < 0 ? lines.length : at;
  };
  const centre = (t: MarginTitle): number => (t.top + t.bottom) / 2;
  // The first band: from its title's head up through the rows set close above, to the page's
  // title or a parting (its heading rows stay above it).
  const firstBand = (first: MarginTitle): number => {
    let top = lines.findIndex((l) => l.y <= first.top);
    if (top < 0) return lines.length;
    while (top > 0) {
      const up = lines[top - 1] as Line;
      const row = lines[top] as Line;
      if (up.y - row.y > BAND_ROW_GAP * row.size || up.size > row.size * 1.15) break;
      top--;
    }
    return top;
  };
  const starts = titles.map((t, k) => {
    const above = titles[k - 1];
    return above ? parting((centre(t) + centre(above)) / 2, t.top, above.bottom) : firstBand(t);
  });
  const at = new Map<number, Line[]>();
  titles.forEach((t, k) =>
    at.set(starts[k] as number, [...(at.get(starts[k] as number) ?? []), t.line]),
  );
  const out: Line[] = [];
  lines.forEach((l, i) => {
    out.push(...(at.get(i) ?? []), l);
  });
  out.push(...(at.get(lines.length) ?? []));
  return out;
}

/**
 * Drops a margin's word printed as a column of single capitals ("S U B J E C T" down the left
 * edge of a residential appraisal form, one letter beside each row): each letter would start the
 * row it sits beside ("S Neighborhood Name …"). A letter goes when it is one of at least four in
 * a column (centred on one x, each within two line heights of the next), each first on its row,
 * and not in the alphabet's order (a list's "A", "B", "C", "D").
 * Pure.
 */
export function withoutStackedLetters(items: readonly Item[]): Item[] {
  const letters = items.filter((it) => /^\s*\p{Lu}\s*$/u.test(it.str));
  if (letters.length < 4) return [...items];
  // The leftmost start of the other text on each baseline (rounded to a point).
  const lettersSet = new Set(letters);
  const leftmost = new Map<number, number>();
  for (const o of items) {
    if (lettersSet.has(o)) continue;
    const y = Math.round(o.y);
    leftmost.set(y, Math.min(leftmost.get(y) ?? Number.POSITIVE_INFINITY, o.x));
  }
  // Nothing else on the letter's row starts left of it (or at it).
  const first = (it: Item): boolean => {
    for (let y = Math.floor(it.y - it.size); y <= Math.ceil(it.y + it.size); y++)
      if ((leftmost.get(y) ?? Number.POSITIVE_INFINITY) <= it.x + 1) return false;
    return true;
  };
  const drop = new Set<Item>();
  const margin = letters.filter(first).sort((a, b) => b.y - a.y);
  const columns = new Map<number, Item[]>();
  for (const it of margin) {
    // Letters of a column are centred on it: their left edges differ by up to half an em.
    const key = [...columns.keys()].find((x) => Math.abs(x - it.x) <= it.size / 2) ?? it.x;
    const column = columns.get(key);
    if (column) column.push(it);
    else columns.set(key, [it]);
  }
  for (const column of columns.values()) {
    let run: Item[] = [];
    const close = (): void => {
      // "A", "B", "C", "D" down a list are its items' letters, not a word.
      const enumerated = run.every(
        (it, k) =>
          k === 0 || it.str.trim().charCodeAt(0) === run[k - 1]!.str.trim().charCodeAt(0) + 1,
      );
      if (run.length >= 4 && !enumerated) for (const it of run) drop.add(it);
      run = [];
    };
    for (const it of column) {
      const prev = run[run.length - 1];
      if (prev && prev.y - it.y > 2 * Math.max(prev.size, it.size) * 1.25) close();
      run.push(it);
    }
    close();
  }
  return drop.size === 0 ? [...items] : items.filter((it) => !drop.has(it));
}

export function round(n: number): number {
  return Math.round(n * 2) / 2;
}

export function bodySizeOf(lines: Line[]): number {
  const weights = new Map<number, number>();
  for (const l of lines)
    weights.set(round(l.size), (weights.get(round(l.size)) ?? 0) + l.text.length);
  let best = 0;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight) {
      best = size;
      bestWeight = weight;
    }
  }
  return best || 10;
}

/**
 * Lines for an OCR'd page from its markdown, laid out top to bottom as a text layer would be:
 * headings larger than the body (so the font-size rule finds them), table rows as aligned
 * segments (so the column rule finds them), one line per paragraph.
 */
export function ocrLines(page: number, markdown: string, height: number, bodySize: number): Line[] {
  const lines: Line[] = [];
  let y = height - 40;
  const push = (text: string, size: number, segments: Segment[]): void => {
    y -= size * 1.2;
    const last = segments[segments.length - 1];
    lines.push({
      page,
      y,
      x: segments[0]?.x ?? 40,
      end: last?.end ?? 40,
      size,
      text,
      segments,
      fromOcr: true,
    });
  };
  for (const block of markdownBlocks(markdown)) {
    if (block.kind === 'heading') {
      const size = round(bodySize * (block.level === 1 ? 1.8 : block.level === 2 ? 1.5 : 1.3));
      y -= bodySize;
      push(block.text, size, [
        { x: 40, end: 40 + block.text.length * size * 0.5, text: block.text },
      ]);
    } else if (block.kind === 'table') {
      const width = Math.max(...block.rows.map((r) => r.length));
      const colWidth = Math.max(
        60,
        ...block.rows.flat().map((c) => c.length * bodySize * 0.6 + 40),
      );
      for (const row of block.rows) {
        const segments: Segment[] = [];
        for (let c = 0; c < width; c++) {
          const text = normalizeSpace(row[c] ?? '');
          // An empty cell still holds its column (a placeholder the column rule can align).
          const x = 40 + c * colWidth;
          segments.push({
            x,
            end: x + Math.max(1, text.length) * bodySize * 0.5,
            text: text || '-',
          });
        }
        push(segments.map((sg) => sg.text).join(' '), bodySize, segments);
      }
      y -= bodySize * 2;
    } else {
      const text = normalizeSpace(block.text);
      push(text, bodySize, [{ x: 40, end: 40 + Math.min(text.length, 95) * bodySize * 0.5, text }]);
      y -= bodySize * 2;
    }
  }
  return lines;
}

/** Baselines closer than this share of the type size are closer than any text's line spacing. */
const OFFSET_ROW = 0.8;

const overlaps = (a: Segment, b: Segment): boolean => a.x < b.end && b.x < a.end;

/** Whether every segment of `below` goes on a segment of `above` in the same type. */
function stacksOn(above: Line, below: Line): boolean {
  return (
    below.segments.length > 0 &&
    below.segments.every((s) =>
      above.segments.some((p) => overlaps(s, p) && (p.font ?? '') === (s.font ?? '')),
    ) &&
    Math.abs(above.size - below.size) <= 0.5
  );
}

/** Whether no segment of `a` stands over or under one of `b`. */
function beside(a: Line, b: Line): boolean {
  return !a.segments.some((s) => b.segments.some((p) => overlaps(s, p)));
}

/**
 * Cells of one row set at different heights: a label centred beside a value on two lines
 * ("Purpose of Appraisal" between "To provide an estimation of Market Value" and "“as is”.").
 * A line midway between two lines of a cell beside it (closer to each than any line spacing),
 * is one row with that cell's lines, the cell's text read top to bottom. Lines laid out from
 * OCR are left as they are. Pure.
 */
export function mergeOffsetRows(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const above = out[out.length - 1];
    const below = lines[i + 1];
    if (!above || !below || !centredBetween(above, line, below)) {
      out.push(line);
      continue;
    }
    // The cell's other lines, at its own line spacing, above and below.
    const spacing = above.y - below.y;
    const band = [above, line, below];
    out.pop();
    while (out.length > 0) {
      const up = out[out.length - 1] as Line;
      if (!sameCellLine(up, band[0] as Line, spacing) || !beside(up, line)) break;
      band.unshift(up);
      out.pop();
    }
    let j = i + 2;
    for (; j < lines.length; j++) {
      const down = lines[j] as Line;
      if (!sameCellLine(band[band.length - 1] as Line, down, spacing) || !beside(down, line)) break;
      band.push(down);
    }
    out.push(rowOf(band));
    i = j - 1;
  }
  return out;
}

function centredBetween(above: Line, line: Line, below: Line): boolean {
  if (line.fromOcr || above.fromOcr || below.fromOcr) return false;
  if (line.marginTitle || above.marginTitle || below.marginTitle) return false;
  if (above.page !== line.page || below.page !== line.page) return false;
  const up = above.y - line.y;
  const down = line.y - below.y;
  const size = Math.max(above.size, line.size, below.size);
  if (up <= 0 || down <= 0 || up >= OFFSET_ROW * size || down >= OFFSET_ROW * size) return false;
  if (Math.abs(up - down) > 0.25 * (up + down)) return false;
  return stacksOn(above, below) && beside(line, above) && beside(line, below);
}

function sameCellLine(above: Line, below: Line, spacing: number): boolean {
  return (
    above.page === below.page &&
    Math.abs(above.y - below.y - spacing) <= 0.15 * spacing &&
    stacksOn(above, below)
  );
}

function rowOf(band: readonly Line[]): Line {
  const segments: Segment[] = [];
  for (const line of band)
    for (const s of line.segments) {
      const same = segments.find((p) => overlaps(s, p));
      if (!same) {
        segments.push({ ...s });
        continue;
      }
      same.text = `${same.text} ${s.text}`;
      same.x = Math.min(same.x, s.x);
      same.end = Math.max(same.end, s.end);
    }
  segments.sort((a, b) => a.x - b.x);
  // The row stands where its one-line cell does, between the other cell's lines.
  const middle = band[Math.floor(band.length / 2)] as Line;
  const longest = band.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  return {
    ...longest,
    y: band.reduce((sum, l) => sum + l.y, 0) / band.length,
    x: segments[0]?.x ?? middle.x,
    end: Math.max(...segments.map((s) => s.end)),
    size: Math.max(...band.map((l) => l.size)),
    text: segments.map((s) => s.text).join(' '),
    segments,
    words: undefined,
  };
}

/** The indices from `start` up to `end` (excluded). Pure. */
export function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, k) => start + k);
}
