import { BM25_B, BM25_K1, type KeywordHit, type VectorHit } from '@reports/search';
import type { FolderSnapshot } from './snapshot.js';
import { cosineDistance, dotOf, reduceLanes } from './arithmetic.js';

/**
 * The two legs over folders held in memory, computing what `BM25_SQL` and `VECTOR_SQL` compute
 * (docs/adr/135-folder-index-in-memory.md): the same candidates in the same order, the same
 * scores (BM25 to the last bits of float8 arithmetic; cosine distances summed as the server's
 * pgvector sums them, see arithmetic.ts).
 */

/** A query word as Postgres tokenises it: lexeme of `to_tsvector('simple', unaccent(q))`, its count. */
export interface QueryLexeme {
  lexeme: string;
  qtf: number;
}

/** Compares two strings by code point, which is the byte order of their UTF-8 ("C" collation). */
function compareCodePoints(a: string, b: string): number {
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

/**
 * The first `limit` of candidates 0..count-1 in the order `before` defines (a strict total
 * order), best first: one pass keeping a sorted list of at most `limit`, as `ORDER BY ... LIMIT`.
 */
function selectFirst(
  count: number,
  limit: number,
  before: (a: number, b: number) => boolean,
): number[] {
  const kept: number[] = [];
  if (limit <= 0) return kept;
  for (let i = 0; i < count; i++) {
    if (kept.length === limit && !before(i, kept[limit - 1]!)) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(kept[mid]!, i)) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, i);
    if (kept.length > limit) kept.pop();
  }
  return kept;
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

  const ids: string[] = [];
  const values: number[] = [];
  folders.forEach((f, fi) => {
    const mark = scored[fi]!;
    const score = scores[fi]!;
    for (let c = 0; c < f.ids.length; c++) {
      if (mark[c] === 1 && (!allowed || allowed.has(f.ids[c]!))) {
        ids.push(f.ids[c]!);
        values.push(score[c]!);
      }
    }
  });
  // ORDER BY score DESC, chunk_id (uuid order is the order of its text).
  const best = selectFirst(ids.length, limit, (a, b) =>
    values[a] !== values[b] ? values[a]! > values[b]! : ids[a]! < ids[b]!,
  );
  return best.map((i, r) => ({ chunk_id: ids[i]!, rank: r + 1, score: values[i]! }));
}

/** `ORDER BY distance, id`: NaN after every number, as Postgres orders float8; then uuid order. */
function nearerThan(distances: readonly number[], ids: readonly string[]) {
  return (a: number, b: number): boolean => {
    const x = distances[a]!;
    const y = distances[b]!;
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn !== yn) return yn;
    if (!xn && x !== y) return x < y;
    return ids[a]! < ids[b]!;
  };
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
  const q = Float32Array.from(query);
  const ids: string[] = [];
  const distances: number[] = [];
  for (const f of folders) {
    const rows = f.vectorChunk.length;
    if (rows === 0) continue;
    if (f.dim !== q.length) throw new Error(`different vector dimensions ${f.dim} and ${q.length}`);
    const qNorm = dotOf(
      f.arithmetic,
      q.length,
      (i) => q[i]!,
      (i) => q[i]!,
    );
    const dots = f.arithmetic === 'float32x8' ? dotsFloat32x8(f, q) : dotsFloat64(f, q);
    for (let v = 0; v < rows; v++) {
      const id = f.ids[f.vectorChunk[v]!]!;
      if (allowed && !allowed.has(id)) continue;
      ids.push(id);
      distances.push(cosineDistance(dots[v]!, f.norms[v]!, qNorm));
    }
  }
  const best = selectFirst(ids.length, limit, nearerThan(distances, ids));
  return best.map((i, r) => ({ chunk_id: ids[i]!, rank: r + 1, distance: distances[i]! }));
}

/**
 * Dot products with every vector of the folder, column by column, skipping the query's zero
 * components (they add exactly nothing in either arithmetic): a sparse query, as the local
 * embedder's are, reads a small part of the folder.
 */
function dotsFloat64(f: FolderSnapshot, q: Float32Array): Float64Array {
  const rows = f.vectorChunk.length;
  const dots = new Float64Array(rows);
  for (let j = 0; j < f.dim; j++) {
    const qj = q[j]!;
    if (qj === 0) continue;
    const base = j * rows;
    for (let v = 0; v < rows; v++) dots[v] = dots[v]! + qj * f.columns[base + v]!;
  }
  return dots;
}

/** As `dotsFloat64`, in pgvector's eight float32 lanes (see arithmetic.ts). */
function dotsFloat32x8(f: FolderSnapshot, q: Float32Array): Float64Array {
  const rows = f.vectorChunk.length;
  // Lane l of vector v at lanes[v * 8 + l]; a Float32Array store rounds each step to float32.
  const lanes = new Float32Array(rows * 8);
  for (let j = 0; j < f.dim; j++) {
    const qj = q[j]!;
    if (qj === 0) continue;
    const base = j * rows;
    const lane = j & 7;
    for (let v = 0; v < rows; v++) {
      const k = v * 8 + lane;
      lanes[k] = lanes[k]! + qj * f.columns[base + v]!;
    }
  }
  const dots = new Float64Array(rows);
  for (let v = 0; v < rows; v++) {
    dots[v] = reduceLanes(lanes, v * 8);
  }
  return dots;
}
