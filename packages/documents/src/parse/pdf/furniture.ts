import { MARK_GLYPHS } from './lines.js';
import type { Line, Word } from './lines.js';

// Layout analysis

/** Letters a running line's echo has at least: the document's name, not a word of it. */
const ECHO_LETTERS = 20;
/** On how many pages an echo of a running line must be printed at one height. */
const ECHO_PAGES = 3;

/** A line's words, lower case, without the bars and dashes between them. */
function lineWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w !== '');
}

/**
 * The running header printed again away from the edges: a report's section dividers print its
 * name in mid-page ("ACME SURVEYS | Roof Report" under each chapter's number and title), where
 * the edge rule does not look. A line is such an echo when every word of it is a word of a
 * running line, it has 20 letters or more, and a line of the same text stands at the same height
 * on 3 pages or more. A cover's title, printed once, and a form's repeated labels, which are no
 * running line's words, stay.
 */
function runningEchoes(
  pages: Line[][],
  heights: number[],
  isRunning: (l: Line, h: number) => boolean,
): Set<Line> {
  const runningWords = new Set<string>();
  const others: Line[] = [];
  pages.forEach((lines, i) => {
    const h = heights[i] ?? 842;
    for (const l of lines) {
      if (!isRunning(l, h)) others.push(l);
      else for (const w of lineWords(l.text)) runningWords.add(w);
    }
  });
  const places = new Map<string, Line[]>();
  for (const l of others) {
    const words = lineWords(l.text);
    if (words.length === 0 || !words.every((w) => runningWords.has(w))) continue;
    if (words.join('').replace(/[^\p{L}]/gu, '').length < ECHO_LETTERS) continue;
    const place = `${Math.round(l.y)}|${words.join(' ')}`;
    const at = places.get(place);
    if (at) at.push(l);
    else places.set(place, [l]);
  }
  const echoes = new Set<Line>();
  for (const lines of places.values())
    if (new Set(lines.map((l) => l.page)).size >= ECHO_PAGES) for (const l of lines) echoes.add(l);
  return echoes;
}

/**
 * On how many pages a line must repeat at an edge to be the document's, not the page's: half of
 * them and at least 3; of two pages, both.
 */
function repeatThreshold(pageCount: number): number {
  return pageCount === 2 ? 2 : Math.max(3, Math.ceil(pageCount / 2));
}

/** Words a running line that differs in one of them has at least. */
const MASKED_WORDS = 5;

/**
 * Running headers and footers: the same text (digits ignored) at the same height on at least
 * half of the pages (and at least 3; both of two), near the top or bottom of the page, or the
 * same but one word (a form's code) of 5 words or more; one that numbers its page ("Job No.
 * 25009 … P a g e | 3") on two pages or more.
 */
export function removeRunningLines(pages: Line[][], heights: number[]): Line[][] {
  if (pages.length < 2) return pages;
  // The edge it runs along, digits and spaces ignored: "Pa g e |2" and "P a g e |3" are the same
  // footer, on a portrait page and on a landscape one. Null: not near an edge.
  // Page numbers in roman numerals (front matter: "Building Diagnostic Robotics i") count as
  // numbers too.
  const shape = (text: string): string =>
    text
      .replace(/\bpage\s*[ivxlc]{1,6}\s*of\s*[ivxlc]{1,6}\b/gi, 'page # of #')
      .replace(/\d+/g, '#')
      .replace(/(^|\s)[ivxlc]{1,6}$/i, '$1#')
      .replace(/\s+/g, '')
      .toLowerCase();
  const edgeOf = (l: Line, h: number): string | null =>
    l.y > h * 0.88 ? 'top' : l.y < h * 0.12 ? 'bottom' : null;
  const key = (l: Line, h: number): string | null => {
    const edge = edgeOf(l, h);
    return edge && `${edge}|${shape(l.text)}`;
  };
  const segmentKeys = (l: Line, h: number): string[] => {
    const edge = edgeOf(l, h);
    return edge ? l.segments.map((s) => `${edge}|${shape(s.text)}`) : [];
  };
  // A footer that names another form on each page ("Form 1004 - " then the software's name, on
  // a form page; "Form MAP - " and the same, on a map): its words but one, that one masked,
  // each way it can be masked.
  const maskedKeys = (l: Line, h: number): string[] => {
    const edge = edgeOf(l, h);
    const words = l.text.split(/\s+/).filter((w) => w !== '');
    if (!edge || words.length < MASKED_WORDS) return [];
    return words.map(
      (_, i) => `${edge}|${shape(words.map((w, j) => (j === i ? '*' : w)).join(' '))}`,
    );
  };
  const counts = new Map<string, number>();
  const segmentCounts = new Map<string, number>();
  const maskedCounts = new Map<string, number>();
  // Each edge line's masked keys, made once and read again when lines are dropped.
  const maskedOf = new Map<Line, string[]>();
  const last = new Map<string, number>();
  const current = new Map<string, number>();
  const longest = new Map<string, number>();
  pages.forEach((lines, i) => {
    const h = heights[i] ?? 842;
    const seen = new Set<string>();
    const seenSegments = new Set<string>();
    const seenMasked = new Set<string>();
    for (const l of lines) {
      const k = key(l, h);
      if (k) seen.add(k);
      for (const sk of segmentKeys(l, h)) seenSegments.add(sk);
      const masked = maskedKeys(l, h);
      if (masked.length > 0) maskedOf.set(l, masked);
      for (const mk of masked) seenMasked.add(mk);
    }
    for (const k of seenMasked) maskedCounts.set(k, (maskedCounts.get(k) ?? 0) + 1);
    for (const k of seen) {
      counts.set(k, (counts.get(k) ?? 0) + 1);
      // The longest run of pages in a row it is on.
      const run = last.get(k) === i - 1 ? (current.get(k) ?? 0) + 1 : 1;
      current.set(k, run);
      last.set(k, i);
      longest.set(k, Math.max(longest.get(k) ?? 0, run));
    }
    for (const k of seenSegments) segmentCounts.set(k, (segmentCounts.get(k) ?? 0) + 1);
  });
  const threshold = repeatThreshold(pages.length);
  const numbered = (k: string): boolean => /page\W{0,2}#/.test(k);
  // A long line (a report's own name and address over a rule) that runs on a third of a long
  // document's pages, three of them in a row at least, is its header too, when appendices of
  // photos and copies print without it; a section's title repeated over its own pages runs on
  // fewer, and a title that starts every other page (one analysis per property) in no row.
  const long = (k: string): boolean =>
    pages.length >= 12 &&
    (longest.get(k) ?? 0) >= 3 &&
    k.slice(k.indexOf('|') + 1).replace(/[^a-z]/g, '').length >= 20;
  const needed = (k: string): number =>
    numbered(k)
      ? 2
      : long(k)
        ? Math.min(threshold, Math.max(4, Math.ceil(pages.length / 3)))
        : threshold;
  const running = new Set([...counts].filter(([k, n]) => n >= needed(k)).map(([k]) => k));
  // Long enough (20 letters besides the masked word) to be the document's own, not a phrase.
  const runningMasked = new Set(
    [...maskedCounts]
      .filter(([k, n]) => n >= threshold && k.replace(/[^a-z]/g, '').length >= 20)
      .map(([k]) => k),
  );
  if (running.size === 0 && runningMasked.size === 0) return pages;
  const echoes = runningEchoes(pages, heights, (l, h) => {
    const k = key(l, h);
    return k !== null && running.has(k);
  });
  // A footer that differs on one page in one cell ("… 19 July 2026 · Page 14 of 14" where the
  // others say "… SHA-256: d1ce… · Page 3 of 14"): two or more of its cells, and most of them,
  // run on the other pages. A running cell that numbers or dates the form, printed alone on
  // another page's edge ("UAD Version 9/2011" under an addendum, "File # 100-20000" over a
  // sketch: cells of every form page's footer and header), runs too; a title alone at the top
  // that a header lists among its cells ("SUMMARY" under a bar of chapters) does not.
  const runningCell = (k: string): boolean => (segmentCounts.get(k) ?? 0) >= threshold;
  const mostlyRunning = (l: Line, h: number): boolean => {
    const keys = segmentKeys(l, h);
    const n = keys.filter(runningCell).length;
    if (keys.length === 1) return n === 1 && /\d/.test(l.text);
    return n >= 2 && n * 2 > keys.length;
  };
  return pages.map((lines, i) =>
    lines.filter((l) => {
      const h = heights[i] ?? 842;
      const k = key(l, h);
      if (echoes.has(l)) return false;
      return (
        k === null ||
        (!running.has(k) &&
          !mostlyRunning(l, h) &&
          !(maskedOf.get(l) ?? []).some((mk) => runningMasked.has(mk)))
      );
    }),
  );
}

/**
 * "Page 3 of 17", "3 of 17", "3/17", "Page 3", "- 3 -", "3": a page number and nothing else;
 * also "Page 1 of 17Page 1 of 17", a footer some tools draw twice, and "Page IV of VII".
 */
const PAGE_NUMBER =
  /^(?:page\s*)?[-–—]?\s*\d{1,4}\s*(?:(?:of|\/)\s*\d{1,4})?\s*[-–—]?(?:\s*page\s*\d{1,4}\s*of\s*\d{1,4})*$|^page\s+[ivxlc]{1,6}\s+of\s+[ivxlc]{1,6}$/i;

export function isPageNumber(text: string): boolean {
  // Front matter is numbered in lower-case roman numerals ("i", "iv"); capitals are codes.
  return PAGE_NUMBER.test(text.trim()) || /^[ivxlc]{1,6}$/.test(text.trim());
}

function withoutSegments(line: Line, drop: (i: number) => boolean): Line | null {
  const segments = line.segments.filter((_, i) => !drop(i));
  if (segments.length === line.segments.length) return line;
  if (segments.length === 0) return null;
  const first = segments[0] as Line['segments'][number];
  const last = segments[segments.length - 1] as Line['segments'][number];
  const words = (line.words ?? []).filter((w) =>
    segments.some((s) => w.x >= s.x - 1 && w.end <= s.end + 1),
  );
  return {
    ...line,
    x: first.x,
    end: last.end,
    text: segments.map((s) => s.text).join(' '),
    segments,
    words,
  };
}

/** Whether a segment's text is only column codes ("S R C NP NI NO"): a rating grid's header, never a sidebar. */
function codesOnly(text: string): boolean {
  // Capitals and spaces, as /^(?:[A-Z]{1,3}\s*)+$/ says it without its backtracking.
  return /^[A-Z][A-Z\s]*$/.test(text) || text.length <= 2;
}

/**
 * Page furniture that is not a whole running line:
 * - page numbers ("Page 3 of 17", "- 3 -") near the top or bottom edge, alone or as one cell of
 *   a footer line;
 * - sidebars: a segment in the outer third of the page (a narrow column beside the body) whose
 *   text repeats at the same place on at least half of the pages (and at least 3; marks,
 *   codes and one- or two-character texts never count), such as a
 *   list of the report's chapters printed down the margin of every page. Dropped from the line
 *   it shares with body text, so it is never spliced into a heading or paragraph.
 */
export function removePageFurniture(
  pages: Line[][],
  heights: number[],
  widths: number[],
): Line[][] {
  const edge = (l: Line, i: number): boolean => {
    const h = heights[i] ?? 842;
    return l.y > h * 0.9 || l.y < h * 0.1;
  };
  // By left edge, the segment's own baseline and text: a sidebar stands at the same place on
  // every page (a value repeated down a table column does not).
  const key = (l: Line, s: Line['segments'][number]): string =>
    `${Math.round(s.x / 4)}|${Math.round((s.y ?? l.y) / 3)}|${s.text.toLowerCase()}`;
  // The body's left margin: where most characters' lines start. A left sidebar ends before it
  // (a word wrapped onto a line of its own at the margin is body text).
  const starts = new Map<number, number>();
  for (const l of pages.flat())
    starts.set(Math.round(l.x), (starts.get(Math.round(l.x)) ?? 0) + l.text.length);
  const bodyLeft = [...starts].reduce((best, e) => (e[1] > best[1] ? e : best), [0, -1])[0];
  const outer = (s: Line['segments'][number], i: number): boolean => {
    const w = widths[i] ?? 612;
    return s.end - s.x <= w * 0.3 && (s.x >= w * 0.65 || s.end < bodyLeft - 4);
  };
  const counts = new Map<string, number>();
  if (pages.length >= 3) {
    pages.forEach((lines, i) => {
      const seen = new Set<string>();
      for (const l of lines)
        for (const s of l.segments) if (outer(s, i) && !codesOnly(s.text)) seen.add(key(l, s));
      for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
    });
  }
  const threshold = repeatThreshold(pages.length);
  return pages.map((lines, i) =>
    lines.flatMap((l) => {
      const kept = withoutSegments(l, (k) => {
        const s = l.segments[k] as Line['segments'][number];
        if (edge(l, i) && isPageNumber(s.text)) return true;
        return outer(s, i) && (counts.get(key(l, s)) ?? 0) >= threshold && !codesOnly(s.text);
      });
      return kept ? [kept] : [];
    }),
  );
}

/** A table of contents entry: a title, a leader of dots and its page ("Zoning ........ 36"). */
const CONTENTS_ENTRY = /(?:\.\s?){4,}\s*\d{1,4}$|…{2,}\s*\d{1,4}$/;

/** A column code of a rating or check form ("I", "NI", "NP", "D"): one to three capitals. */
const COLUMN_CODE = /^[A-Z]{1,3}$/;
/** A mark printed among the codes ("X", "✓", "☒", an empty box). */
const CODE_MARK = new RegExp(`^[${MARK_GLYPHS}☐xX]$`, 'u');
/** On how many lines a run of codes must open an item for it to be the form's legend. */
const LEGEND_LINES = 5;

/** The column codes a line opens with, and how many of its words they and their marks take. */
function leadingCodes(words: readonly Word[]): { codes: string[]; ends: number[] } {
  const codes: string[] = [];
  const ends: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const t = (words[i] as Word).text;
    if (CODE_MARK.test(t)) continue;
    if (!COLUMN_CODE.test(t)) break;
    codes.push(t);
    ends.push(i + 1);
  }
  return { codes, ends };
}

/** The words of `text` after its first `n`, whitespace kept as it was. */
function afterWords(text: string, n: number): string {
  return text.replace(new RegExp(`^\\s*(?:\\S+\\s+){${n}}`), '');
}

/**
 * A check form's column codes printed before every item ("I NI D X NP Microwave Oven", one
 * program's inspection form): a legend, not the item's name, so it goes from the start of each
 * line it opens. A run of three codes or more (marks among them ignored) opening at least
 * `LEGEND_LINES` lines, each with words after it, is the legend; each line loses the longest
 * such run it opens with ("I NI D NP AC Unit" keeps "AC Unit"). A line of codes alone (a rating
 * grid's column header) stays, and so do letters spaced out ("R O O M 0 1": a letter twice, none
 * of two). Pure.
 */
export function removeCheckColumnLegends(lines: Line[]): Line[] {
  const counts = new Map<string, number>();
  const leads = lines.map((l) => {
    const words = l.words ?? [];
    const lead = leadingCodes(words);
    const last = lead.ends.at(-1) ?? 0;
    // Letters spaced out ("R O O M 0 1") are a word, not codes: codes differ, and some have two
    // letters or three.
    const distinct = new Set(lead.codes).size === lead.codes.length;
    if (lead.codes.length < 3 || last >= words.length || !distinct) return null;
    if (!lead.codes.some((c) => c.length > 1)) return null;
    for (let k = 3; k <= lead.codes.length; k++) {
      const key = lead.codes.slice(0, k).join(' ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return lead;
  });
  if (![...counts.values()].some((n) => n >= LEGEND_LINES)) return lines;
  return lines.map((l, i) => {
    const lead = leads[i];
    if (!lead) return l;
    let k = lead.codes.length;
    while (k >= 3 && (counts.get(lead.codes.slice(0, k).join(' ')) ?? 0) < LEGEND_LINES) k--;
    if (k < 3) return l;
    const words = l.words ?? [];
    const kept = words.slice(lead.ends[k - 1]);
    const cut = (kept[0] as Word).x;
    const segments = l.segments.flatMap((s) => {
      if (s.end <= cut) return [];
      if (s.x >= cut - 0.5) return [s];
      const dropped = words.filter((w) => w.x >= s.x - 1 && w.x < cut).length;
      const text = afterWords(s.text, dropped);
      return [{ ...s, x: cut, text, runs: undefined }];
    });
    return { ...l, x: cut, text: segments.map((s) => s.text).join(' '), segments, words: kept };
  });
}

/**
 * Table of contents entries: they point to sections, they say nothing themselves, and as text
 * they match every heading's words. A line that is an entry (its dot leader and page number)
 * goes; the contents' heading stays. Pure.
 */
export function removeContentsEntries(lines: Line[]): Line[] {
  return lines.filter((l) => !CONTENTS_ENTRY.test(l.text.trim()));
}

/** A line drawn with characters: underscores, dashes or equals signs and nothing else. */
const RULE = /^[_=‒–—―─━-]{5,}$/u;

/**
 * Rules drawn as text ("_____" under a letterhead or over a photo page): they say nothing, and
 * as markdown they are a run of escaped marks in every chunk of the page. A cell that is a rule
 * goes from its line, a line that is one goes. Pure.
 */
export function removeRuleLines(lines: Line[]): Line[] {
  const rule = (text: string): boolean => RULE.test(text.replace(/\s+/g, ''));
  return lines.flatMap((l) => {
    if (rule(l.text)) return [];
    const kept = withoutSegments(l, (k) => rule((l.segments[k] as Line['segments'][number]).text));
    return kept ? [kept] : [];
  });
}

/**
 * A section's title printed again at the top of each of its pages ("Photographs of the
 * Property" over every page of photos, "Site Analysis" over each page of the analysis): said
 * once, where the section starts. A page's first line, of one cell, that is the first line of
 * the page before goes; a table's column header (several cells, or codes) stays.
 */
export function removeRepeatedTitles(pages: Line[][], heights: number[]): Line[][] {
  const titleOf = (lines: readonly Line[], h: number): { text: string; y: number } | null => {
    const top = lines.reduce<Line | null>((t, l) => (t === null || l.y > t.y ? l : t), null);
    if (!top || top.y <= h * 0.85 || top.segments.length !== 1 || codesOnly(top.text)) return null;
    const text = top.text.replace(/\s+/g, ' ').trim().toLowerCase();
    // A title is words: a line with a figure or a colon is a reading ("Hotspot : 27.3 °C").
    if (text.replace(/[^\p{L}]/gu, '').length < 6 || /[\d:]|[.;,]$/.test(text)) return null;
    return text.split(' ').length <= 8 ? { text, y: top.y } : null;
  };
  const titles = pages.map((lines, i) => titleOf(lines, heights[i] ?? 842));
  return pages.map((lines, i) => {
    const title = titles[i];
    if (i === 0 || !title || title.text !== titles[i - 1]?.text) return lines;
    return lines.filter((l) => l.y !== title.y);
  });
}

/** Lines at each edge of an OCR'd page that can be its header or footer. */
const OCR_EDGE_LINES = 2;
/**
 * How alike two OCR readings of one running line are at least (letter pairs in common, Dice): a
 * letter or two misread in 30 ("Westgate", "Wesigate") is 0.94; titles of a kind that differ in
 * a word ("… County Orion Detail", "… County Tax Detail") are 0.81.
 */
const OCR_ALIKE = 0.9;
/** A page's number at the end of a line ("… Page 1 of 1", "… Page |5", "… Page|3"). */
const ENDS_WITH_PAGE = /\bpage\s*[|:]?\s*\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?\s*$/i;
const FOOTER_WORDS = 12;
/**
 * What a web browser prints at the edges of every page of a page it prints, which OCR may read
 * anywhere among the page's lines when the page has columns: its address ("about:blank",
 * "https://…", "file:///…") and the time it printed ("3/4/25, 9:05 AM"), with or without the
 * page's count ("about:blank 3/10").
 */
const PRINT_ADDRESS = /^(?:about:blank|(?:https?|file):\/\/\S+)$/i;
const PRINT_TIME = /^\d{1,2}\/\d{1,2}\/\d{2,4},?\s+\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?$/i;
const PAGE_COUNT_AFTER = /\s+\d{1,4}\s*\/\s*\d{1,4}$/;

/** The letter pairs of a line's letters, lower case: what two OCR readings of it share. Pure. */
function letterPairs(text: string): { pairs: Map<string, number>; count: number } {
  const letters = text.toLowerCase().replace(/[^\p{L}]/gu, '');
  const pairs = new Map<string, number>();
  for (let i = 0; i < letters.length - 1; i++) {
    const p = letters.slice(i, i + 2);
    pairs.set(p, (pairs.get(p) ?? 0) + 1);
  }
  return { pairs, count: Math.max(0, letters.length - 1) };
}

/** Share of letter pairs two lines have in common (Sørensen–Dice). Pure. */
function alike(a: ReturnType<typeof letterPairs>, b: ReturnType<typeof letterPairs>): number {
  if (a.count === 0 || b.count === 0) return 0;
  let common = 0;
  for (const [p, n] of a.pairs) common += Math.min(n, b.pairs.get(p) ?? 0);
  return (2 * common) / (a.count + b.count);
}

/**
 * Page furniture of OCR'd pages, whose lines have no real height (their order is all OCR
 * gives) and whose running header reads a little differently on each page ("Job No, 25055 …
 * Westgate Auckland Page |1", "Job No. 25055 … Wesigate Auckland Page|3"):
 * - a line among the first or last two of an OCR'd page that reads like one at an edge of other
 *   OCR'd pages (90% of its letter pairs alike), on half of them and at least 3 — on 2 when it
 *   numbers its page — and an edge line alike to one found so on another page;
 * - a short line at an edge that ends with its page's number ("N DEC 40002 04 22 Page 1 of 1");
 * - a browser's print stamp, anywhere on the page: "about:blank" or the time it printed (the
 *   same to the minute) on two pages, another address on as many pages as a running line.
 * Lines read from the text layer are left to the rules above. Pure.
 */
export function removeOcrFurniture(pages: Line[][]): Line[][] {
  const edges = pages.map((lines) => {
    const ocr = lines.filter((l) => l.fromOcr);
    const at = [...new Set([...ocr.slice(0, OCR_EDGE_LINES), ...ocr.slice(-OCR_EDGE_LINES)])];
    return at.map((line) => ({ line, pairs: letterPairs(line.text) }));
  });
  const threshold = repeatThreshold(edges.filter((e) => e.length > 0).length);
  const numbered = (l: Line): boolean => ENDS_WITH_PAGE.test(l.text.trim());
  const drop = new Set<Line>();
  const running: { page: number; pairs: ReturnType<typeof letterPairs> }[] = [];
  edges.forEach((lines, i) => {
    for (const { line, pairs } of lines) {
      if (numbered(line) && line.text.trim().split(/\s+/).length <= FOOTER_WORDS) {
        drop.add(line);
        continue;
      }
      if (pairs.count < 7) continue;
      let pagesAlike = 1;
      let anyNumbered = numbered(line);
      for (let j = 0; j < edges.length && pagesAlike < threshold; j++) {
        if (j === i) continue;
        const like = edges[j]!.find((o) => alike(pairs, o.pairs) >= OCR_ALIKE);
        if (!like) continue;
        pagesAlike++;
        anyNumbered ||= numbered(like.line);
      }
      if (pagesAlike >= (anyNumbered ? 2 : threshold)) {
        drop.add(line);
        running.push({ page: i, pairs });
      }
    }
  });
  // A browser's print stamp, wherever OCR read it among the page's lines: "about:blank" on two
  // pages or more; another address, digits aside, on as many pages as a running line; the time
  // it printed, the same to the minute, on two (a log's entries are at other times).
  const stampOf = (l: Line): { key: string; pages: number } | null => {
    if (!l.fromOcr) return null;
    const text = l.text.trim().replace(PAGE_COUNT_AFTER, '').toLowerCase();
    if (text === 'about:blank' || PRINT_TIME.test(text)) return { key: text, pages: 2 };
    return PRINT_ADDRESS.test(text) ? { key: text.replace(/\d+/g, '#'), pages: threshold } : null;
  };
  const stamps = pages.map((lines) => lines.map((l) => ({ l, stamp: stampOf(l) })));
  const stampPages = new Map<string, number>();
  for (const lines of stamps)
    for (const key of new Set(lines.map(({ stamp }) => stamp?.key)))
      if (key) stampPages.set(key, (stampPages.get(key) ?? 0) + 1);
  for (const lines of stamps)
    for (const { l, stamp } of lines)
      if (stamp && (stampPages.get(stamp.key) ?? 0) >= stamp.pages) drop.add(l);
  // Each page misreads the header its own way, so two misreadings can be less alike than each
  // is to a third: a line alike to one found running on another page is that header too.
  edges.forEach((lines, i) => {
    for (const { line, pairs } of lines)
      if (
        !drop.has(line) &&
        running.some((r) => r.page !== i && alike(pairs, r.pairs) >= OCR_ALIKE)
      )
        drop.add(line);
  });
  if (drop.size === 0) return pages;
  return pages.map((lines) => lines.filter((l) => !drop.has(l)));
}
