import { scoreFacts } from '../text/localAnswer.js';
import { rerankText, type RerankDocument, type Reranker, type RerankResult } from './reranker.js';

/**
 * The local reranker (`RERANK_ENABLED` without `RERANK_URL`): orders candidate passages by the
 * best fact each holds for the question, as the local answerer scores facts (its `Label: value`
 * lines, table rows and sentences, weighed by the words asked, their rarity among the candidates,
 * and what kind of answer the question asks for). A passage that holds no fact matching the
 * question keeps its place after those that do. No model and no network; named `local-facts`
 * (docs/adr/138-local-reranker.md).
 */
export class LocalReranker implements Reranker {
  readonly provider = 'local';
  readonly model = 'local-facts';

  async rerank(
    query: string,
    documents: readonly RerankDocument[],
    signal?: AbortSignal,
  ): Promise<RerankResult[]> {
    signal?.throwIfAborted();
    const best = documents.map(() => 0);
    const scored = scoreFacts(
      documents.map((d, i) => ({
        ref: `C${i + 1}`,
        title: (typeof d === 'string' ? null : d.title) ?? '',
        text: rerankText(d),
      })),
      query,
    );
    for (const f of scored) if (f.score > best[f.doc]!) best[f.doc] = f.score;
    return best
      .map((score, index) => ({ index, score }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
  }
}
