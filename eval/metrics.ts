/** Relevance judgements: query id -> document id -> grade (> 0 is relevant). */
export type Qrels = Map<string, Map<string, number>>;

/** nDCG@k with linear gains (as pytrec_eval's ndcg_cut, which BEIR reports). */
export function ndcgAt(ranked: readonly string[], judged: Map<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((doc, i) => {
    const gain = judged.get(doc) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(i + 2);
  });
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Share of the relevant documents found in the first k. */
export function recallAt(
  ranked: readonly string[],
  judged: Map<string, number>,
  k: number,
): number {
  const relevant = [...judged.entries()].filter(([, g]) => g > 0).map(([d]) => d);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((d) => top.has(d)).length / relevant.length;
}

/** Keeps the first occurrence of each document (several chunks of one document count once, at its best rank). */
export function firstPerDocument(docs: readonly string[]): string[] {
  const seen = new Set<string>();
  return docs.filter((d) => (seen.has(d) ? false : (seen.add(d), true)));
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
