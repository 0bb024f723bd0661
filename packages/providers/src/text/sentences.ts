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
  return withFormAnswers(out);
}

/**
 * A form's answer set after its question: "Moss observed on the wall? Moderate", "… intact? N/A",
 * ended or followed by the next item (a capital or a figure), not by a sentence ("Any leaks? None
 * were found.").
 */
const FORM_ANSWER =
  /^(yes|no|n\/a|na|none|not sure|unknown|moderate|minor|major|severe|slight|good|fair|poor|satisfactory|present|absent)(?=[\s.,;]|$)[.,;]?\s*/i;
/** What may follow a form's answer: nothing, or the next item (a capital or a figure). */
const NEXT_ITEM = /^($|[\p{Lu}\d])/u;

/** Keeps each form answer with its question, the text after it as a sentence of its own. */
function withFormAnswers(split: readonly string[]): string[] {
  const sentences = [...split];
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    const next = sentences[i + 1];
    const found = next !== undefined && s.endsWith('?') ? FORM_ANSWER.exec(next) : null;
    const answer = found && NEXT_ITEM.test(next!.slice(found[0].length)) ? found : null;
    if (!answer) {
      out.push(s);
      continue;
    }
    out.push(`${s} ${answer[0].trim()}`);
    const rest = next!.slice(answer[0].length).trim();
    if (rest) sentences[i + 1] = rest;
    else i++;
  }
  return out;
}
