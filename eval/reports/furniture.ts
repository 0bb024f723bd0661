/**
 * Page furniture left in chunks (issue 11's target "no page furniture in any chunk"): a chunk
 * line that is a line running on at least half the pages of its PDF (at least 3; a long line of
 * a long PDF, at the top or bottom of a third), as `pdftotext` reads them — a running header or footer, a
 * letterhead, a sidebar — or a "Page N of M" (also in roman numerals) anywhere. Photo captions ("Photograph 12") repeat with other numbers on many pages and are
 * content, not furniture, and so is a label alone on its line ("Observations:"), which an
 * inspection app repeats under every item. A running text quoted inside a sentence is not counted.
 */

/** A line as compared: spaces collapsed, lower case, every digit run as `#`. Pure. */
export function lineKey(line: string): string {
  return line.replace(/\s+/g, ' ').trim().toLowerCase().replace(/\d+/g, '#');
}

const PAGE_OF = /\bpage #+ of #+|\bp ?a ?g ?e ?\| ?#|\bpage [ivxlc]{1,6} of [ivxlc]{1,6}\b/;
const CAPTION = /^(photograph|photo|figure|fig\.?|image|picture|item) #/;
const LABEL = /^[\p{L} ]{3,40}:$/u;

/**
 * The lines that run on at least half the pages (and at least 3) of a document, or, long ones
 * (20 letters or more) of a document of 12 pages or more, among the first or last two lines of
 * a third of its pages (and at least 4), three of them in a row. Pure.
 */
export function runningLines(pages: readonly string[]): Set<string> {
  const seen = new Map<string, number>();
  const atEdge = new Map<string, number>();
  // The longest run of pages in a row each line is at the edge of.
  const last = new Map<string, number>();
  const current = new Map<string, number>();
  const longest = new Map<string, number>();
  pages.forEach((page, i) => {
    const lines = page
      .split('\n')
      .map(lineKey)
      .filter((k) => k.replace(/[#\W_]/g, '').length >= 8);
    for (const k of new Set(lines)) seen.set(k, (seen.get(k) ?? 0) + 1);
    for (const k of new Set([...lines.slice(0, 2), ...lines.slice(-2)])) {
      atEdge.set(k, (atEdge.get(k) ?? 0) + 1);
      const run = last.get(k) === i - 1 ? (current.get(k) ?? 0) + 1 : 1;
      current.set(k, run);
      last.set(k, i);
      longest.set(k, Math.max(longest.get(k) ?? 0, run));
    }
  });
  const min = Math.max(3, Math.ceil(pages.length / 2));
  // A long line (a report's name and address) at the top or bottom of a third of a long
  // document's pages runs too: appendices of photos and copies often print without it.
  const third = Math.max(4, Math.ceil(pages.length / 3));
  const long = (k: string): boolean => pages.length >= 12 && k.replace(/[^a-z]/g, '').length >= 20;
  const runs = (k: string, n: number): boolean =>
    n >= min || (long(k) && (atEdge.get(k) ?? 0) >= third && (longest.get(k) ?? 0) >= 3);
  return new Set(
    [...seen].filter(([k, n]) => runs(k, n) && !CAPTION.test(k) && !LABEL.test(k)).map(([k]) => k),
  );
}

/** Whether a chunk holds a line that runs on its document's pages, or a "Page N of M". Pure. */
export function holdsFurniture(chunk: string, running: ReadonlySet<string>): boolean {
  if (PAGE_OF.test(lineKey(chunk))) return true;
  return chunk.split('\n').some((line) => running.has(lineKey(line.replace(/^[#>*\s-]+/, ''))));
}
