/**
 * Rules for text that came from, or must go to, OCR. Pure functions, unit-tested.
 */

/** Share of unmappable characters at or above which a page's text layer is garbage. */
export const GARBLED_SHARE = 0.25;
/** A page drawing an image with fewer visible characters than this is treated as a scan. */
export const SCAN_MAX_CHARS = 16;

/**
 * Characters a text layer produces when the PDF's fonts cannot be mapped to Unicode: the
 * replacement character, private-use code points (glyph ids passed through), control characters
 * other than whitespace, and unassigned code points.
 */
const UNMAPPABLE = /[\uFFFD\p{Co}\p{Cn}\p{Cc}]/u;

/**
 * Symbols prose hardly uses, which a font whose codes are its glyph numbers shifted into ASCII
 * ("<./;6.=ÿ-814.>ÿ@ABCD") prints in great number: a page of 40 characters or more with
 * {@link SHIFTED_SHARE} of them or more has no words to read.
 */
const SHIFTED = /[<=>@[\]\\^`{|}~\u00FF]/u;
export const SHIFTED_SHARE = 0.12;
const SHIFTED_MIN_CHARS = 40;

export interface TextLayerVerdict {
  /** Non-whitespace characters on the page. */
  chars: number;
  /** Of those, unmappable ones (see above). */
  unmappable: number;
  usable: boolean;
  reason: 'ok' | 'empty' | 'garbled' | 'scan';
}

/**
 * Whether a page's text layer can be used as it is, or the page must be OCR'd:
 * - `empty`: no visible character at all;
 * - `garbled`: at least {@link GARBLED_SHARE} of the visible characters are unmappable, or at
 *   least {@link SHIFTED_SHARE} of 40 or more are symbols of a font shifted into ASCII;
 * - `scan`: the page draws an image and has fewer than {@link SCAN_MAX_CHARS} visible
 *   characters (a scanned page with a stamped page number or a stray OCR'd word).
 */
export function judgeTextLayer(text: string, drawsImage: boolean): TextLayerVerdict {
  let chars = 0;
  let unmappable = 0;
  let shifted = 0;
  for (const ch of text) {
    if (/\s/u.test(ch)) continue;
    chars++;
    if (UNMAPPABLE.test(ch)) unmappable++;
    else if (SHIFTED.test(ch)) shifted++;
  }
  if (chars === 0) return { chars, unmappable, usable: false, reason: 'empty' };
  if (
    unmappable / chars >= GARBLED_SHARE ||
    (chars >= SHIFTED_MIN_CHARS && shifted / chars >= SHIFTED_SHARE)
  )
    return { chars, unmappable, usable: false, reason: 'garbled' };
  if (drawsImage && chars < SCAN_MAX_CHARS)
    return { chars, unmappable, usable: false, reason: 'scan' };
  return { chars, unmappable, usable: true, reason: 'ok' };
}

/** One block of OCR markdown: a heading, a table (rows of cells) or a paragraph. */
export type MarkdownBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'paragraph'; text: string };

const TABLE_SEPARATOR = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$/;

function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.replace(/\\\|/g, '|').trim());
}

/**
 * Splits an OCR engine's page markdown into blocks: ATX headings, GFM tables (the separator row
 * dropped) and paragraphs (blank-line separated; their lines joined). Other markdown is text.
 */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let para: string[] = [];
  let table: string[][] | null = null;
  const flush = (): void => {
    if (para.length > 0) blocks.push({ kind: 'paragraph', text: para.join(' ') });
    para = [];
    if (table && table.length > 0) blocks.push({ kind: 'table', rows: table });
    table = null;
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      flush();
      const text = (heading[2] ?? '').trim();
      if (text !== '') blocks.push({ kind: 'heading', level: (heading[1] ?? '#').length, text });
      continue;
    }
    if (line.startsWith('|')) {
      if (para.length > 0) flush();
      if (TABLE_SEPARATOR.test(line)) continue;
      table ??= [];
      table.push(tableCells(line));
      continue;
    }
    if (table) flush();
    para.push(line);
  }
  flush();
  return blocks;
}

/** Markdown as plain text (headings and table cells kept, markup gone), e.g. a figure's ocr_text. */
export function markdownPlainText(markdown: string): string {
  return markdownBlocks(markdown)
    .map((b) =>
      b.kind === 'table'
        ? b.rows.map((r) => r.join(' ')).join('\n')
        : b.text.replace(/\\(.)/g, '$1'),
    )
    .join('\n')
    .trim();
}
