import TurndownService from 'turndown';

/** Collapses runs of whitespace (including non-breaking spaces) to single spaces and trims. */
export function normalizeSpace(text: string): string {
  return text.replace(/[\s\u00a0\u200b\ufeff]+/g, ' ').trim();
}

const escaper = new TurndownService();

/** Escapes text so markdown shows it literally (the same escaping turndown applies to HTML text). */
export function escapeMarkdown(text: string): string {
  return escaper.escape(text);
}

/** A GFM table: the first row is the header row; cells are escaped text, rows padded to one width. */
export function rowsToMarkdown(rows: string[][]): string {
  const width = Math.max(1, ...rows.map((r) => r.length));
  const cell = (text: string): string => {
    const escaped = escapeMarkdown(normalizeSpace(text)).replace(/\|/g, '\\|');
    return escaped.padEnd(3, ' ');
  };
  const line = (row: string[]): string => {
    const cells: string[] = [];
    for (let i = 0; i < width; i++) cells.push(cell(row[i] ?? ''));
    return `| ${cells.join(' | ')} |`;
  };
  const [head = [], ...body] = rows;
  const out = [line(head), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`];
  for (const row of body) out.push(line(row));
  return out.join('\n');
}

/** Pads rows to the widest row's length with empty cells. */
export function padRows(rows: string[][]): string[][] {
  const width = Math.max(0, ...rows.map((r) => r.length));
  return rows.map((r) =>
    r.length < width ? [...r, ...Array.from({ length: width - r.length }, () => '')] : r,
  );
}

/**
 * Words, few and short, as a label or a column's title is ("Owner of Public Record", "Land Only
 * Price"): two letters in a row at least, at most `maxChars` characters and `maxWords` words
 * (text whose spaces are single, as `normalizeSpace` leaves them). Pure.
 */
export function fewWords(text: string, maxChars: number, maxWords: number): boolean {
  return /\p{L}{2}/u.test(text) && text.length <= maxChars && text.split(' ').length <= maxWords;
}
