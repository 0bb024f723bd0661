import type { Line, Word } from './lines.js';

// Letter-spaced text: "T E N A N C Y  D E TA I L S"

/**
 * A run of four or more letters or pairs of letters, each followed by one space: the text of a
 * heading set with wide letter spacing, which pdf.js (like poppler) gives with a space between
 * letters and the same space between words.
 */
const RUN = /(?<![\p{L}\p{N}-])(?:[\p{L}\p{N}-]{1,2} ){3,}[\p{L}\p{N}-]{1,2}(?![\p{L}\p{N}-])/gu;
const WORD = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
const MAX_WORD = 24;

/** The words of the document, lower case, that a letter-spaced run is split into. */
export function vocabularyOf(lines: readonly Line[]): Set<string> {
  const vocab = new Set<string>();
  for (const l of lines) {
    const text = l.text.replace(RUN, ' ');
    for (const m of text.matchAll(WORD)) if (m[0].length >= 2) vocab.add(m[0].toLowerCase());
  }
  return vocab;
}

/**
 * The letters of a run as words: split where the document's own words fit best (fewest pieces,
 * words the document does not use elsewhere costing by their length), so "TENANCYDETAILS"
 * becomes "TENANCY DETAILS" when the document says "tenancy" and "details" elsewhere. Numbers
 * are words. Pure.
 */
export function splitWords(letters: string, vocab: ReadonlySet<string>): string {
  const n = letters.length;
  const lower = letters.toLowerCase();
  const cost = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Array<number>(n + 1).fill(-1);
  cost[0] = 0;
  for (let end = 1; end <= n; end++) {
    for (let start = Math.max(0, end - MAX_WORD); start < end; start++) {
      const before = cost[start] as number;
      if (before === Number.POSITIVE_INFINITY) continue;
      const piece = lower.slice(start, end);
      const known = knownWord(piece, vocab);
      const c = before + (known ? 1 : 1 + 0.5 * piece.length);
      if (c < (cost[end] as number)) {
        cost[end] = c;
        from[end] = start;
      }
    }
  }
  const pieces: string[] = [];
  for (let end = n; end > 0; end = from[end] as number)
    pieces.unshift(letters.slice(from[end] as number, end));
  // Pieces the document does not know are kept together ("EVOLUTION" is one unknown word).
  const out: string[] = [];
  let unknown = '';
  for (const p of pieces) {
    const known = knownWord(p.toLowerCase(), vocab);
    if (known) {
      if (unknown !== '') out.push(unknown);
      unknown = '';
      out.push(p);
    } else unknown += p;
  }
  if (unknown !== '') out.push(unknown);
  // Two letters at the end are a suffix ("INSPECT OR" is "INSPECTOR"), not a word of their own.
  const lastPiece = out[out.length - 1] ?? '';
  if (out.length > 1 && /^\p{L}{1,2}$/u.test(lastPiece))
    out.splice(-2, 2, `${out.at(-2) ?? ''}${lastPiece}`);
  return out.join(' ').replace(/ ?- ?/g, '-');
}

/** A word of the document, a number, or a word the document uses inflected ("key" for "keys"). */
function knownWord(piece: string, vocab: ReadonlySet<string>): boolean {
  if (/^\d+$/.test(piece)) return true;
  if (piece.length < 2) return false;
  if (vocab.has(piece)) return true;
  return piece.length >= 3 && ['s', 'es', 'ed', 'd', 'ing'].some((end) => vocab.has(piece + end));
}

/**
 * Letter-spaced runs in `text` as words. Runs mostly of pairs ("S R C NP NI NO" codes) are not
 * letter spacing. With `tiles`, a text that is only four spaced capitals is one word too: set
 * beside other letter-spaced labels ("B E D S" by "B A T H S" on a flyer's stat tiles), it is
 * one more label, not a list of codes.
 */
export function unspaceText(text: string, vocab: ReadonlySet<string>, tiles = false): string {
  return text.replace(RUN, (run: string) => {
    const tokens = run.split(' ');
    const singles = tokens.filter((t) => t.length === 1).length;
    const letters = tokens.join('');
    // "P P P P P": a grid's marks in a row, one letter again and again, are no word.
    if (new Set(letters.toLowerCase()).size === 1) return run;
    if (tiles && run === text.trim() && tokens.length === 4 && /^\p{Lu}{4}$/u.test(letters))
      return letters;
    // "4 m x 3 m" and rating codes are not a spaced-out word: five letters in a row at least.
    if (singles < 5 || singles < tokens.length * 0.7 || !/\p{L}{5}/u.test(letters)) return run;
    return splitWords(letters, vocab);
  });
}

/** Lines with their letter-spaced runs read as words (segments, text and words). */
export function unspaceLines(lines: Line[], vocab: ReadonlySet<string>): Line[] {
  return lines.map((line) => {
    if (!RUN.test(line.text)) return line;
    RUN.lastIndex = 0;
    const plain = line.segments.map((s) => unspaceText(s.text, vocab));
    // A segment read as letter-spaced shows the line's style: its four-letter tiles are words.
    const tiles = plain.some((text, k) => text !== line.segments[k]!.text);
    const segments = line.segments.map((s, k) => {
      const text = tiles && plain[k] === s.text ? unspaceText(s.text, vocab, true) : plain[k]!;
      return text === s.text ? s : { ...s, text };
    });
    if (segments.every((s, k) => s === line.segments[k])) return line;
    return {
      ...line,
      segments,
      text: segments.map((s) => s.text).join(' '),
      words: line.words && rewordSegments(line.words, line.segments, segments),
    };
  });
}

/** The words of changed segments, laid out over each segment's extent by character share. */
function rewordSegments(words: Word[], before: Line['segments'], after: Line['segments']): Word[] {
  let out = words;
  after.forEach((s, k) => {
    if (s === before[k]) return;
    out = out.filter((w) => w.end <= s.x + 0.5 || w.x >= s.end - 0.5);
    const perChar = (s.end - s.x) / Math.max(1, s.text.length);
    let offset = 0;
    for (const part of s.text.split(' ')) {
      out.push({
        x: s.x + offset * perChar,
        end: s.x + (offset + part.length) * perChar,
        text: part,
      });
      offset += part.length + 1;
    }
  });
  return out.sort((a, b) => a.x - b.x);
}
