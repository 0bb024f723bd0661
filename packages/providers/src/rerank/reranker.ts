/** One reranked candidate: its index in the input list and the reranker's relevance score. */
export interface RerankResult {
  index: number;
  score: number;
}

/**
 * A candidate passage: its text, or its text and the title it is filed under (a chunk's
 * section). A remote reranker reads the text; the local one also reads the title.
 */
export type RerankDocument = string | { text: string; title?: string | null };

/** The text of a candidate passage. Pure. */
export function rerankText(document: RerankDocument): string {
  return typeof document === 'string' ? document : document.text;
}

/** Orders candidate passages by relevance to a query (an external cross-encoder, or local). */
export interface Reranker {
  readonly provider: string;
  readonly model: string;
  /** Every input index exactly once, most relevant first. Throws `RerankError` on any failure. */
  rerank(
    query: string,
    documents: readonly RerankDocument[],
    signal?: AbortSignal,
  ): Promise<RerankResult[]>;
}

export class RerankError extends Error {
  constructor(
    message: string,
    readonly reason: 'error' | 'rate_limited' | 'timeout' | 'malformed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RerankError';
  }
}

/** The spec's limit: past it the fused order is returned. */
export const RERANK_TIMEOUT_MS = 8000;

export interface CohereRerankerOptions {
  /** Full endpoint URL, e.g. `https://api.cohere.com/v2/rerank` (Cohere, Jina, Voyage, TEI speak it). */
  url: string;
  apiKey?: string | undefined;
  model: string;
  /** Whole-call limit; the spec's 8 s unless a test shortens it. */
  timeoutMs?: number;
}

/**
 * Cohere-compatible `/rerank` client: `POST { model, query, documents, top_n }`, answer
 * `{ results: [{ index, relevance_score }] }`. No retry: a 429 or an error means the fused order
 * is used for this request (spec), which is better than making the user wait.
 */
export class CohereReranker implements Reranker {
  readonly provider = 'cohere';
  readonly model: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: CohereRerankerOptions) {
    this.model = opts.model;
    this.timeoutMs = opts.timeoutMs ?? RERANK_TIMEOUT_MS;
  }

  async rerank(
    query: string,
    candidates: readonly RerankDocument[],
    signal?: AbortSignal,
  ): Promise<RerankResult[]> {
    if (candidates.length === 0) return [];
    const documents = candidates.map(rerankText);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let body: unknown;
    try {
      const res = await fetch(this.opts.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.model, query, documents, top_n: documents.length }),
        signal: combined,
      });
      if (res.status === 429) {
        await res.body?.cancel();
        throw new RerankError('reranker rate limited (429)', 'rate_limited');
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new RerankError(`reranker answered ${res.status}`, 'error');
      }
      body = await res.json().catch((error: unknown) => {
        if (timeout.aborted) throw error;
        throw new RerankError('reranker answered a body that is not JSON', 'malformed');
      });
    } catch (error) {
      if (error instanceof RerankError) throw error;
      if (timeout.aborted) {
        throw new RerankError(`reranker took longer than ${this.timeoutMs} ms`, 'timeout', {
          cause: error,
        });
      }
      throw new RerankError(`reranker unreachable: ${(error as Error).message}`, 'error', {
        cause: error,
      });
    }
    return parseRerankResults(body, documents.length);
  }
}

/** Checks a rerank answer: every index once, in range, with a finite score; ordered by score. */
export function parseRerankResults(body: unknown, count: number): RerankResult[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results))
    throw new RerankError('rerank answer has no results list', 'malformed');
  const seen = new Set<number>();
  const out: RerankResult[] = [];
  for (const r of results as Array<{ index?: unknown; relevance_score?: unknown }>) {
    const index = r?.index;
    const score = r?.relevance_score;
    if (
      typeof index !== 'number' ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      seen.has(index)
    ) {
      throw new RerankError('rerank answer has a bad or repeated index', 'malformed');
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new RerankError('rerank answer has a score that is not a number', 'malformed');
    }
    seen.add(index);
    out.push({ index, score });
  }
  if (out.length !== count)
    throw new RerankError(`rerank answer ranks ${out.length} of ${count} documents`, 'malformed');
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}
