import type { RawFigure, RawSection, RawTable } from '../sections.js';
import { escapeMarkdown, padRows, rowsToMarkdown } from '../text.js';
import {
  removeCheckColumnLegends,
  removeContentsEntries,
  removeOcrFurniture,
  removePageFurniture,
  removeRepeatedTitles,
  removeRuleLines,
  removeRunningLines,
} from './furniture.js';
import { fontHeadings, outlineMarks, refineOutline, withBadges } from './headings.js';
import type { HeadingMark, OutlineTarget } from './headings.js';
import {
  WRAPPED_END,
  bodySizeOf,
  mergeOffsetRows,
  ocrLines,
  pageLines,
  range,
  round,
} from './lines.js';
import type { Line, RawTextItem } from './lines.js';
import { figureIndex } from './figures.js';
import type { PlacedFigure } from './figures.js';
import { findGrids, findTables, keyValueLines } from './tables.js';
import type { BodyStyle, GridRun } from './tables.js';
import { attachCaptions } from './figures.js';
import { unspaceLines, vocabularyOf } from './spacing.js';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** The usual distance between baselines of consecutive body lines. */
export function typicalLeading(lines: Line[], bodySize: number): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1] as Line;
    const b = lines[i] as Line;
    if (a.page !== b.page || round(a.size) !== bodySize || round(b.size) !== bodySize) continue;
    const d = round(a.y - b.y);
    if (d > 0 && d < 3 * bodySize) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = bodySize * 1.2;
  let bestCount = 0;
  for (const [d, n] of counts) {
    if (n > bestCount || (n === bestCount && d < best)) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

/** Pairs of body lines a page needs before its own line spacing counts. */
const PAGE_LEADING_PAIRS = 6;

/**
 * Each page's own line spacing, in its own type, where it sets its text tighter than the document
 * does (a letter of transmittal in single spacing before a report in one-and-a-half): there a
 * blank line between paragraphs is narrower than the document's spacing, and paragraphs are told
 * by the page's. Pure.
 */
export function pageLeadings(
  lines: readonly Line[],
  bodySize: number,
  leading: number,
): Map<number, number> {
  const byPage = new Map<number, Line[]>();
  for (const l of lines) {
    const own = byPage.get(l.page);
    if (own) own.push(l);
    else byPage.set(l.page, [l]);
  }
  const out = new Map<number, number>();
  for (const [page, own] of byPage) {
    // The page's own type: the size of most of its characters (a letter in 12 pt in a report
    // in 13).
    const chars = new Map<number, number>();
    for (const l of own) chars.set(round(l.size), (chars.get(round(l.size)) ?? 0) + l.text.length);
    const size = [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? bodySize;
    const gaps: number[] = [];
    for (let i = 1; i < own.length; i++) {
      const a = own[i - 1] as Line;
      const b = own[i] as Line;
      if (round(a.size) === size && round(b.size) === size && a.y > b.y) gaps.push(a.y - b.y);
    }
    if (gaps.length < PAGE_LEADING_PAIRS) continue;
    const mine = typicalLeading(own, size);
    // Prose in one spacing: most lines at it or a blank line apart (a page of tables and charts
    // spaces its rows as they fall, and keeps the document's).
    const at = gaps.filter((g) => Math.abs(g - mine) <= 1 || Math.abs(g - 2 * mine) <= 1.5).length;
    if (mine < leading * 0.8 && at >= 0.6 * gaps.length) out.set(page, mine);
  }
  return out;
}

/**
 * A list item's marker at the start of a line. Numbered lines are left to run on: reports set
 * a finding's number before its text, under the line naming what it is about.
 */
const BULLET = /^[-–•●▪◦■*]\s+\S/u;
/** A numbered item: "2. Minor cracks …", "3) Paint peeling …". */
const NUMBERED = /^\d{1,2}[.)]\s+\p{Lu}/u;
/** A line that starts with a label and its colon ("Inspection Date: March 10, 2025"). */
const LABEL_START = /^\p{Lu}[\p{L}\p{N} /&().'-]{0,40}:\s+\S/u;
/**
 * A short line that is a label, with a short value or alone: "location:West", "Stucco
 * Cracks/Damage:", "Uneven Pavers — Trip Hazard:".
 */
const LABEL_LINE = /^\p{L}[\p{L}\p{N} /&()'’—–-]{0,50}:(?:\s*\S[^:]{0,40}|$)$/u;

export function joinLines(a: string, b: string): string {
  // "well-" + "kept": keep the hyphen, add no space (never delete characters we cannot be sure of).
  if (/\p{L}-$/u.test(a) && /^\p{Ll}/u.test(b)) return a + b;
  return `${a} ${b}`;
}

export interface Block {
  markdown: string;
  pageStart: number;
  pageEnd: number;
  table?: RawTable;
}

/** Builds the sections: headings split, body lines become paragraphs (by vertical gaps) and tables. */
export function linesToSections(
  lines: Line[],
  headingMarks: HeadingMark[],
  bodySize: number,
  figuresAt: Map<number, RawFigure[]> = new Map(),
  grids: GridRun[] = [],
  body: BodyStyle = { size: bodySize, font: '' },
  heights: number[] = [],
): RawSection[] {
  const headingAt = new Map<number, HeadingMark[]>();
  const headingLine = new Set<number>();
  for (const m of headingMarks) {
    headingAt.set(m.at, [...(headingAt.get(m.at) ?? []), m]);
    for (let k = m.at; k < m.at + m.span; k++) headingLine.add(k);
  }
  const gridAt = new Map(grids.map((g) => [g.start, g]));
  const gridLine = new Set(grids.flatMap((g) => range(g.start, g.end)));
  // A letterhead (a few lines in columns at the very top of a page, beside a logo) is no table.
  // It is the first text on its page.
  const letterhead = (t: { start: number; end: number }): boolean =>
    t.end - t.start <= 3 &&
    (t.start === 0 || (lines[t.start - 1] as Line).page !== (lines[t.start] as Line).page) &&
    lines
      .slice(t.start, t.end)
      .every((l) => l.y > (heights[l.page - 1] ?? Number.POSITIVE_INFINITY) * 0.85);
  const tables = findTables(lines, (i) => !headingLine.has(i) && !gridLine.has(i)).filter(
    (t) => !letterhead(t),
  );
  const tableAt = new Map(tables.map((t) => [t.start, t]));
  const leading = typicalLeading(lines, round(bodySize));
  const pageLeading = pageLeadings(lines, round(bodySize), leading);
  const rightEdge = percentile(
    lines.filter((l) => round(l.size) === round(bodySize)).map((l) => l.end),
    0.9,
  );

  const sections: RawSection[] = [];
  let blocks: Block[] = [];
  let current: RawSection = {
    name: null,
    level: 0,
    markdown: '',
    page_start: null,
    page_end: null,
    tables: [],
    figures: [],
  };
  let para: { text: string; pageStart: number; pageEnd: number; last: Line } | null = null;

  const flushPara = (): void => {
    if (para)
      blocks.push({
        markdown: escapeMarkdown(para.text),
        pageStart: para.pageStart,
        pageEnd: para.pageEnd,
      });
    para = null;
  };
  const closeSection = (): void => {
    flushPara();
    current.markdown = blocks.map((b) => b.markdown).join('\n\n');
    current.tables = blocks.flatMap((b) => (b.table ? [b.table] : []));
    if (blocks.length > 0) {
      current.page_start ??= Math.min(...blocks.map((b) => b.pageStart));
      current.page_end = Math.max(current.page_start, ...blocks.map((b) => b.pageEnd));
    } else {
      current.page_end = current.page_start;
    }
    sections.push(current);
    blocks = [];
  };

  // A grid or table is read as one block, from its first line to its last: a figure drawn
  // between two of its lines (a photo above its caption in a row of captions) is not lost with the
  // lines skipped, but goes to the section the block is in.
  const skipTo = (start: number, end: number): number => {
    for (let k = start + 1; k < end; k++) current.figures?.push(...(figuresAt.get(k) ?? []));
    return end - 1;
  };
  for (let i = 0; i <= lines.length; i++) {
    // A figure drawn above line i belongs to the section open before any heading on line i.
    current.figures?.push(...(figuresAt.get(i) ?? []));
    for (const mark of headingAt.get(i) ?? []) {
      closeSection();
      current = {
        name: mark.name,
        level: mark.level,
        markdown: '',
        page_start: mark.page,
        page_end: mark.page,
        tables: [],
        figures: [],
      };
      if (mark.badge)
        blocks.push({
          markdown: escapeMarkdown(mark.badge),
          pageStart: mark.page,
          pageEnd: mark.page,
        });
    }
    if (i === lines.length) break;
    if (headingLine.has(i)) continue;
    const grid = gridAt.get(i);
    if (grid) {
      flushPara();
      const pageEnd = (lines[grid.end - 1] as Line).page;
      const texts = grid.pairs ?? [];
      if (grid.table) {
        const rows = padRows(grid.table);
        const markdown = rowsToMarkdown(rows);
        blocks.push({
          markdown,
          pageStart: grid.page,
          pageEnd,
          table: { rows, markdown, page_number: grid.page },
        });
      }
      for (const text of [...texts, ...(grid.sentences ?? [])])
        blocks.push({ markdown: escapeMarkdown(text), pageStart: grid.page, pageEnd });
      i = skipTo(i, grid.end);
      continue;
    }
    const table = tableAt.get(i);
    if (table && table.rows.length === 1) {
      // One row whose cells wrapped over several lines (no header, no other rows): read as the
      // line it is, each cell whole ("Electrical SAFETY RISK GFCI protection missing in
      // kitchen/baths.").
      flushPara();
      const pageEnd = (lines[table.end - 1] as Line).page;
      const text = (table.rows[0] ?? []).filter((c) => c !== '').join(' ');
      blocks.push({ markdown: escapeMarkdown(text), pageStart: table.page, pageEnd });
      i = skipTo(i, table.end);
      continue;
    }
    const pairs = table ? keyValueLines(lines, table, body) : null;
    if (table && pairs) {
      flushPara();
      const pageEnd = (lines[table.end - 1] as Line).page;
      for (const text of pairs)
        blocks.push({ markdown: escapeMarkdown(text), pageStart: table.page, pageEnd });
      i = skipTo(i, table.end);
      continue;
    }
    if (table) {
      flushPara();
      const pageEnd = (lines[table.end - 1] as Line).page;
      const markdown = rowsToMarkdown(table.rows);
      blocks.push({
        markdown,
        pageStart: table.page,
        pageEnd,
        table: { rows: table.rows, markdown, page_number: table.page },
      });
      i = skipTo(i, table.end);
      continue;
    }
    const line = lines[i] as Line;
    if (para) {
      const prev: Line = para.last;
      let continues: boolean;
      if (prev.page !== line.page) {
        // Across a page break: the paragraph goes on when the last line ran to the right margin,
        // or when it left a sentence open and the next line takes it up: in lower case, or after
        // a word that leads on ("as noted in the" / "Property Identification section above."),
        // or inside parentheses ("(including Recycling" / "Centers)"). A short last line before
        // a capital is where a block ended ("Recommendation: roof", then the next page's first
        // item "Exterior Decks and Stairways").
        const endsSentence = /[.!?:;)"”’]$/.test(prev.text);
        // An OCR'd line's width is made up (OCR gives a paragraph, not where its lines end).
        const fullWidth = !prev.fromOcr && prev.end >= rightEdge - 3 * bodySize;
        const takenUp =
          !/^\p{Lu}/u.test(line.text) || WRAPPED_END.test(prev.text) || /\([^)]*$/.test(prev.text);
        continues = fullWidth || (!endsSentence && takenUp);
      } else {
        const gap = prev.y - line.y;
        const sameSize = Math.abs(prev.size - line.size) <= 0.1 * Math.max(prev.size, line.size);
        // A sentence that runs on from one line to the next (no full stop, a lower-case start)
        // goes on across wider spacing than the body's.
        const runsOn =
          !/[.!?:;]$/.test(prev.text) && /^\p{Ll}/u.test(line.text) && gap <= 2.2 * line.size;
        // A bulleted item, or a `Label: value` line under another, starts a paragraph of its own.
        // So does a numbered item after one that ended its sentence ("1. Damp patches observed
        // on the bedroom wall." then "2. Minor cracks …"): a list of findings, one per line.
        const starts =
          BULLET.test(line.text) ||
          (LABEL_START.test(line.text) && LABEL_START.test(prev.text)) ||
          (LABEL_LINE.test(line.text) && LABEL_LINE.test(prev.text)) ||
          (NUMBERED.test(line.text) && /[.!?]$/.test(prev.text) && NUMBERED.test(para.text));
        // On a page set tighter than the document, a gap of the document's spacing still
        // continues a sentence that has not ended across the column ("… per" / "Section 4.2.").
        const spacing = pageLeading.get(line.page) ?? leading;
        const within =
          gap <= spacing * 1.35 ||
          (gap <= leading * 1.35 &&
            !/[.!?:;]$/.test(prev.text) &&
            prev.end >= rightEdge - 3 * bodySize);
        continues = sameSize && gap > 0 && (within || runsOn) && !starts;
      }
      if (continues) {
        para.text = joinLines(para.text, line.text);
        para.pageEnd = line.page;
        para.last = line;
        continue;
      }
      flushPara();
    }
    para = { text: line.text, pageStart: line.page, pageEnd: line.page, last: line };
  }
  closeSection();
  return sections;
}

/** The text items of one page (pdf.js getTextContent items) and the page height. */
export interface PageText {
  items: RawTextItem[];
  height: number;
  /** Page width (PDF units); 612 when not given. */
  width?: number;
  /** Set when the page was OCR'd: its markdown replaces the items. */
  ocrMarkdown?: string;
  /** Figures drawn on the page. */
  figures?: PlacedFigure[];
}

/**
 * Layout analysis, pure: lines per page (from the text layer, or from OCR markdown), running
 * headers/footers dropped, headings from the outline targets when any resolved (else from font
 * sizes), then paragraphs, tables and figures in their sections.
 */
export function analysePages(pages: PageText[], targets: OutlineTarget[] = []): RawSection[] {
  const spaced = pages.map((p, i) =>
    p.ocrMarkdown === undefined ? pageLines(i + 1, p.items) : [],
  );
  const vocab = vocabularyOf(spaced.flat());
  const textPages = spaced.map((lines) => unspaceLines(lines, vocab));
  const textBody = bodySizeOf(textPages.flat());
  const perPage = pages.map((p, i) =>
    p.ocrMarkdown === undefined
      ? (textPages[i] ?? [])
      : ocrLines(i + 1, p.ocrMarkdown, p.height, textBody),
  );
  const heights = pages.map((p) => p.height);
  // Page furniture goes page by page, then what repeats across pages, then contents entries
  // and a check form's column legend.
  const framed = removePageFurniture(
    perPage,
    heights,
    pages.map((p) => p.width ?? 612),
  );
  const unrepeated = removeRepeatedTitles(
    removeOcrFurniture(removeRunningLines(framed, heights)).map(removeRuleLines),
    heights,
  ).flat();
  const lines = mergeOffsetRows(removeCheckColumnLegends(removeContentsEntries(unrepeated)));
  const bodySize = bodySizeOf(lines);
  const body: BodyStyle = { size: bodySize, font: bodyFontOf(lines, bodySize) };
  const grids = findGrids(lines, body);
  const gridLine = new Set(grids.flatMap((g) => range(g.start, g.end)));
  const figuresAt = new Map<number, RawFigure[]>();
  pages.forEach((p, i) => {
    attachCaptions(p.figures ?? [], lines, i + 1);
    for (const placed of p.figures ?? []) {
      const at = figureIndex(lines, i + 1, placed.top);
      figuresAt.set(at, [...(figuresAt.get(at) ?? []), placed.figure]);
    }
  });
  return linesToSections(
    lines,
    headingMarks(
      lines,
      targets,
      bodySize,
      gridLine,
      body.font,
      pages.map((p) => p.width ?? 612),
    ),
    bodySize,
    figuresAt,
    grids,
    body,
    heights,
  );
}

/** Headings from the outline when it is believable, refined by font headings; else from fonts. */
function headingMarks(
  lines: Line[],
  targets: OutlineTarget[],
  bodySize: number,
  gridLine: ReadonlySet<number>,
  bodyFont: string,
  widths: readonly number[],
): HeadingMark[] {
  const font = fontHeadings(lines, bodySize, gridLine, bodyFont, widths);
  const outline = outlineMarks(lines, targets);
  return withBadges(lines, outline ? refineOutline(lines, outline, font) : font);
}

/** The font of most body-size characters. */
function bodyFontOf(lines: Line[], bodySize: number): string {
  const weights = new Map<string, number>();
  for (const l of lines)
    if (round(l.size) === round(bodySize) && l.font)
      weights.set(l.font, (weights.get(l.font) ?? 0) + l.text.length);
  let best = '';
  let bestWeight = -1;
  for (const [font, weight] of weights) {
    if (weight > bestWeight) {
      best = font;
      bestWeight = weight;
    }
  }
  return best;
}
