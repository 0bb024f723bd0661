/**
 * Tesseract's TSV output (one row per page, block, paragraph, line and word, with boxes) to
 * markdown. Pure: the layout rules live here and are unit-tested without Tesseract.
 */

interface Word {
  left: number;
  width: number;
  height: number;
  text: string;
}

interface OcrLine {
  key: string;
  par: string;
  height: number;
  words: Word[];
}

/** A line at least this many times the body line height is a heading (if short). */
export const HEADING_RATIO = 1.25;
/**
 * Headings on a page within this ratio of the largest one are top-level (`#`), smaller ones `##`.
 * Line boxes include ascenders and descenders ("Plumbing" is taller than "Roof" at the same
 * size), so only a clear difference makes a second level.
 */
export const SAME_LEVEL_RATIO = 1.3;
/** A gap between words wider than this many line heights separates table cells. */
export const CELL_GAP_RATIO = 1.2;
/**
 * Words Tesseract is less sure of than this (0-100) are dropped. Kept low on purpose: accented
 * words are often scored near 0 although read right, and a lost word costs more than a stray one.
 */
export const MIN_WORD_CONFIDENCE = 0;

const MAX_HEADING_CHARS = 120;

function parseTsv(tsv: string): OcrLine[] {
  const lines = new Map<string, OcrLine>();
  for (const row of tsv.split(/\r?\n/).slice(1)) {
    const f = row.split('\t');
    if (f.length < 12) continue;
    const [level, page, block, par, line, , left, , width, height, conf] = f.map(Number);
    const key = `${page}.${block}.${par}.${line}`;
    if (level === 4) {
      lines.set(key, { key, par: `${page}.${block}.${par}`, height: height ?? 0, words: [] });
    } else if (level === 5) {
      const text = (f.slice(11).join('\t') ?? '').trim();
      if (text === '' || (conf ?? -1) < MIN_WORD_CONFIDENCE) continue;
      lines.get(key)?.words.push({ left: left ?? 0, width: width ?? 0, height: height ?? 0, text });
    }
  }
  return [...lines.values()].filter((l) => l.words.length > 0);
}

/** The line height most characters are set in (the body text's). */
function bodyHeight(lines: OcrLine[]): number {
  const weighted: { h: number; n: number }[] = lines.map((l) => ({
    h: l.height,
    n: l.words.reduce((s, w) => s + w.text.length, 0),
  }));
  weighted.sort((a, b) => a.h - b.h);
  const total = weighted.reduce((s, w) => s + w.n, 0);
  let acc = 0;
  for (const w of weighted) {
    acc += w.n;
    if (acc * 2 >= total) return w.h || 1;
  }
  return 1;
}

/** A line's words split into cells at gaps wider than {@link CELL_GAP_RATIO} line heights. */
function cells(line: OcrLine): string[] {
  const out: string[][] = [];
  let end = Number.NEGATIVE_INFINITY;
  for (const w of [...line.words].sort((a, b) => a.left - b.left)) {
    if (out.length === 0 || w.left - end > CELL_GAP_RATIO * line.height) out.push([]);
    out[out.length - 1]!.push(w.text);
    end = w.left + w.width;
  }
  return out.map((c) => c.join(' '));
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** "well-" + "kept": the hyphen stays and no space is added (as the PDF path does). */
function joinText(a: string, b: string): string {
  if (/\p{L}-$/u.test(a) && /^\p{Ll}/u.test(b)) return a + b;
  // A date or number wrapped at its hyphen ("2026-07-" / "03", "(0-" / "50%)") is one.
  if (/\d-$/.test(a) && /^\d/.test(b)) return a + b;
  return `${a} ${b}`;
}

/**
 * Markdown for one OCR'd page: short lines (in paragraphs of at most two lines) set well above
 * the body size become headings (`#`, or `##` when clearly smaller than the page's largest);
 * runs of two or more lines split into the same number (two or more) of cells by wide gaps
 * become a GFM table (first row as header); the rest are paragraphs as Tesseract found them,
 * lines joined (a line-end hyphen kept, without a space, in a word or between digits).
 */
export function tesseractTsvToMarkdown(tsv: string): string {
  const lines = parseTsv(tsv);
  if (lines.length === 0) return '';
  const body = bodyHeight(lines);
  const linesPerPar = new Map<string, number>();
  for (const l of lines) linesPerPar.set(l.par, (linesPerPar.get(l.par) ?? 0) + 1);
  const isHeading = (line: OcrLine, text: string): boolean =>
    // A heading is a paragraph of its own (one or two lines), not split into cells.
    cells(line).length === 1 &&
    (linesPerPar.get(line.par) ?? 0) <= 2 &&
    line.height / body >= HEADING_RATIO &&
    text.length < MAX_HEADING_CHARS &&
    !/[.:;,]$/.test(text) &&
    /\p{L}/u.test(text);
  const headingHeights = lines
    .filter((l) => isHeading(l, l.words.map((w) => w.text).join(' ')))
    .map((l) => l.height);
  const tallest = Math.max(0, ...headingHeights);
  const blocks: string[] = [];
  let para: { key: string; text: string } | null = null;
  let table: string[][] = [];
  const flushPara = (): void => {
    if (para) blocks.push(para.text);
    para = null;
  };
  const flushTable = (): void => {
    if (table.length >= 2) {
      const width = Math.max(...table.map((r) => r.length));
      const row = (r: string[]): string =>
        `| ${Array.from({ length: width }, (_, i) => escapeCell(r[i] ?? '')).join(' | ')} |`;
      blocks.push(
        [row(table[0]!), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`]
          .concat(table.slice(1).map(row))
          .join('\n'),
      );
    } else if (table.length === 1) {
      blocks.push(table[0]!.join(' '));
    }
    table = [];
  };
  for (const line of lines) {
    const text = line.words.map((w) => w.text).join(' ');
    const split = cells(line);
    if (isHeading(line, text)) {
      flushPara();
      flushTable();
      blocks.push(`${line.height * SAME_LEVEL_RATIO >= tallest ? '#' : '##'} ${text}`);
      continue;
    }
    if (split.length >= 2) {
      flushPara();
      if (table.length > 0 && split.length !== table[0]!.length) flushTable();
      table.push(split);
      continue;
    }
    flushTable();
    if (para && para.key === line.par) para.text = joinText(para.text, text);
    else {
      flushPara();
      para = { key: line.par, text };
    }
  }
  flushPara();
  flushTable();
  return blocks.join('\n\n');
}
