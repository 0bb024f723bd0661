import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { DocumentError, throwIfAborted } from '../errors.js';
import { MAX_IMAGE_PIXELS, isFigureSized, rawToPng } from '../images/image.js';
import { judgeTextLayer, markdownBlocks } from './ocrText.js';
import { assembleDocument } from './sections.js';
import type { RawFigure, RawSection, RawTable } from './sections.js';
import { escapeMarkdown, normalizeSpace, padRows, rowsToMarkdown } from './text.js';
import type { ParsedDocument, ParseOptions } from './types.js';

type Pdfjs = typeof PdfjsModule;
type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type LoadingTask = ReturnType<Pdfjs['getDocument']>;

export const DEFAULT_MAX_PAGES = 2000;

let pdfjsPromise: Promise<{ pdfjs: Pdfjs; assets: string }> | null = null;

/**
 * Loads the pdf.js legacy build (the one meant for Node). In Node pdf.js always runs its
 * "fake worker" on the main thread; we hand it the worker module ourselves (globalThis.pdfjsWorker)
 * instead of letting it import "./pdf.worker.mjs" by relative URL, which breaks once bundled.
 */
function loadPdfjs(): Promise<{ pdfjs: Pdfjs; assets: string }> {
  pdfjsPromise ??= (async () => {
    const [pdfjs, worker] = await Promise.all([
      import('pdfjs-dist/legacy/build/pdf.mjs'),
      import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
    ]);
    const g = globalThis as { pdfjsWorker?: unknown };
    g.pdfjsWorker ??= worker;
    const assets = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    return { pdfjs, assets };
  })();
  return pdfjsPromise;
}

function openPdf(pdfjs: Pdfjs, assets: string, bytes: Buffer): LoadingTask {
  return pdfjs.getDocument({
    data: new Uint8Array(bytes), // a copy: pdf.js may transfer/detach the buffer it is given
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    disableStream: true,
    stopAtErrors: false,
    // Images above this many pixels are not decoded (a pixel bomb inside a PDF).
    maxImageSize: MAX_IMAGE_PIXELS,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    // Local files only (read with fs): CMaps for CJK fonts, metrics for the 14 standard fonts.
    cMapUrl: join(assets, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(assets, 'standard_fonts') + '/',
  });
}

function abortError(signal: AbortSignal): DocumentError {
  return new DocumentError('timeout', 'parsing the document took too long and was stopped', {
    cause: signal.reason,
  });
}

/** Resolves like `promise`, or rejects with DocumentError 'timeout' as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Maps pdf.js load failures to DocumentErrors. */
function loadError(err: unknown): DocumentError {
  if (err instanceof DocumentError) return err;
  const name = err instanceof Error ? err.name : '';
  const message = reasonOf(err);
  if (name === 'PasswordException' || /password|encrypt/i.test(message)) {
    return new DocumentError('encrypted', 'the PDF is encrypted', { cause: err });
  }
  return new DocumentError('corrupt', `the PDF is damaged: ${message}`, { cause: err });
}

/**
 * The Info dictionary's Title, unless it is only an authoring tool's placeholder: "Microsoft
 * Word - survey.docx" becomes "survey"; "Untitled" and empty titles count as none.
 */
export function cleanPdfTitle(raw: string): string | null {
  const title = normalizeSpace(raw.replace(/\0/g, ''))
    .replace(/^microsoft (word|excel|powerpoint) - /i, '')
    .replace(/\.(docx?|pdf|rtf|odt|pages|indd|txt|html?)$/i, '')
    .trim();
  if (title === '' || /^(untitled|document\d*|title)$/i.test(title)) return null;
  return title;
}

// ---------------------------------------------------------------------------------------------
// Lines from text items

interface Item {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

interface Segment {
  x: number;
  end: number;
  text: string;
}

interface Line {
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
}

export interface RawTextItem {
  str?: unknown;
  transform?: unknown;
  width?: unknown;
  height?: unknown;
}

/** Text items in "reading coordinates": rotated pages are turned upright by their dominant text direction. */
function readingItems(raw: readonly RawTextItem[]): { upright: Item[]; other: Item[] } {
  type Oriented = Item & { orientation: number };
  const items: Oriented[] = [];
  for (const r of raw) {
    if (typeof r.str !== 'string' || r.str.trim() === '' || !Array.isArray(r.transform)) continue;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = r.transform as number[];
    const size =
      Math.hypot(c, d) || (typeof r.height === 'number' ? r.height : 0) || Math.hypot(a, b) || 1;
    // 0: left-to-right upright, 1: rotated 90° (text runs upward), 2: upside down, 3: rotated 270°.
    const angle = Math.atan2(b, a);
    const orientation = ((Math.round(angle / (Math.PI / 2)) % 4) + 4) % 4;
    const width = typeof r.width === 'number' ? r.width : 0;
    let x = e;
    let y = f;
    if (orientation === 1) [x, y] = [f, -e];
    else if (orientation === 2) [x, y] = [-e, -f];
    else if (orientation === 3) [x, y] = [-f, e];
    items.push({ str: r.str, x, y, width, size, orientation });
  }
  const counts = [0, 0, 0, 0];
  for (const it of items) counts[it.orientation] = (counts[it.orientation] ?? 0) + it.str.length;
  const dominant = counts.indexOf(Math.max(...counts));
  return {
    upright: items.filter((i) => i.orientation === dominant),
    other: items.filter((i) => i.orientation !== dominant),
  };
}

function dominantSize(items: Item[]): number {
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
const SEGMENT_GAP = 1.5;
/** A gap this many font sizes wide is a space between words. */
const SPACE_GAP = 0.15;

function buildLine(page: number, items: Item[]): Line {
  items.sort((p, q) => p.x - q.x);
  const size = dominantSize(items);
  const segments: Segment[] = [];
  let seg: Segment | null = null;
  for (const it of items) {
    const text = it.str.replace(/\s+/g, ' ');
    if (seg === null) {
      seg = { x: it.x, end: it.x + it.width, text };
      segments.push(seg);
      continue;
    }
    const gap = it.x - seg.end;
    if (gap > SEGMENT_GAP * Math.max(size, it.size)) {
      seg = { x: it.x, end: it.x + it.width, text };
      segments.push(seg);
      continue;
    }
    const needsSpace =
      gap > SPACE_GAP * it.size && !seg.text.endsWith(' ') && !text.startsWith(' ');
    seg.text += (needsSpace ? ' ' : '') + text;
    seg.end = Math.max(seg.end, it.x + it.width);
  }
  for (const s of segments) s.text = normalizeSpace(s.text);
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
  };
}

/** Groups items into lines: by baseline (top to bottom), then left to right. */
function groupLines(page: number, items: Item[]): Line[] {
  const sorted = [...items].sort((p, q) => q.y - p.y || p.x - q.x);
  const lines: Line[] = [];
  let bucket: Item[] = [];
  let baseline = 0;
  let bucketSize = 0;
  for (const it of sorted) {
    if (bucket.length > 0 && Math.abs(it.y - baseline) <= 0.4 * Math.max(bucketSize, it.size)) {
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

function pageLines(page: number, rawItems: readonly RawTextItem[]): Line[] {
  const { upright, other } = readingItems(rawItems);
  return [...groupLines(page, upright), ...groupLines(page, other)];
}

// ---------------------------------------------------------------------------------------------
// Layout analysis

/**
 * Running headers and footers: the same text (digits ignored) at the same height on at least
 * half of the pages (and at least 3), near the top or bottom of the page.
 */
function removeRunningLines(pages: Line[][], heights: number[]): Line[][] {
  if (pages.length < 3) return pages;
  const key = (l: Line): string =>
    `${Math.round(l.y / 3)}|${l.text.replace(/\d+/g, '#').toLowerCase()}`;
  const counts = new Map<string, number>();
  pages.forEach((lines, i) => {
    const h = heights[i] ?? 842;
    const seen = new Set<string>();
    for (const l of lines) {
      const nearEdge = l.y > h * 0.88 || l.y < h * 0.12;
      if (nearEdge) seen.add(key(l));
    }
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
  });
  const threshold = Math.max(3, Math.ceil(pages.length / 2));
  const running = new Set([...counts].filter(([, n]) => n >= threshold).map(([k]) => k));
  if (running.size === 0) return pages;
  return pages.map((lines) => lines.filter((l) => !running.has(key(l))));
}

function round(n: number): number {
  return Math.round(n * 2) / 2;
}

function bodySizeOf(lines: Line[]): number {
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

interface HeadingMark {
  /** Index in the line list where the section starts. */
  at: number;
  /** Lines (from `at`) that make up the heading text and are not body. */
  span: number;
  name: string;
  level: number;
  page: number;
}

const MAX_HEADING_CHARS = 120;

/**
 * Font-size headings: a short line (< 120 characters, not ending with a period, with a letter)
 * at least 1.2 times the body size. Levels follow the distinct heading sizes, largest = 1.
 * Consecutive heading lines of one size close together are one (wrapped) heading.
 */
function fontHeadings(lines: Line[], bodySize: number): HeadingMark[] {
  const isHeading = (l: Line): boolean =>
    l.size >= bodySize * 1.2 - 0.01 &&
    l.text.length < MAX_HEADING_CHARS &&
    !/\.$/.test(l.text) &&
    /\p{L}/u.test(l.text);
  const marks: { at: number; span: number; size: number; page: number; name: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (!isHeading(line)) continue;
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
  const sizes = [...new Set(marks.map((m) => round(m.size)))].sort((a, b) => b - a);
  return marks.map((m) => ({
    at: m.at,
    span: m.span,
    name: m.name,
    page: m.page,
    level: Math.min(6, sizes.indexOf(round(m.size)) + 1),
  }));
}

export interface OutlineTarget {
  title: string;
  level: number;
  pageIndex: number;
  top: number | null;
}

interface OutlineNode {
  title?: unknown;
  dest?: unknown;
  items?: unknown;
}

/** Flattens the outline (bookmarks) to entries that resolve to a page. */
async function outlineTargets(doc: PdfDocument): Promise<OutlineTarget[]> {
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
        if (title && Array.isArray(dest) && dest.length > 0) {
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

function matchKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Places outline entries in the line list: on the entry's page, at or below its destination
 * top, the line(s) whose text is the entry's title become the heading; if the title is not
 * found the section starts at the destination (or the top of the page).
 */
function outlineHeadings(
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

/** A run of lines laid out in aligned columns. */
interface TableRun {
  start: number;
  end: number; // exclusive
  rows: string[][];
  page: number;
}

const MAX_CELL_CHARS = 40;

/**
 * Tables: two or more consecutive body lines with at least two segments each, whose segments
 * fall into the columns set by the first line (left edges, right edges or column spans agree).
 * Prose in two columns looks the same, so runs whose cells are mostly long text are not tables.
 */
function findTables(lines: Line[], isBody: (i: number) => boolean): TableRun[] {
  const runs: TableRun[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = lines[i] as Line;
    if (!isBody(i) || first.segments.length < 2) {
      i++;
      continue;
    }
    const cols = first.segments;
    const tol = first.size * 0.6;
    const columnOf = (s: Segment): number => {
      for (let c = 0; c < cols.length; c++) {
        const col = cols[c] as Segment;
        const nextStart = cols[c + 1]?.x ?? Number.POSITIVE_INFINITY;
        if (Math.abs(s.x - col.x) <= tol || Math.abs(s.end - col.end) <= tol) return c;
        if (s.x >= col.x - tol && s.x < nextStart - tol && s.end <= nextStart + tol) return c;
      }
      return -1;
    };
    const rows: string[][] = [cols.map((s) => s.text)];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as Line;
      if (!isBody(j) || line.segments.length < 2) break;
      const prev = lines[j - 1] as Line;
      if (line.page === prev.page && prev.y - line.y > 3 * line.size) break;
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
      rows.push(row);
    }
    const cells = rows.flat().filter((c) => c !== '');
    const long = cells.filter((c) => c.length > MAX_CELL_CHARS).length;
    if (rows.length >= 2 && long * 2 < cells.length) {
      runs.push({ start: i, end: j, rows: padRows(rows), page: first.page });
      i = j;
    } else {
      i++;
    }
  }
  return runs;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** The usual distance between baselines of consecutive body lines. */
function typicalLeading(lines: Line[], bodySize: number): number {
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

function joinLines(a: string, b: string): string {
  // "well-" + "kept": keep the hyphen, add no space (never delete characters we cannot be sure of).
  if (/\p{L}-$/u.test(a) && /^\p{Ll}/u.test(b)) return a + b;
  return `${a} ${b}`;
}

interface Block {
  markdown: string;
  pageStart: number;
  pageEnd: number;
  table?: RawTable;
}

/** Builds the sections: headings split, body lines become paragraphs (by vertical gaps) and tables. */
function linesToSections(
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

/** A figure drawn on a page, with the height of its top edge (PDF units, larger = higher). */
export interface PlacedFigure {
  top: number;
  /** Share of the page's area the image is drawn over (1 = the whole page). */
  coverage: number;
  figure: RawFigure;
}

/**
 * On a page read by OCR, an image drawn over at least this share of the page is the scan of the
 * page itself, not a figure on it.
 */
export const PAGE_SCAN_COVERAGE = 0.7;

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
 * Lines for an OCR'd page from its markdown, laid out top to bottom as a text layer would be:
 * headings larger than the body (so the font-size rule finds them), table rows as aligned
 * segments (so the column rule finds them), one line per paragraph.
 */
function ocrLines(page: number, markdown: string, height: number, bodySize: number): Line[] {
  const lines: Line[] = [];
  let y = height - 40;
  const push = (text: string, size: number, segments: Segment[]): void => {
    y -= size * 1.2;
    const last = segments[segments.length - 1];
    lines.push({ page, y, x: segments[0]?.x ?? 40, end: last?.end ?? 40, size, text, segments });
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

/** Where a figure goes in the line list: before the first line below its top on its page. */
function figureIndex(lines: Line[], page: number, top: number): number {
  const i = lines.findIndex((l) => l.page > page || (l.page === page && l.y < top));
  return i < 0 ? lines.length : i;
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

/**
 * Headings from the outline, when it is believable: some entry's title is printed where it
 * points, or the entries point at more than one page (an outline whose every entry points at
 * page 1 and whose titles appear nowhere is broken, and font sizes do better).
 */
function outlineMarks(lines: Line[], targets: OutlineTarget[]): HeadingMark[] | null {
  if (targets.length === 0) return null;
  const { marks, found } = outlineHeadings(lines, targets);
  const pages = new Set(targets.map((t) => t.pageIndex));
  return found > 0 || pages.size > 1 || targets.length === 1 ? marks : null;
}

// ---------------------------------------------------------------------------------------------

async function destroyQuietly(task: LoadingTask): Promise<void> {
  try {
    await task.destroy();
  } catch {
    // already gone
  }
}

/** pdf.js ImageKind: how the pixels of a decoded image are laid out. */
const IMAGE_KIND = { GRAYSCALE_1BPP: 1, RGB_24BPP: 2, RGBA_32BPP: 3 } as const;

interface DecodedImage {
  width?: unknown;
  height?: unknown;
  kind?: unknown;
  data?: unknown;
}

/** A decoded pdf.js image as PNG bytes, or null when its layout is not one we know. */
async function decodedToPng(img: DecodedImage): Promise<Buffer | null> {
  const { width, height, kind, data } = img;
  if (
    typeof width !== 'number' ||
    typeof height !== 'number' ||
    !(data instanceof Uint8Array || data instanceof Uint8ClampedArray)
  )
    return null;
  if (kind === IMAGE_KIND.RGB_24BPP) return rawToPng(data, width, height, 3);
  if (kind === IMAGE_KIND.RGBA_32BPP) return rawToPng(data, width, height, 4);
  if (kind === IMAGE_KIND.GRAYSCALE_1BPP) {
    // One bit per pixel, rows padded to whole bytes, 1 = white.
    const rowBytes = (width + 7) >> 3;
    const gray = new Uint8Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        gray[y * width + x] = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
    return rawToPng(gray, width, height, 1);
  }
  return null;
}

function objectOf(page: PdfPage, id: string): Promise<DecodedImage | null> {
  const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    try {
      objs.get(id, (value: unknown) => resolve((value as DecodedImage | null) ?? null));
    } catch {
      resolve(null);
    }
  });
}

type Matrix = [number, number, number, number, number, number];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/**
 * The figure-sized images a page draws (pdf.js decodes them; we keep them as PNG), each with the
 * top of the box it is drawn in. An image drawn twice in the document is one figure (`seen`).
 */
async function pageFigures(
  pdfjs: Pdfjs,
  page: PdfPage,
  pageNumber: number,
  seen: Set<string>,
): Promise<{ figures: PlacedFigure[]; drawsImage: boolean }> {
  const OPS = pdfjs.OPS;
  const [x0 = 0, y0 = 0, x1 = 595, y1 = 842] = page.view;
  const pageArea = Math.max(1, Math.abs((x1 - x0) * (y1 - y0)));
  const list = await page.getOperatorList();
  const figures: PlacedFigure[] = [];
  let drawsImage = false;
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform && Array.isArray(args) && args.length === 6)
      ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
      drawsImage = true;
      const first = args?.[0];
      const img =
        typeof first === 'string'
          ? await objectOf(page, first)
          : ((first as DecodedImage | undefined) ?? null);
      if (!img || typeof img.width !== 'number' || typeof img.height !== 'number') continue;
      if (!isFigureSized(img.width, img.height)) continue;
      const png = await decodedToPng(img).catch(() => null);
      if (!png) continue;
      const key = createHash('sha256').update(png).digest('hex');
      if (seen.has(key)) continue;
      seen.add(key);
      // The image fills the unit square under the CTM; its top edge is the larger y.
      const top = Math.max(ctm[5], ctm[5] + ctm[3], ctm[5] + ctm[1], ctm[5] + ctm[1] + ctm[3]);
      figures.push({
        top,
        coverage: Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) / pageArea,
        figure: {
          bytes: png,
          mime_type: 'image/png',
          width: img.width,
          height: img.height,
          page_number: pageNumber,
          alt: null,
          ocr_text: null,
        },
      });
    }
  }
  return { figures, drawsImage };
}

async function pageText(
  pdfjs: Pdfjs,
  doc: PdfDocument,
  n: number,
  images: { wanted: boolean; seen: Set<string> },
): Promise<PageText & { drawsImage: boolean }> {
  let page: PdfPage;
  try {
    page = await doc.getPage(n);
  } catch (err) {
    throw new DocumentError(
      'corrupt',
      `the PDF is damaged: page ${n} cannot be read (${reasonOf(err)})`,
      { cause: err },
    );
  }
  try {
    const content = await page.getTextContent({
      includeMarkedContent: false,
      disableNormalization: false,
    });
    const [, y0 = 0, , y1 = 842] = page.view;
    let figures: PlacedFigure[] = [];
    let drawsImage = false;
    if (images.wanted) {
      try {
        ({ figures, drawsImage } = await pageFigures(pdfjs, page, n, images.seen));
      } catch {
        // A page whose drawing cannot be read still has its text; it just yields no figures.
      }
    }
    return {
      items: content.items as RawTextItem[],
      height: Math.abs(y1 - y0),
      figures,
      drawsImage,
    };
  } catch (err) {
    throw new DocumentError(
      'corrupt',
      `the PDF is damaged: the text of page ${n} cannot be read (${reasonOf(err)})`,
      { cause: err },
    );
  } finally {
    page.cleanup();
  }
}

/**
 * Image XObjects are stream dictionaries, never inside object streams, so `/Subtype /Image` shows
 * in the raw file; without one, the operator lists (a second pass over every page) are skipped.
 * Inline images hide inside compressed content streams, and are small by nature: not looked for.
 */
function mayHaveImages(bytes: Buffer): boolean {
  return /\/Subtype\s*\/Image\b/.test(bytes.toString('latin1'));
}

function itemsText(items: RawTextItem[]): string {
  return items.map((i) => (typeof i.str === 'string' ? i.str : '')).join(' ');
}

export async function parsePdf(bytes: Buffer, opts: ParseOptions = {}): Promise<ParsedDocument> {
  const { signal } = opts;
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  throwIfAborted(signal);
  const { pdfjs, assets } = await loadPdfjs();
  const task = openPdf(pdfjs, assets, bytes);
  try {
    let doc: PdfDocument;
    try {
      doc = await abortable(task.promise, signal);
    } catch (err) {
      throw loadError(err);
    }
    const pageCount = doc.numPages;
    if (pageCount > maxPages) {
      throw new DocumentError(
        'too_large',
        `the PDF has ${pageCount} pages, more than the ${maxPages} allowed`,
      );
    }
    let title: string | null = null;
    try {
      const meta = await abortable(doc.getMetadata(), signal);
      const info = meta.info as { Title?: unknown } | undefined;
      title = typeof info?.Title === 'string' ? cleanPdfTitle(info.Title) : null;
    } catch (err) {
      if (err instanceof DocumentError) throw err;
    }
    const images = { wanted: mayHaveImages(bytes), seen: new Set<string>() };
    const pages: (PageText & { drawsImage: boolean })[] = [];
    for (let n = 1; n <= pageCount; n++) {
      throwIfAborted(signal);
      pages.push(await abortable(pageText(pdfjs, doc, n, images), signal));
    }
    const needOcr = pages.flatMap((p, i) =>
      judgeTextLayer(itemsText(p.items), p.drawsImage).usable ? [] : [i],
    );
    const ocrPages: number[] = [];
    if (needOcr.length > 0 && opts.ocr) {
      const result = await abortable(
        opts.ocr({ kind: 'pdf', bytes, pages: needOcr, signal }),
        signal,
      );
      for (const read of result.pages) {
        const page = pages[read.index];
        if (!page || !needOcr.includes(read.index)) continue;
        page.ocrMarkdown = read.markdown;
        page.items = [];
        page.figures = (page.figures ?? []).filter((f) => f.coverage < PAGE_SCAN_COVERAGE);
        ocrPages.push(read.index + 1);
      }
    } else if (needOcr.length === pageCount) {
      throw new DocumentError(
        'needs_ocr',
        'the PDF has no usable text layer and no OCR engine is configured to read its pages',
      );
    }
    const targets = await abortable(outlineTargets(doc), signal);
    throwIfAborted(signal);
    const parsed = assembleDocument(
      'pdf',
      title,
      pageCount,
      analysePages(pages, targets),
      ocrPages.sort((a, b) => a - b),
    );
    if (parsed.sections.length === 0 && parsed.figures.length === 0) {
      throw new DocumentError('needs_ocr', 'no text or images could be read from the PDF');
    }
    return parsed;
  } finally {
    await destroyQuietly(task);
  }
}

/** Benchmark baseline: pdf.js getTextContent over every page, nothing else; returns the characters extracted. */
export async function bareExtractPdf(bytes: Buffer): Promise<number> {
  const { pdfjs, assets } = await loadPdfjs();
  const task = openPdf(pdfjs, assets, bytes);
  try {
    const doc = await task.promise;
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) if ('str' in item) chars += item.str.length;
      page.cleanup();
    }
    return chars;
  } finally {
    await destroyQuietly(task);
  }
}
