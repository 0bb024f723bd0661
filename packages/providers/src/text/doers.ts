/**
 * "Who appraised the property?" asks for the appraiser, and a report names that person under
 * the noun ("Appraiser: …", "| APPRAISER |"), not the verb. Both retrieval legs search a "who"
 * question also by the noun of the one who does what it asks (docs/adr/076, the stop 55
 * addendum). "How is the property zoned?" likewise asks for what a report labels "Zoning: …"
 * (the stop 56 and 57 addenda), and "How long has …" a span up to now (the stop 59 addendum).
 * The kinds of answer some questions ask for (a span, a share, an area) are read here once, for
 * the local embedder and the local answerer alike (the stop 60 addenda of ADR 076 and 132), and
 * "How much of the lot can be covered?" is searched also by "coverage" (the stop 61 addendum).
 */

/**
 * The nouns of the one who does what a verb form says: "appraised" the appraiser, "inspected"
 * the inspector, "owns" the owner, "supplies" the supplier, "buying" the buyer. Each likely
 * spelling is given ("inspecter" and "inspector"): a spelling no report uses is a word the
 * keyword leg finds nowhere. A word that is not an inflected form ("buyer", "thermal"), a doer
 * already ("borrowers"), short or not all letters gives none. Pure.
 */
export function doersOf(word: string): string[] {
  const w = word.toLowerCase();
  if (w.length < 4 || !/^\p{Ll}+$/u.test(w)) return [];
  if (/[^aeiou]ie[ds]$/.test(w)) return [`${w.slice(0, -3)}ier`];
  let base: string;
  if (w.endsWith('ed')) base = w.slice(0, -2);
  else if (w.endsWith('ing')) base = w.slice(0, -3);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) base = w.slice(0, -1);
  else return [];
  if (/(?:er|or)$/.test(base)) return [];
  // "provides": "provide" + "r"; "inspected": "inspect" + "or"; "owned": "own" + "er";
  // "appraised": "appraise" + "r".
  const doers = base.endsWith('e') ? [`${base}r`] : [`${base}er`, `${base}or`];
  if (w.endsWith('ed')) doers.push(`${w.slice(0, -1)}r`);
  return [...new Set(doers)];
}

/** A word of a question as asked, lower case, without the punctuation around it ("owns?"). */
export function bareWord(word: string): string {
  return word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** A question's words as asked (`bareWord`), split at white space: the places the rules give. */
function questionWords(question: string): string[] {
  return question
    .split(/\s+/)
    .filter((w) => w !== '')
    .map(bareWord);
}

/** A particle that makes a verb of two words: "Who carried out …" asks for no carrier. */
const PARTICLE = /^(?:out|up|off)$/;

/**
 * The word a "who" question asks the doer of, and those doers: the first word after "Who" that
 * is not a function word ("Who is buying …": "buying", buyer), with its place among the
 * question's words (split at white space). Null for any other question, or when that word names
 * no doer. Pure.
 */
export function doerAsked(
  question: string,
  functionWords: ReadonlySet<string>,
): { index: number; word: string; doers: string[] } | null {
  const words = questionWords(question);
  if (words[0] !== 'who') return null;
  const index = words.findIndex((w, i) => i > 0 && w !== '' && !functionWords.has(w));
  if (index < 0 || PARTICLE.test(words[index + 1] ?? '')) return null;
  const doers = doersOf(words[index]!);
  return doers.length > 0 ? { index, word: words[index]!, doers } : null;
}

/**
 * The noun a report labels the way a thing is done with, from the participle a question asks
 * it by: "zoned" gives "zoning", "heated" "heating", "supplied" "supplying". Pure.
 */
export function ingForm(participle: string): string {
  if (/ied$/.test(participle)) return `${participle.slice(0, -3)}ying`;
  if (/eed$/.test(participle)) return `${participle.slice(0, -1)}ing`;
  return `${participle.slice(0, -2)}ing`;
}

/**
 * The way of doing a thing that a "How is …" question asks, and the noun a report labels it
 * with: "How is the property zoned?" asks for what a report labels "Zoning: R-1", and "How is
 * the house heated?" for "Heating: forced air". The participle that ends the question, with its
 * place among the question's words (split at white space), and its "-ing" noun (`ingForm`).
 * Null for any other question ("How many rooms were inspected?" counts them). Pure.
 */
export function mannerAsked(
  question: string,
): { index: number; word: string; noun: string } | null {
  const words = questionWords(question);
  if (words[0] !== 'how' || !/^(?:is|are)$/.test(words[1] ?? '')) return null;
  const index = words.length - 1;
  const word = words[index]!;
  return /^\p{Ll}{3,}ed$/u.test(word) ? { index, word, noun: ingForm(word) } : null;
}

/**
 * The one a report was made for, which a "Who … for?" question asks: "Who is the appraisal
 * for?", "Who was the inspection done for?". A report names that party its client ("Client: …",
 * "the appraiser's client: …"), not by the question's words: the appraisal, the inspection and
 * "for" (a function word) are on every page. The question's last word, "for", with its place
 * among the question's words (split at white space), and the noun "client". Null for any other
 * question ("What did it sell for?" asks a price). Pure.
 */
export function clientAsked(question: string): { index: number; noun: string } | null {
  const words = questionWords(question);
  const index = words.length - 1;
  return words[0] === 'who' && index >= 2 && words[index] === 'for'
    ? { index, noun: 'client' }
    : null;
}

/**
 * Whether a question asks for a span of time up to now: "How long has the appraiser worked in
 * this market?", "How many years have they owned it?". A report gives such a span by its start
 * ("… in this market since 2002") or its length ("for 20 years"), not by the words asked, and
 * "long" is the start of "longitude": the keyword leg searches the word after "How" as "since".
 * Not "How long is the warranty?" (a length) nor "How long ago …" (a time). Pure.
 */
export function spanAsked(question: string): boolean {
  const words = questionWords(question);
  if (words[0] !== 'how') return false;
  const verb = words[1] === 'long' ? 2 : words[1] === 'many' && words[2] === 'years' ? 3 : -1;
  return verb > 0 && /^(?:has|have|had)$/.test(words[verb] ?? '');
}

/**
 * A span up to now said by its start or its length: "… in this market since 2002", "since May
 * 2002", "owned for over 20 years". What a `spanAsked` question asks for.
 */
const HOLDS_SPAN =
  /\bsince (?:\p{L}+\.? )?(?:19|20)\d\d\b|\bfor (?:over |more than |the (?:past|last) )?\d+ years\b/iu;

/** Whether `text` says a span up to now, as a "How long has …" question asks (`spanAsked`). Pure. */
export function holdsSpan(text: string): boolean {
  return HOLDS_SPAN.test(text);
}

/**
 * A part of a whole, which "What share of the units is expected to presell?", "How much of the
 * lot can be covered?" and "How built up is the neighborhood?" ask for. A report gives it as a
 * percentage ("Approximately 50% presales", "75 percent lot coverage", "Built-Up: Over 75%"),
 * not by the words asked.
 */
const SHARE_NOUNS = 'share|percentage|proportion|portion|fraction|percent';
const ASKS_SHARE = new RegExp(
  `\\b(?:what|which) (?:${SHARE_NOUNS}) of\\b|\\bhow much of (?:the|a|an|its|this)\\b|\\bwhat percent(?:age)?\\b|\\bhow built[- ]up\\b`,
  'i',
);
const SHARE_NOUN = new RegExp(`^(?:${SHARE_NOUNS})$`, 'i');

/** Whether `question` asks for a part of a whole (`holdsShare`). Pure. */
export function shareAsked(question: string): boolean {
  return ASKS_SHARE.test(question);
}

/** Whether `word` is one a part of a whole is asked by ("share", "percentage", "portion", …). Pure. */
export function shareNoun(word: string): boolean {
  return SHARE_NOUN.test(word);
}

/** A percentage: "50%", "40 %", "75 percent", "12.5 per cent". */
const HOLDS_SHARE = /\d\s?%|\b\d+(?:\.\d+)? ?per ?cent\b/i;

/** Whether `text` gives a part of a whole, as a `shareAsked` question asks. Pure. */
export function holdsShare(text: string): boolean {
  return HOLDS_SHARE.test(text);
}

/** Words that end the noun after "how much" ("how much excess land is there"). */
const MUCH_END =
  /^(?:does|did|do|is|was|were|are|will|would|should|can|could|has|have|had|to|for|of|in|on|at|there|it|they|the|this|that)$/i;

/**
 * The last word of the noun phrase that opens `text` ("excess land is there?": "land"), lower
 * case; null when a verb or a function word opens it. Pure.
 */
function phraseHead(text: string): string | null {
  const phrase: string[] = [];
  for (const w of text.split(/\s+/)) {
    const bare = w.replace(/[^\p{L}\p{N}'-]+/gu, '');
    if (bare === '' || MUCH_END.test(bare)) break;
    phrase.push(bare.toLowerCase());
    if (/[?.,;:!]$/.test(w)) break;
  }
  return phrase.at(-1) ?? null;
}

/**
 * What "how much" asks an amount of when a noun follows it ("how much weight …", "how much
 * excess land …"): the noun. Null for "how much does it cost", "how much is it". Pure.
 */
export function muchOf(query: string): string | null {
  const after = /\bhow much\s+(.*)$/i.exec(query)?.[1];
  const noun = after ? phraseHead(after) : null;
  return noun && !/^(money|cost|costs)$/.test(noun) ? noun : null;
}

/** What a share question says before the whole it asks a part of ("how much of the …"). */
const SHARE_OF = new RegExp(
  `\\b(?:how much|(?:what|which) (?:${SHARE_NOUNS})) of (?:the|a|an|its|this) (.*)$`,
  'i',
);

/**
 * The whole a share question asks a part of: the last word of the noun phrase after "how much
 * of the", "what share of the" ("How much of the lot can be covered?": "lot"; "What share of
 * the tenant improvement cost is …": "cost"). Null when no such phrase follows. Pure.
 */
export function wholeOf(question: string): string | null {
  const after = SHARE_OF.exec(question)?.[1];
  return after ? phraseHead(after) : null;
}

/** Nouns of an amount of a doing, each a verb and "-age": what `amountAsked` may search. */
const AMOUNT_NOUNS = new Set([
  'anchorage',
  'blockage',
  'coverage',
  'drainage',
  'frontage',
  'leakage',
  'seepage',
  'spillage',
  'stoppage',
  'storage',
  'usage',
  'wastage',
]);

/**
 * The noun a report gives an amount of a doing by, which a "how much" question asks with the
 * verb: "How much of the lot can be covered by buildings?" asks for what a zoning report labels
 * "Lot Coverage: 75%", and "how much … stored", "… drained", "… leaked" ask for storage,
 * drainage, leakage. Each "-ed" word after "how much" whose "-age" form is such a noun
 * (`AMOUNT_NOUNS`), with its place among the question's words (split at white space) and the
 * noun. None for any other question. Pure.
 */
export function amountAsked(question: string): Array<{ index: number; noun: string }> {
  const words = questionWords(question);
  const much = words.findIndex((w, i) => w === 'how' && words[i + 1] === 'much');
  if (much < 0) return [];
  return words.flatMap((w, index) => {
    const noun = `${w.slice(0, -2)}age`;
    return index > much + 1 && w.endsWith('ed') && AMOUNT_NOUNS.has(noun) ? [{ index, noun }] : [];
  });
}

/**
 * An amount of area, which "How much office space is there?" and "How much land is there in
 * total?" ask for: the noun after "how much" (`muchOf`) is an area, space, land or footage. A
 * report gives it as a figure with its unit ("1,750 sf", "2.5 acres"), not by the word asked.
 * Pure.
 */
export function spaceAsked(question: string): boolean {
  return /^(?:area|space|land|footage)$/.test(muchOf(question) ?? '');
}

/** The units of an area: "Sq ft", "sf", "acre", "m²". A part of a regular expression. */
export const AREA_UNIT =
  '(?:sq\\.?\\s?(?:ft|feet|m|meters?|metres?)|sf|square (?:feet|foot|meters?|metres?)|m2|m²|acres?|ac|hectares?|ha)';

/** An area: "1440 Sq ft", "11,200 sf", "0.257 acre", "120 m²". */
const HOLDS_AREA = new RegExp(`\\d\\s?${AREA_UNIT}\\b|\\d\\s?m²`, 'i');

/** Whether `text` gives an area, a figure with its unit, as a `spaceAsked` question asks. Pure. */
export function holdsArea(text: string): boolean {
  return HOLDS_AREA.test(text);
}
