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

/**
 * Deterministic local embedder: signed feature hashing of words, word pairs and
 * character trigrams into 1536 dimensions, with sublinear term weights, then
 * normalised. No model and no network; similar wording gives similar vectors,
 * which is what a laptop run and the tests need. Named `local-hash-1536`.
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
      if (i + 1 < words.length) bump(`b:${w} ${words[i + 1]}`);
      const padded = `^${w}$`;
      for (let j = 0; j + 3 <= padded.length; j++) bump(`c:${padded.slice(j, j + 3)}`);
    }
    const v = new Float64Array(EMBEDDING_DIMENSIONS);
    for (const [feature, n] of counts) {
      const kind = feature[0];
      const weight = kind === 'w' ? 1 : kind === 'b' ? 0.5 : 0.25;
      add(v, feature, weight * (1 + Math.log(n)));
    }
    return normalise(Array.from(v));
  }
}
