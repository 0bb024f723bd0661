import type { Pool } from '@reports/platform';

/**
 * How cosine distances are summed in memory, so they equal what Postgres computes
 * (docs/adr/135-folder-index-in-memory.md):
 * - `float32x8`: pgvector's AVX build with fused multiply-add, as this project's Postgres runs it:
 *   eight float32 lanes (element i into lane i % 8, one rounding per step), lanes reduced as
 *   (l0 + l4, l1 + l5, l2 + l6, l3 + l7), then (t0 + t2) + (t1 + t3). Bit for bit the server's
 *   distances, so ties and near-ties order alike. Only for dimensions that are a multiple of 8
 *   (every common embedding size): the compiled loop's remainder is summed in an order not
 *   reproduced here, so other dimensions use `float64`.
 * - `float64`: exact sums of the float4 components, for a server whose arithmetic is not
 *   recognised; distances then agree to about 1e-7 and near-ties may order differently.
 */
export type VectorArithmetic = 'float32x8' | 'float64';

const f32 = Math.fround;

/** Reduces the eight float32 lanes at `l[at..at + 8]` as the vectorised loop does. */
export function reduceLanes(l: ArrayLike<number>, at = 0): number {
  const t0 = f32(l[at]! + l[at + 4]!);
  const t1 = f32(l[at + 1]! + l[at + 5]!);
  const t2 = f32(l[at + 2]! + l[at + 6]!);
  const t3 = f32(l[at + 3]! + l[at + 7]!);
  return f32(f32(t0 + t2) + f32(t1 + t3));
}

/** Sum of a[i] * b[i] for i < n in the given arithmetic (`a` and `b` read component i). */
export function dotOf(
  arithmetic: VectorArithmetic,
  n: number,
  a: (i: number) => number,
  b: (i: number) => number,
): number {
  if (arithmetic === 'float64') {
    let s = 0;
    for (let i = 0; i < n; i++) s += a(i) * b(i);
    return s;
  }
  if (n % 8 !== 0) throw new Error(`float32x8 sums need a multiple of 8 components, not ${n}`);
  const lanes = new Float32Array(8);
  for (let i = 0; i < n; i++) lanes[i & 7] = lanes[i & 7]! + a(i) * b(i);
  return reduceLanes(lanes);
}

/** pgvector's cosine distance from a dot product and two squared norms. */
export function cosineDistance(dot: number, normA: number, normB: number): number {
  const similarity = dot / Math.sqrt(normA * normB);
  return Number.isNaN(similarity) ? NaN : 1 - Math.min(Math.max(similarity, -1), 1);
}

/** pgvector's `x <=> y` summed in `arithmetic`. */
function distanceOf(arithmetic: VectorArithmetic, x: number[], y: number[]): number {
  const n = x.length;
  const at = (v: number[]) => (i: number) => v[i]!;
  return cosineDistance(
    dotOf(arithmetic, n, at(x), at(y)),
    dotOf(arithmetic, n, at(x), at(x)),
    dotOf(arithmetic, n, at(y), at(y)),
  );
}

/** Deterministic pseudo-random vectors for the calibration. */
function probeVectors(count: number, dim: number): number[][] {
  let seed = 12345;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296 - 0.5;
  };
  return Array.from({ length: count }, () => Array.from({ length: dim }, () => f32(next())));
}

/**
 * Which arithmetic reproduces the server's `<=>` bit for bit, found by asking it for the
 * distances of a few pseudo-random pairs; `float64` when none does.
 */
export async function calibrate(pool: Pool): Promise<VectorArithmetic> {
  for (const arithmetic of ['float32x8'] as const) {
    let all = true;
    for (const dim of [1536, 80]) {
      const a = probeVectors(8, dim);
      const b = probeVectors(9, dim).slice(1);
      const { rows } = await pool.query<{ d: number }>(
        'SELECT (x::vector <=> y::vector) AS d FROM unnest($1::text[], $2::text[]) AS t(x, y)',
        [a.map((v) => `[${v.join(',')}]`), b.map((v) => `[${v.join(',')}]`)],
      );
      rows.forEach((row, k) => {
        if (distanceOf(arithmetic, a[k]!, b[k]!) !== Number(row.d)) all = false;
      });
    }
    if (all) return arithmetic;
  }
  return 'float64';
}

/** The arithmetic a folder of `dim`-component vectors can use on a server summing as `found`. */
export function arithmeticFor(found: VectorArithmetic, dim: number): VectorArithmetic {
  return found === 'float32x8' && dim % 8 === 0 ? 'float32x8' : 'float64';
}
