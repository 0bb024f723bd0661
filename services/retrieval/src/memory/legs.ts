import { BM25_B, BM25_K1, type KeywordHit, type VectorHit } from '@reports/search';
import type { FolderSnapshot } from './snapshot.js';

/**
 * The two legs over folders held in memory, computing what `BM25_SQL` and `VECTOR_SQL` compute
 * (docs/adr/135-folder-index-in-memory.md): the same candidates in the same order, the same
 * scores (BM25 to the last bits of float8 arithmetic; cosine distance computed exactly from the
 * float4 components, where pgvector sums in float4: they agree to about 1e-7).
 */

/** A query word as Postgres tokenises it: lexeme of `to_tsvector('simple', unaccent(q))`, its count. */
export interface QueryLexeme {
  lexeme: string;
  qtf: number;
}

/** Compares two strings by code point, which is the byte order of their UTF-8 ("C" collation). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP code unit in code point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** First index of `terms` (sorted by code point) not below `key`. */
function lowerBound(terms: readonly string[], key: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(terms[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The SQL's range `term >= prefix AND term < prefix || chr(1114111)`. */
function inPrefixRange(term: string, prefix: string): boolean {
  if (!term.startsWith(prefix)) return false;
  return term.codePointAt(prefix.length) !== 0x10ffff;
}

/** Orders hits as `ORDER BY score DESC, chunk_id` (uuid order is the order of its text). */
function byScoreThenId(a: { score: number; id: string }, b: { score: number; id: string }): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * BM25 over the union of `folders` (N, avgdl and document frequencies of the union), prefix
 * matching per query word; `allowed`, when set, keeps only those chunks (statistics unchanged).
 */
export function keywordSearch(
  folders: readonly FolderSnapshot[],
  lexemes: readonly QueryLexeme[],
  limit: number,
  allowed: ReadonlySet<string> | null,
): KeywordHit[] {
  const docs = folders.reduce((s, f) => s + f.docs, 0);
  const totalLength = folders.reduce((s, f) => s + f.totalLength, 0);
  if (docs === 0 || lexemes.length === 0) return [];
  const avgdl = Math.max(totalLength / Math.max(docs, 1), 1);
  const scores = folders.map((f) => new Float64Array(f.ids.length));
  const scored = folders.map((f) => new Uint8Array(f.ids.length));
  const tf = folders.map((f) => new Float64Array(f.ids.length));
  const touched: number[][] = folders.map(() => []);

  for (const { lexeme, qtf } of lexemes) {
    let df = 0;
    folders.forEach((f, fi) => {
      const acc = tf[fi]!;
      const list = touched[fi]!;
      for (let t = lowerBound(f.terms, lexeme); t < f.terms.length; t++) {
        const term = f.terms[t]!;
        if (!term.startsWith(lexeme)) break;
        if (!inPrefixRange(term, lexeme)) continue;
        for (let p = f.postingStart[t]!; p < f.postingStart[t + 1]!; p++) {
          const c = f.postingChunk[p]!;
          if (acc[c] === 0) list.push(c);
          acc[c] = acc[c]! + f.postingTf[p]!;
        }
      }
      df += list.length;
    });
    if (df === 0) continue;
    const idf = Math.log(1 + (docs - df + 0.5) / (df + 0.5));
    folders.forEach((f, fi) => {
      const acc = tf[fi]!;
      const score = scores[fi]!;
      const mark = scored[fi]!;
      for (const c of touched[fi]!) {
        const t = acc[c]!;
        score[c] =
          score[c]! +
          (qtf * idf * t * (BM25_K1 + 1)) /
            (t + BM25_K1 * (1 - BM25_B + (BM25_B * f.dl[c]!) / avgdl));
        mark[c] = 1;
        acc[c] = 0;
      }
      touched[fi] = [];
    });
  }

  const hits: Array<{ id: string; score: number }> = [];
  folders.forEach((f, fi) => {
    const mark = scored[fi]!;
    const score = scores[fi]!;
    for (let c = 0; c < f.ids.length; c++) {
      if (mark[c] === 1 && (!allowed || allowed.has(f.ids[c]!)))
        hits.push({ id: f.ids[c]!, score: score[c]! });
    }
  });
  hits.sort(byScoreThenId);
  return hits.slice(0, limit).map((h, i) => ({ chunk_id: h.id, rank: i + 1, score: h.score }));
}

/** Dot product of two float32 rows, accumulated in float64 (four partial sums). */
function dot(a: Float32Array, aOffset: number, b: Float64Array, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < dim; j += 4) {
    s0 += a[aOffset + j]! * b[j]!;
    s1 += a[aOffset + j + 1]! * b[j + 1]!;
    s2 += a[aOffset + j + 2]! * b[j + 2]!;
    s3 += a[aOffset + j + 3]! * b[j + 3]!;
  }
  for (; j < dim; j++) s0 += a[aOffset + j]! * b[j]!;
  return s0 + s1 + s2 + s3;
}

/** NaN last, as Postgres orders float8 (NaN above every number), then uuid order. */
function byDistanceThenId(
  a: { distance: number; id: string },
  b: { distance: number; id: string },
): number {
  const an = Number.isNaN(a.distance);
  const bn = Number.isNaN(b.distance);
  if (an !== bn) return an ? 1 : -1;
  if (!an && a.distance !== b.distance) return a.distance - b.distance;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Exact nearest neighbours by cosine distance (pgvector's `<=>`: 1 - cos, cos clamped to
 * [-1, 1], NaN for a zero vector) over the embedded chunks of `folders`.
 */
export function vectorSearch(
  folders: readonly FolderSnapshot[],
  query: readonly number[],
  limit: number,
  allowed: ReadonlySet<string> | null,
): VectorHit[] {
  // The query is cast to `vector`, whose components are float4.
  const q = Float64Array.from(query, (x) => Math.fround(x));
  let qNorm = 0;
  for (let j = 0; j < q.length; j++) qNorm += q[j]! * q[j]!;
  const hits: Array<{ id: string; distance: number }> = [];
  for (const f of folders) {
    if (f.dim !== q.length) {
      if (f.vectorChunk.length === 0) continue;
      throw new Error(`different vector dimensions ${f.dim} and ${q.length}`);
    }
    for (let v = 0; v < f.vectorChunk.length; v++) {
      const id = f.ids[f.vectorChunk[v]!]!;
      if (allowed && !allowed.has(id)) continue;
      const similarity = dot(f.vectors, v * f.dim, q, f.dim) / Math.sqrt(f.norms[v]! * qNorm);
      const distance = Number.isNaN(similarity) ? NaN : 1 - Math.min(Math.max(similarity, -1), 1);
      hits.push({ id, distance });
    }
  }
  hits.sort(byDistanceThenId);
  return hits
    .slice(0, limit)
    .map((h, i) => ({ chunk_id: h.id, rank: i + 1, distance: h.distance }));
}
