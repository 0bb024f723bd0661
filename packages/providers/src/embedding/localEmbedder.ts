import { eng as ENGLISH_STOPWORDS } from 'stopword';
import { EMBEDDING_DIMENSIONS, normalise, type Embedder } from './embedder.js';
import {
  clientAsked,
  doerAsked,
  holdsArea,
  holdsShare,
  holdsSpan,
  mannerAsked,
  shareAsked,
  spaceAsked,
  spanAsked,
} from '../text/doers.js';

// Function words carry no topic; without corpus statistics (no IDF) they would dominate.
const STOPWORDS: ReadonlySet<string> = new Set(ENGLISH_STOPWORDS);

/** Lowercased words with accents removed, the same folding the keyword leg uses. */
export function foldWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Words a property report and its reader say of one thing in different words ("How big is the
 * lot?" of "Site Area: 6,219 sf", "Is it occupied?" of "Occupancy: Vacant"): each adds a feature
 * of its concept, so such texts come closer than their spelling alone brings them. Word forms
 * are listed as they are folded; a word says one concept.
 */
const CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  site: [
    'lot',
    'lots',
    'site',
    'sites',
    'land',
    'parcel',
    'parcels',
    'acreage',
    'acre',
    'acres',
    'tract',
  ],
  zoning: ['zoned', 'zoning', 'zone', 'zones'],
  occupancy: ['occupied', 'occupancy', 'occupant', 'occupants', 'vacant', 'vacancy', 'unoccupied'],
  built: ['built', 'constructed', 'construction', 'vintage'],
  bedroom: ['bedroom', 'bedrooms', 'bdrm', 'bdrms', 'bdr', 'beds'],
  bathroom: ['bathroom', 'bathrooms', 'bath', 'baths', 'ba'],
  tax: ['tax', 'taxes', 'taxed'],
  size: ['big', 'large', 'size', 'sized', 'footage', 'sqft', 'gla', 'area', 'areas'],
  value: ['value', 'valued', 'valuation', 'worth'],
  heating: ['heating', 'heated', 'heat', 'furnace', 'boiler', 'fwa'],
  electrical: ['electrical', 'electric', 'amp', 'amps', 'amperage', 'breaker', 'breakers'],
  inspection: ['inspected', 'inspection', 'inspect', 'inspector'],
  appraiser: ['appraiser', 'appraisers', 'appraised'],
  owner: ['owner', 'owners', 'owns', 'owned', 'ownership'],
  buyer: ['buyer', 'buyers', 'purchaser', 'purchasers', 'grantee', 'buying'],
  seller: ['seller', 'sellers', 'grantor', 'selling'],
  flood: ['flood', 'flooding', 'fema'],
  foundation: [
    'foundation',
    'foundations',
    'basement',
    'crawlspace',
    'slab',
    'footing',
    'footings',
  ],
  garage: ['garage', 'garages', 'carport', 'carports'],
  repair: ['repair', 'repairs', 'repaired', 'defect', 'defects', 'deficiency', 'deficiencies'],
  marketing: ['marketing', 'exposure', 'sell'],
  cover: ['cover', 'covers', 'covered', 'covering', 'coverings', 'coverage'],
  rent: ['rent', 'rents', 'rental', 'rented', 'lease', 'leased'],
};
const CONCEPT_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(CONCEPTS).flatMap(([concept, words]) => words.map((w) => [w, concept] as const)),
);

/** A month's name or its abbreviation, in a date. */
const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/**
 * Narrower than the answerer's `DATE_VALUE`: no ordinal after a day ("15th"), and a date in
 * figures only with slashes or as 2026-05-15, as "1.5.10" is rarely a date. Measured with that
 * one instead: two answers fewer over the twenty sets.
 */
const HOLDS_DATE = new RegExp(
  [
    `\\b${MONTH}\\.? \\d{1,2},? \\d{4}\\b`, // May 15, 2026
    `\\b\\d{1,2} ${MONTH}\\.? \\d{4}\\b`, // 15 May 2026
    '\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b', // 05/15/2026
    '\\b\\d{4}-\\d{2}-\\d{2}\\b', // 2026-05-15
  ].join('|'),
  'i',
);
const HOLDS_SUM = /[$£€]\s?\d/;
const HOLDS_PERSON =
  /\b(?:prepared by|inspected by|inspector|appraiser|engineer|surveyor|signed|signature|licen[cs]e|certified|agent|broker|realtor|thermographer)\b/i;
/** "When was it built (sold, replaced …)?" asks a year, which a line of dates does not answer. */
const ASKS_DATE = /^\s*when\b|\bwhat (?:date|day)\b/i;
const ASKS_YEAR =
  /\b(?:built|constructed|installed|replaced|renovated|remodell?ed|updated|added|erected|sold|bought|purchased|acquired|transferred)\b/i;
const ASKS_SUM =
  /\b(?:cost|costs|price|priced|fee|fees|pay|paid|sell for|sold for|worth|rent|tax|taxes|charge)\b|\bhow much\b.*\badjusted\b/i;
/** "Who is the lender?" may name a bank; "Who carried out …?", "Who is the inspector?" a person. */
const ASKS_PERSON =
  /^\s*who\b(?=.*\b(?:inspector|appraiser|engineer|surveyor|agent|broker|realtor|assistant|thermographer|did|\w+ed)\b)/i;
/** "What condition is the roof in?" of "Roof: Fair", "Condition rating: C3". */
const ASKS_CONDITION = /\b(?:condition|rated|rating|state of repair)\b|\bhow good\b/i;
const HOLDS_CONDITION =
  /\b(?:good|fair|poor|satisfactory|serviceable|deficient|excellent|average|C[1-6])\b/i;
const QUESTION_WORD = /^\s*(?:who|when|what|which|how|where|why)\b/i;
const QUESTION_WORDS_MAX = 30;
/** A kind weighs twice a word: it stands for the one thing the question cannot name. */
const ANSWER_KIND_WEIGHT = 2;

function isQuestion(text: string): boolean {
  return (
    (/\?\s*$/.test(text) || QUESTION_WORD.test(text)) &&
    foldWords(text).length <= QUESTION_WORDS_MAX
  );
}

/**
 * The kinds of answer `text` asks for (a question) or holds (any other text): a question that
 * asks "when" is nearer a text that holds a date, "how much … cost" one that holds a sum, "who
 * carried out" one that names a person by their role, "how much office space" one that holds a
 * figure of area, "how long has" one that says since when, "what share of" one that holds a
 * percentage. A lexical embedder cannot see that "When was the property inspected?" is answered
 * by "Inspection: 03/14/2024" rather than by every other line on inspecting; the kind adds one
 * feature on both sides, the same one, so such a pair comes closer (docs/adr/076, addendum
 * "kinds of answer"). A text is read as a question when it is short and ends with a question
 * mark or opens with a question word. Pure.
 */
export function answerKinds(text: string): string[] {
  const kinds: string[] = [];
  if (isQuestion(text)) {
    if (ASKS_DATE.test(text) && !ASKS_YEAR.test(text)) kinds.push('date');
    if (ASKS_SUM.test(text)) kinds.push('sum');
    if (ASKS_PERSON.test(text)) kinds.push('person');
    if (ASKS_CONDITION.test(text)) kinds.push('condition');
    if (spaceAsked(text)) kinds.push('measure');
    if (spanAsked(text)) kinds.push('span');
    if (shareAsked(text)) kinds.push('share');
  } else {
    if (HOLDS_DATE.test(text)) kinds.push('date');
    if (HOLDS_SUM.test(text)) kinds.push('sum');
    if (HOLDS_PERSON.test(text)) kinds.push('person');
    if (HOLDS_CONDITION.test(text)) kinds.push('condition');
    if (holdsArea(text)) kinds.push('measure');
    if (holdsSpan(text)) kinds.push('span');
    if (holdsShare(text)) kinds.push('share');
  }
  return kinds;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function add(v: Float64Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const i = h % EMBEDDING_DIMENSIONS;
  v[i] = (v[i] ?? 0) + (h & 0x80000000 ? -1 : 1) * weight;
}

/** A concept's feature weighs less than a word's: the word itself still matches best. */
const CONCEPT_WEIGHT = 0.7;

/**
 * Deterministic local embedder: signed feature hashing of words, word pairs, character
 * trigrams and the concepts of a small property-report vocabulary into 1536 dimensions, with
 * sublinear term weights, then normalised. No model and no network; similar wording gives
 * similar vectors, which is what a laptop run and the tests need. Named `local-hash-1536`.
 */
export class LocalEmbedder implements Embedder {
  readonly provider = 'local';
  readonly model = 'local-hash-1536';
  readonly maxBatch = 256;

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): number[] {
    const words = foldWords(text).filter((w) => !STOPWORDS.has(w));
    // "Who appraised the property?" is nearer "Appraiser: …" with the doer's noun after the verb.
    const question = isQuestion(text);
    const doer = question ? doerAsked(text, STOPWORDS) : null;
    const at = doer ? words.indexOf(doer.word) : -1;
    if (doer && at >= 0) words.splice(at + 1, 0, ...doer.doers);
    // "How is the house heated?" is nearer "Heating: …" with the noun after the participle.
    const manner = question ? mannerAsked(text) : null;
    const mannerAt = manner ? words.lastIndexOf(manner.word) : -1;
    if (manner && mannerAt >= 0) words.splice(mannerAt + 1, 0, manner.noun);
    // "Who is the appraisal for?" is nearer "the appraiser's client: …" with "client" at its end.
    const client = question ? clientAsked(text) : null;
    if (client) words.push(client.noun);
    const counts = new Map<string, number>();
    const bump = (f: string) => counts.set(f, (counts.get(f) ?? 0) + 1);
    for (let i = 0; i < words.length; i++) {
      const w = words[i] as string;
      bump(`w:${w}`);
      const concept = CONCEPT_OF.get(w);
      if (concept) bump(`k:${concept}`);
      if (i + 1 < words.length) bump(`b:${w} ${words[i + 1]}`);
      const padded = `^${w}$`;
      for (let j = 0; j + 3 <= padded.length; j++) bump(`c:${padded.slice(j, j + 3)}`);
    }
    const v = new Float64Array(EMBEDDING_DIMENSIONS);
    for (const kind of answerKinds(text)) add(v, `a:${kind}`, ANSWER_KIND_WEIGHT);
    for (const [feature, n] of counts) {
      const kind = feature[0];
      const weight = kind === 'w' ? 1 : kind === 'k' ? CONCEPT_WEIGHT : kind === 'b' ? 0.5 : 0.25;
      add(v, feature, weight * (1 + Math.log(n)));
    }
    return normalise(Array.from(v));
  }
}
