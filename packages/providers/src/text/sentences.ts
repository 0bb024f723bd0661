/**
 * Sentence boundaries by Unicode's rules (UAX #29, through `Intl.Segmenter`), not by a regular
 * expression: "approx. 11 years" and "e.g. the roof" stay whole, where splitting at every
 * `. ` cut them. Used by the chunker and the local answerer.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The sentences of `text`, trimmed, empty ones dropped. Pure. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const s = segment.trim();
    if (s) out.push(s);
  }
  return out;
}
