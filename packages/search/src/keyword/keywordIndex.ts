import {
  amountAsked,
  bareWord,
  clientAsked,
  doerAsked,
  mannerAsked,
  spanAsked,
} from '@reports/providers';
import { stemmer } from 'stemmer';
import { eng as ENGLISH_STOPWORDS } from 'stopword';

/** BM25 parameters of both backends (Lucene's defaults, which OpenSearch uses too). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** One keyword-leg hit: a chunk of the folder with its BM25 score, best first. */
export interface KeywordHit {
  chunk_id: string;
  /** 1 for the best hit. */
  rank: number;
  score: number;
}

/**
 * Which chunks a search may return (docs/adr/130-section-and-multi-report-scopes.md): the
 * chunks of `reportIds` (one folder, or the 2-20 folders of a multi-report scope), and when
 * `chunkIds` is set only those (a section scope: the section's and its subsections' chunks).
 * BM25 statistics (N, avgdl, document frequencies) are those of the union of `reportIds`.
 */
export interface SearchScope {
  reportIds: readonly string[];
  chunkIds: readonly string[] | null;
}

/** A chunk as the keyword index needs it. */
export interface IndexableChunk {
  id: string;
  tenant_id: string;
  report_id: string;
  target_id: string;
  content: string;
}

/**
 * The keyword leg: BM25 over unaccented, unstemmed words with prefix matching (each query word
 * matches every word of a chunk that starts with it), restricted to one report folder.
 * Two backends pass one conformance suite: Postgres (default) and OpenSearch.
 */
export interface KeywordIndex {
  /** `postgres` or `opensearch`; recorded in the retrieval log. */
  readonly backend: string;
  /** The folder's chunks that match any query word, best BM25 score first, at most `limit`. */
  search(reportId: string, query: string, limit: number): Promise<KeywordHit[]>;
  /** As `search`, over a scope: several folders (statistics of their union) or a set of chunks. */
  searchScope(scope: SearchScope, query: string, limit: number): Promise<KeywordHit[]>;
  /**
   * Makes the index hold exactly `chunks` for one pipeline target, after the target's rows in
   * `chunks` were replaced. Postgres keeps its statistics by trigger in the same transaction,
   * so this is a no-op there.
   */
  replaceTarget(
    target: { reportId: string; targetId: string },
    chunks: IndexableChunk[],
  ): Promise<void>;
  /** Creates what the backend needs (index, mapping); safe to call at every start-up. */
  ensureReady(): Promise<void>;
}

/** Numbers the hits 1..n in the order given. */
export function ranked(hits: Array<{ chunk_id: string; score: number }>): KeywordHit[] {
  return hits.map((h, i) => ({ chunk_id: h.chunk_id, score: h.score, rank: i + 1 }));
}

/**
 * Function words ("was", "the", "out", "is") that the keyword leg does not search for. With
 * prefix matching each one is a stem of many words ("out" of "outlet", "the" of "there"), so
 * they ranked chunks by words the question never asked; "make" stays ("furnace make"). The list
 * has "do" and "did" but not "does", "would" and "could" but not "will", "never" but not "not":
 * those three are added. "Does the building have sprinklers?" searched "does", which a report's
 * disclaimers say ("does not warrant"), and "not" is the start of "note", "notice", "nothing".
 */
const QUERY_STOPWORDS = new Set([
  ...ENGLISH_STOPWORDS.filter((w) => w !== 'make'),
  'does',
  'not',
  'will',
]);

/**
 * The adjective a question opens with after "How" to ask for a measure: "How big is the lot?"
 * asks for a size, which a report gives as a figure ("Site Area: 1.2 acres"), not as "big"; and
 * "far" is the start of "farm", "long" of "longitude". Like "much" and "many" (function words),
 * it is not searched.
 */
const HOW_MEASURE = new Set(['big', 'large', 'long', 'far']);

/**
 * The part of an inflected word that every form of it starts with: "zoned" and "zoning" both
 * start with "zon", "restrooms" with "restroom", "properties" with "propert". Prefix matching
 * then finds the word as the report writes it. The stem comes from the Porter stemmer, less the
 * "e" it keeps ("zone" of "zoned") and the "i" it puts for "y" ("properti"); a word that is not
 * inflected (no -s, -ed, -ing; "status", "glass" are not plurals), short, or not all letters is
 * left as written. Pure.
 */
export function inflectionPrefix(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length < 5 || !/^\p{Ll}+$/u.test(lower)) return word;
  if (!/(?:s|ed|ing)$/.test(lower) || /(?:us|ss|is)$/.test(lower)) return word;
  const stem = stemmer(lower);
  let prefix = '';
  while (prefix.length < stem.length && stem[prefix.length] === lower[prefix.length])
    prefix += stem[prefix.length];
  if (prefix === stem && stem.endsWith('i') && /i(?:es|ed)$/.test(lower))
    prefix = stem.slice(0, -1);
  else if (prefix === stem && stem.endsWith('e') && (lower === `${stem}d` || lower === `${stem}s`))
    prefix = stem.slice(0, -1);
  return prefix.length >= 3 ? prefix : word;
}

/** A question of when something was built, which reports answer with its year. */
const BUILT = /\b(?:built|constructed|erected)\b/i;

/**
 * The text the keyword leg searches for a question: its words less function words, each kept
 * word as written ("27.09.2022", "RB02380X.JPG" tokenise as before); the "When" that opens a
 * question also by the word its answer is labelled with, "date" ("year" for when it was built),
 * a "Where" by "location", a "How old" by "age" and "year", and the verb a "Who" asks by the
 * noun of its doer ("appraised": "appraiser", `doerAsked`); the measure a "How" asks ("How big",
 * "How long") is not searched, the participle that ends a "How is …" by its "-ing" noun
 * ("How is it zoned?": "zoning", `mannerAsked`), the "for" that ends a "Who … for?" by
 * "client" (`clientAsked`), the "long" of a "How long has …" by "since" (`spanAsked`), and the
 * participle of a "how much" question also by its "-age" noun ("covered": "coverage",
 * `amountAsked`).
 * With `families` (the `RETRIEVAL_WORD_FAMILIES` option, off by default: the spec's keyword leg
 * is unstemmed), an inflected word is searched as asked and also by the start its forms share
 * (`inflectionPrefix`): "zoned" finds "Zoning" too. A question of function words only is
 * searched whole. Pure.
 */
export function keywordQuery(query: string, families = false): string {
  const words = query.split(/\s+/).filter((w) => w !== '');
  const doer = doerAsked(query, QUERY_STOPWORDS);
  const how = /^how$/i.test(words[0] ?? '');
  const manner = mannerAsked(query);
  const client = clientAsked(query);
  const span = spanAsked(query);
  const amount = new Map(amountAsked(query).map((a) => [a.index, [a.noun]]));
  const kept = words.flatMap((w, i) => {
    const bare = bareWord(w);
    // "Who is the appraisal for?" asks for the party a report names its client ("Client: …");
    // "for", a function word, is searched as that noun.
    if (i === client?.index) return [client.noun];
    // "How long has the appraiser worked in this market?" asks for a span up to now, which a
    // report gives by its start ("… since 2002"): "long" (or the "many" of "How many years
    // has …"), not searched as a measure, is searched as "since".
    if (span && i === 1) return ['since'];
    // "When was it inspected?" asks for a date, which reports label "Date" ("Inspection Date:
    // …"), and "When was it built?" for a year ("Year Built: …"); the word itself stays, as
    // prose says it ("… when it was new construction in 2004").
    if (i === 0 && bare === 'when') return [w, BUILT.test(query) ? 'year' : 'date'];
    // "Where is the panel?" asks for a place, which reports label "Location" ("Panel
    // location: garage"); "How old is the roof?" for an age or a year ("Age: 12 years", "Year
    // installed: 2014").
    if (i === 0 && bare === 'where') return [w, 'location'];
    if (i === 1 && how && bare === 'old') return [w, 'age', 'year'];
    if (i === 1 && how && HOW_MEASURE.has(bare)) return [];
    if (bare === '' || QUERY_STOPWORDS.has(bare)) return [];
    // "Who appraised the property?" asks for the appraiser, whom a report names under that
    // word ("Appraiser: …"): the word is searched also by its doer's noun. "How is the property
    // zoned?" asks for what a report labels "Zoning: R-1", and "How is the house heated?" for
    // "Heating: forced air": the participle that ends such a question is searched also by that
    // noun ("How many rooms were inspected?" counts them: not this).
    // "How much of the lot can be covered by buildings?" asks for what a report labels "Lot
    // Coverage": the participle is searched also by its "-age" noun.
    const also =
      i === doer?.index ? doer.doers : i === manner?.index ? [manner.noun] : (amount.get(i) ?? []);
    if (!families || !/^\p{L}+$/u.test(bare)) return [w, ...also];
    // The word as asked, and the start its forms share: a chunk with the very word asked
    // ("reported") still ranks above one with another form ("report").
    const prefix = inflectionPrefix(bare);
    return prefix === bare ? [w, ...also] : [w, prefix, ...also];
  });
  return kept.length > 0 ? kept.join(' ') : query;
}
