/** Summary of a sample, in the unit of its values, rounded to `digits` decimals (2 unless told). */
export interface Distribution {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** The p-th percentile of sorted values, interpolated between ranks. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** The median of values in any order. */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** `n` rounded to `digits` decimals. */
export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function distribution(values: readonly number[], digits = 2): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const r = (x: number) => round(x, digits);
  return {
    n: sorted.length,
    p50: r(percentile(sorted, 50)),
    p95: r(percentile(sorted, 95)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted.at(-1) ?? NaN),
    mean: r(sorted.reduce((a, b) => a + b, 0) / Math.max(sorted.length, 1)),
  };
}
