/**
 * Sentence boundaries by Unicode's rules (UAX #29, through `Intl.Segmenter`), not by a regular
 * expression: "approx. 11 years" and "e.g. the roof" stay whole, where splitting at every
 * `. ` cut them. Used by the chunker and the local answerer.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Abbreviations before a name or a number, where UAX #29 (without ICU's suppression lists,
 * which `Intl.Segmenter` does not take) ends a sentence: "Ms. Sample Person", "Er. Sample
 * Engineer", "Reg. No. SE-4421", "Pvt. Ltd.", "vs. U.S. average".
 */
const TITLE = /(?:^|[\s(])(mr|mrs|ms|mx|dr|er|prof|st|pvt|reg|ref|fig|approx|vs)\.$/i;
/** "No." goes on only before a number or a code ("No. 4", "No. SE-4421"). */
const NUMBER_SIGN = /(?:^|[\s(])no\.$/i;

/** The sentences of `text`, trimmed, empty ones dropped. Pure. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let carried = '';
  for (const { segment, index } of segmenter.segment(text)) {
    const s = `${carried}${segment}`;
    const t = s.trim();
    const next = text.slice(index + segment.length, index + segment.length + 24);
    if (t && (TITLE.test(t) || (NUMBER_SIGN.test(t) && /^\s*[\p{Lu}\d-]*\d/u.test(next)))) {
      carried = s;
      continue;
    }
    carried = '';
    if (t) out.push(t);
  }
  if (carried.trim()) out.push(carried.trim());
  return out;
}
