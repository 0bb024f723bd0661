import type { RawFigure, RawSection, RawTable } from '../sections.js';
import { escapeMarkdown, rowsToMarkdown } from '../text.js';
import { removeRunningLines } from './furniture.js';
import { fontHeadings, outlineMarks } from './headings.js';
import type { HeadingMark, OutlineTarget } from './headings.js';
import { bodySizeOf, ocrLines, pageLines, round } from './lines.js';
import type { Line, RawTextItem } from './lines.js';
import { figureIndex } from './figures.js';
import type { PlacedFigure } from './figures.js';
import { findTables } from './tables.js';

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
): RawSection[] {
  const headingAt = new Map<number, HeadingMark[]>();
  const headingLine = new Set<number>();
  for (const m of headingMarks) {
    headingAt.set(m.at, [...(headingAt.get(m.at) ?? []), m]);
    for (let k = m.at; k < m.at + m.span; k++) headingLine.add(k);
  }
  const tables = findTables(lines, (i) => !headingLine.has(i));
  const tableAt = new Map(tables.map((t) => [t.start, t]));
  const leading = typicalLeading(lines, round(bodySize));
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
    }
    if (i === lines.length) break;
    if (headingLine.has(i)) continue;
    const table = tableAt.get(i);
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
      i = table.end - 1;
      continue;
    }
    const line = lines[i] as Line;
    if (para) {
      const prev: Line = para.last;
      let continues: boolean;
      if (prev.page !== line.page) {
        // Across a page break: the paragraph goes on unless the last line ended a sentence and
        // stopped short of the right margin.
        const endsSentence = /[.!?:;)"”’]$/.test(prev.text);
        const fullWidth = prev.end >= rightEdge - 3 * bodySize;
        continues = !endsSentence || fullWidth;
      } else {
        const gap = prev.y - line.y;
        const sameSize = Math.abs(prev.size - line.size) <= 0.1 * Math.max(prev.size, line.size);
        continues = sameSize && gap > 0 && gap <= leading * 1.35;
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
  const textPages = pages.map((p, i) =>
    p.ocrMarkdown === undefined ? pageLines(i + 1, p.items) : [],
  );
  const textBody = bodySizeOf(textPages.flat());
  const perPage = pages.map((p, i) =>
    p.ocrMarkdown === undefined
      ? (textPages[i] ?? [])
      : ocrLines(i + 1, p.ocrMarkdown, p.height, textBody),
  );
  const lines = removeRunningLines(
    perPage,
    pages.map((p) => p.height),
  ).flat();
  const bodySize = bodySizeOf(lines);
  const figuresAt = new Map<number, RawFigure[]>();
  pages.forEach((p, i) => {
    for (const placed of p.figures ?? []) {
      const at = figureIndex(lines, i + 1, placed.top);
      figuresAt.set(at, [...(figuresAt.get(at) ?? []), placed.figure]);
    }
  });
  return linesToSections(
    lines,
    outlineMarks(lines, targets) ?? fontHeadings(lines, bodySize),
    bodySize,
    figuresAt,
  );
}
