import { fewWords } from '../text.js';
import type { FontRun, Line } from './lines.js';
import type { GridRun } from './tables.js';

// Filled-in forms: labels printed by the form in one font, the values typed into it in another
// ("Borrower Derek Ritch Owner of Public Record Eileen Ford County Providence" on a residential
// appraisal form, where nothing but the type tells a label from its value).

/** The fonts of a page's form: its labels', and its check marks' ("8" in ZapfDingbats is ✘). */
export interface FormFonts {
  label: string;
  marks: ReadonlySet<string>;
}

/** How a check mark reads: the mark before the choice it checks ("Owner ✘ Tenant"). */
const CHECK_MARK = '✘';

/** A page is a form when this many labels are followed by a value in the other font... */
const MIN_PAIRS = 6;
/** ...and this many of its lines hold two such pairs or more (a form's rows of fields). */
const MIN_ROWS = 3;

/** A unit a form prints after the field it measures. */
const UNIT =
  /^(sq\.? ?ft\.?|sf|%|acres?|ac|yrs?|years?|mths|months|days|per (?:year|month)|cars?)(?:\s+(.+))?$/i;
/** What a form counts after a number ("contains: 7 Rooms 3 Bedrooms 1.0 Bath(s)"). */
const COUNTED = /^(?:rooms?|bedrooms?|bdrms?|baths?|bath\(s\)|square feet\b.*|stories|units?)$/i;

/** A form's label: a few words, not a sentence. */
function labelLike(text: string): boolean {
  return fewWords(text, 48, 6) && !/[.;!?,]$/.test(text);
}

/** A value typed into a field: not the rest of a sentence a bold word began. */
function valueLike(label: string, value: string): boolean {
  return label.endsWith(':') || /^[\p{Lu}\d$#(.-]/u.test(value);
}

/** The pairs of fonts (label, value) a segment's runs show, as `label\u0000value` keys. */
function pairKeys(runs: readonly FontRun[]): string[] {
  const keys: string[] = [];
  for (let k = 0; k + 1 < runs.length; k++) {
    const [l, v] = [runs[k] as FontRun, runs[k + 1] as FontRun];
    if (l.font !== v.font && l.font !== '' && labelLike(l.text) && valueLike(l.text, v.text))
      keys.push(`${l.font}\u0000${v.font}`);
  }
  return keys;
}

/**
 * The form fonts of each page that is a filled-in form: the (label, value) pair of fonts seen
 * most often, a label run followed by a value run, at least `MIN_PAIRS` times, on at least
 * `MIN_ROWS` lines that hold two pairs or more, its label font the one most of those lines start
 * with. A page of narrative with a bold lead-in per paragraph has one pair a line, so it is not a
 * form. Pure.
 */
export function formFontsByPage(lines: readonly Line[]): Map<number, FormFonts> {
  const counts = new Map<number, Map<string, { pairs: number; rows: number }>>();
  // The font a page's rows start with: a form's rows start with a label.
  const starts = new Map<number, Map<string, number>>();
  for (const line of lines) {
    const perLine = new Map<string, number>();
    for (const s of line.segments)
      for (const key of pairKeys(s.runs ?? [])) perLine.set(key, (perLine.get(key) ?? 0) + 1);
    if (perLine.size === 0) continue;
    const first = line.segments[0]?.runs?.[0]?.font ?? '';
    const byFont = starts.get(line.page) ?? new Map<string, number>();
    starts.set(line.page, byFont);
    byFont.set(first, (byFont.get(first) ?? 0) + 1);
    const page = counts.get(line.page) ?? new Map<string, { pairs: number; rows: number }>();
    counts.set(line.page, page);
    for (const [key, n] of perLine) {
      const c = page.get(key) ?? { pairs: 0, rows: 0 };
      c.pairs += n;
      if (n >= 2) c.rows += 1;
      page.set(key, c);
    }
  }
  const fonts = new Map<number, FormFonts>();
  for (const [page, byKey] of counts) {
    const startFont = [...(starts.get(page) ?? [])].sort((a, b) => b[1] - a[1])[0]?.[0];
    const best = [...byKey]
      .filter(([key]) => key.startsWith(`${startFont}\u0000`))
      .sort((a, b) => b[1].pairs - a[1].pairs)[0];
    if (!best || best[1].pairs < MIN_PAIRS || best[1].rows < MIN_ROWS) continue;
    const [label = ''] = best[0].split('\u0000');
    fonts.set(page, { label, marks: new Set() });
  }
  // Check marks, on the form pages only, in one pass over the lines.
  const seen = new Map<number, Map<string, { char: string; n: number } | null>>();
  for (const line of lines) {
    if (!fonts.has(line.page)) continue;
    const page = seen.get(line.page) ?? new Map<string, { char: string; n: number } | null>();
    seen.set(line.page, page);
    for (const s of line.segments) for (const r of s.runs ?? []) countMark(page, r);
  }
  for (const [page, byFont] of seen)
    fonts.set(page, {
      label: fonts.get(page)!.label,
      marks: new Set([...byFont].filter(([, m]) => m !== null && m.n >= 2).map(([font]) => font)),
    });
  return fonts;
}

/**
 * Counts a run toward its font being a check mark's: a font a page prints one and the same letter
 * or digit in, alone, twice or more is one of a symbol font the text layer does not map ("8" is
 * ZapfDingbats' ✘). A symbol it does map ("−") is text; footnote numbers differ from one another.
 */
function countMark(byFont: Map<string, { char: string; n: number } | null>, r: FontRun): void {
  const prior = byFont.get(r.font);
  if (prior === null) return;
  const mark = /^[0-9A-Za-z]$/.test(r.text) && (!prior || prior.char === r.text);
  byFont.set(r.font, mark ? { char: r.text, n: (prior?.n ?? 0) + 1 } : null);
}

/**
 * A line's fields: each label run with the runs after it up to the next label run, as
 * "Label: value"; a label with no value stays as it is (a form's check-box choices), and a
 * currency sign the form prints at a label's end goes to its value ("R.E. Taxes $" "5,550"
 * -> "R.E. Taxes: $5,550"); a check mark reads as one, before the choice it checks. Null when
 * the line holds neither a label followed by its value nor a check mark.
 */
function fieldsOf(runs: readonly FontRun[], fonts: FormFonts): string[] | null {
  const out: string[] = [];
  // Text that is no field (check-box choices, a label left blank, a sentence): one line, as read.
  let loose: string[] = [];
  let label: string | null = null;
  let value: string[] = [];
  let paired = false;
  let marked = false;
  const flush = (): void => {
    if (label !== null && value.length > 0) {
      if (loose.length > 0) out.push(loose.join(' '));
      loose = [];
      const sign = /\s*([$€£])$/.exec(label);
      const name = (sign ? label.slice(0, sign.index) : label).replace(/:$/, '');
      out.push(`${name}: ${sign ? sign[1] : ''}${value.join(' ')}`);
      paired = true;
    } else {
      loose.push(...(label === null ? [] : [label]), ...value);
    }
    label = null;
    value = [];
  };
  for (const run of runs) {
    if (fonts.marks.has(run.font)) {
      // A check mark is no value: it checks the choice printed after it.
      flush();
      loose.push(CHECK_MARK);
      marked = true;
      continue;
    }
    const unit: RegExpExecArray | null =
      label !== null && value.length > 0 ? UNIT.exec(run.text) : null;
    if (unit) {
      // The form's unit after a value ("Basement Area 520 sq.ft."), part of the value; a label
      // printed after it in the same type starts the next field.
      value.push(unit[1] as string);
      if (unit[2]) {
        flush();
        label = unit[2];
      }
    } else if (
      label !== null &&
      /^[\d.,]+$/.test(value[value.length - 1] ?? '') &&
      COUNTED.test(run.text)
    ) {
      // What the number counts, printed after it: "7 Rooms".
      value.push(run.text);
    } else if (run.font === fonts.label && labelLike(run.text)) {
      flush();
      label = run.text;
    } else if (run.font === fonts.label && value.length > 0) {
      // The form's own sentence after a field ("Is the property seller the owner of public
      // record?"): not part of the value.
      flush();
      loose.push(run.text);
    } else if (label !== null && value.length === 0 && !valueLike(label, run.text)) {
      // Not a value: the label run was a word of the sentence that goes on here.
      loose.push(label, run.text);
      label = null;
    } else {
      value.push(run.text);
    }
  }
  flush();
  if (loose.length > 0) out.push(loose.join(' '));
  return paired || marked ? out : null;
}

/**
 * A run of form rows on a form page: lines that hold at least one label followed by its value,
 * each read as its fields ("Owner of Public Record: Eileen Ford"), and its other text as it is.
 * Null when line `i` is not such a row.
 */
export function formRows(
  lines: readonly Line[],
  i: number,
  fontsByPage: ReadonlyMap<number, FormFonts>,
): GridRun | null {
  const pairs: string[] = [];
  let end = i;
  for (; end < lines.length; end++) {
    const line = lines[end] as Line;
    const fonts = fontsByPage.get(line.page);
    if (!fonts || line.page !== (lines[i] as Line).page) break;
    // A row of three or more values in columns of their own is a table's ("Sale Price | $450,000
    // | $480,029 | $400,000"), read as the table it is.
    const valueCells = line.segments.filter((s) =>
      (s.runs ?? []).every((r) => r.font !== fonts.label),
    );
    if (valueCells.length >= 3) break;
    // The line's runs, across its segments: a label and its value can stand a column apart.
    const fields = fieldsOf(
      line.segments.flatMap((s) => s.runs ?? [{ font: s.font ?? '', text: s.text }]),
      fonts,
    );
    if (fields === null) break;
    pairs.push(...fields);
  }
  if (end === i) return null;
  return { start: i, end, page: (lines[i] as Line).page, pairs };
}
