import { eng as ENGLISH_STOPWORDS } from 'stopword';
import { EMBEDDING_DIMENSIONS, normalise, type Embedder } from './embedder.js';

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
  size: ['big', 'large', 'size', 'sized', 'footage', 'sqft', 'gla'],
  value: ['value', 'valued', 'valuation', 'worth'],
  heating: ['heating', 'heated', 'heat', 'furnace', 'boiler', 'fwa'],
  electrical: ['electrical', 'electric', 'amp', 'amps', 'amperage', 'breaker', 'breakers'],
  inspection: ['inspected', 'inspection', 'inspect', 'inspector'],
  appraiser: ['appraiser', 'appraisers', 'appraised'],
  owner: ['owner', 'owners', 'owns', 'owned', 'ownership'],
  buyer: ['buyer', 'buyers', 'purchaser', 'purchasers', 'grantee', 'buying'],
  seller: ['seller', 'sellers', 'grantor', 'selling'],
  flood: ['flood', 'flooding', 'fema'],
  garage: ['garage', 'garages', 'carport', 'carports'],
  repair: ['repair', 'repairs', 'repaired', 'defect', 'defects', 'deficiency', 'deficiencies'],
  marketing: ['marketing', 'exposure'],
  rent: ['rent', 'rents', 'rental', 'rented', 'lease', 'leased'],
};
const CONCEPT_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(CONCEPTS).flatMap(([concept, words]) => words.map((w) => [w, concept] as const)),
);

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
    for (const [feature, n] of counts) {
      const kind = feature[0];
      const weight = kind === 'w' ? 1 : kind === 'k' ? CONCEPT_WEIGHT : kind === 'b' ? 0.5 : 0.25;
      add(v, feature, weight * (1 + Math.log(n)));
    }
    return normalise(Array.from(v));
  }
}
