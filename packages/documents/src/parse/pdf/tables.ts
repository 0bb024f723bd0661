import { padRows } from '../text.js';
import type { Line, Segment } from './lines.js';

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
