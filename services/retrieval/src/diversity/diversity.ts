/** What the diversity rule needs to know about a ranked chunk. */
export interface DiversityItem {
  source_type: string;
  /** The score the list is ordered by (rerank score when reranked, else RRF). */
  score: number;
}

/** The spec's limit on swaps. */
export const MAX_DIVERSITY_SWAPS = 2;
/** The rule applies from this top_k up. */
export const DIVERSITY_MIN_TOP_K = 4;

export interface DiversityResult<T> {
  selected: T[];
  swaps: number;
}

/**
 * Spec rule 5 (folder scope): when top_k is at least 4 and the candidates hold more than one
 * source_type, the lowest-scored chunk of the dominant source_type in the selection is swapped
 * for the highest-scored candidate of a source_type missing from it; at most 2 swaps.
 *
 * `ranked` is every candidate, best first; the selection is its first `topK`. Reading of the
 * rule where the spec is silent:
 * - "present" means present among the candidates (the fused list), "missing" means absent from
 *   the selection.
 * - Each swap recomputes the dominant type (most chunks in the selection; a tie goes to the type
 *   whose weakest chunk scores lowest, then by name) and picks, among missing types, the one
 *   whose best candidate scores highest.
 * - A type with a single chunk in the selection is never swapped out (that would only trade
 *   one missing type for another).
 * - The result is ordered by score, so a swapped-in chunk takes its place by its own score.
 * Pure; `ranked` is not modified.
 */
export function diversify<T extends DiversityItem>(
  ranked: readonly T[],
  topK: number,
): DiversityResult<T> {
  const selected = ranked.slice(0, topK);
  if (topK < DIVERSITY_MIN_TOP_K) return { selected, swaps: 0 };
  const pool = ranked.slice(topK);
  const typesPresent = new Set(ranked.map((c) => c.source_type));
  if (typesPresent.size < 2) return { selected, swaps: 0 };
  let swaps = 0;
  while (swaps < MAX_DIVERSITY_SWAPS) {
    const inSelection = new Map<string, T[]>();
    for (const c of selected)
      inSelection.set(c.source_type, [...(inSelection.get(c.source_type) ?? []), c]);
    // Candidates of missing types, best first (pool is in rank order).
    const incoming = pool.find((c) => !inSelection.has(c.source_type));
    if (!incoming) break;
    const weakest = (items: T[]) => items.reduce((lo, c) => (c.score < lo.score ? c : lo));
    const dominant = [...inSelection.entries()]
      .filter(([, items]) => items.length >= 2)
      .sort(
        ([ta, a], [tb, b]) =>
          b.length - a.length ||
          weakest(a).score - weakest(b).score ||
          (ta < tb ? -1 : ta > tb ? 1 : 0),
      )[0];
    if (!dominant) break;
    const outgoing = weakest(dominant[1]);
    // The lowest-scored chunk of the dominant type; among equal scores, the one ranked last.
    const outIndex = selected.lastIndexOf(
      [...dominant[1]].reverse().find((c) => c.score === outgoing.score) ?? outgoing,
    );
    selected.splice(outIndex, 1);
    pool.splice(pool.indexOf(incoming), 1);
    selected.push(incoming);
    swaps += 1;
  }
  if (swaps > 0) {
    const order = new Map(ranked.map((c, i) => [c, i]));
    selected.sort((a, b) => b.score - a.score || (order.get(a) ?? 0) - (order.get(b) ?? 0));
  }
  return { selected, swaps };
}

/** What the report rule needs to know about a ranked chunk. */
export interface ReportDiversityItem {
  report_id: string;
  score: number;
}

/**
 * Multi-report scope (docs/adr/130-section-and-multi-report-scopes.md): one report cannot take
 * every slot. When top_k is at least 2, the selection (the first `topK`) holds a single report
 * and the candidates hold others, the selection's lowest-scored chunk is swapped for the
 * highest-scored candidate of another report; then, if a third report has candidates and the
 * selection still holds the first report at least twice, once more (at most 2 swaps, as the
 * source-type rule). A selection already spanning two reports is left as ranked, so the rule
 * costs nothing to a query whose best chunks are spread anyway. Pure; ordered by score.
 */
export function diversifyReports<T extends ReportDiversityItem>(
  ranked: readonly T[],
  topK: number,
): DiversityResult<T> {
  const selected = ranked.slice(0, topK);
  const first = selected[0];
  if (topK < 2 || !first || selected.some((c) => c.report_id !== first.report_id)) {
    return { selected, swaps: 0 };
  }
  const incoming: T[] = [];
  for (const c of ranked.slice(topK)) {
    if (incoming.length >= MAX_DIVERSITY_SWAPS) break;
    if (c.report_id !== first.report_id && !incoming.some((i) => i.report_id === c.report_id)) {
      incoming.push(c);
    }
  }
  const swaps = Math.min(incoming.length, selected.length - 1);
  if (swaps === 0) return { selected, swaps: 0 };
  const kept = selected.slice(0, selected.length - swaps);
  const order = new Map(ranked.map((c, i) => [c, i]));
  const result = [...kept, ...incoming.slice(0, swaps)].sort(
    (a, b) => b.score - a.score || (order.get(a) ?? 0) - (order.get(b) ?? 0),
  );
  return { selected: result, swaps };
}
