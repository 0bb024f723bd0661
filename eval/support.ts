import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RetrieveOptions, RetrievedChunk } from '@reports/contracts';
import { retrievalClient, type Nats } from '@reports/platform';
import type { RunningSystem } from '../test/support/system.js';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Maps `items` through `fn` with at most `n` calls in flight, keeping their order. */
export async function inPool<T, R>(
  items: T[],
  n: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** What `git` prints for `args` in the repository, or `unknown` where git cannot tell. */
export function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Asks the retrieval service (as an admin caller, no tenant scope) for the `topK` best chunks
 * of one report folder, with the legs, keyword weight and word families an eval variant measures.
 */
export async function retrieveFolder(
  nats: Nats,
  reportId: string | string[],
  query: string,
  topK: number,
  legs: RetrieveOptions['legs'],
  keywordWeight?: number,
  wordFamilies?: boolean,
  rerank: RetrieveOptions['rerank'] = 'off',
): Promise<RetrievedChunk[]> {
  const res = await retrievalClient(nats.nc, 60_000).retrieve({
    caller: { kind: 'admin' },
    // Several reports: the multi_report scope over them (docs/adr/130).
    scope:
      typeof reportId === 'string'
        ? { type: 'folder', report_id: reportId }
        : { type: 'multi_report', report_ids: reportId },
    query,
    top_k: topK,
    options: {
      legs,
      rerank,
      hyde: 'auto',
      ...(keywordWeight === undefined ? {} : { keyword_weight: keywordWeight }),
      ...(wordFamilies === undefined ? {} : { word_families: wordFamilies }),
    },
  });
  return res.chunks;
}

/** How the in-memory folder index and the SQL legs compared over one set of retrievals. */
export interface PathComparison {
  retrievals: number;
  /** Retrievals whose chunks came back the same, in the same ranks, on both paths. */
  identical: number;
  /** Largest difference of a chunk's BM25 score, and of its cosine distance, between the paths. */
  max_bm25_score_diff: number;
  max_vector_dist_diff: number;
  first_difference: string | null;
}

/**
 * Runs `ask` with the retrieval service as it is (folders in memory, ADR 135), then with the
 * service restarted with `RETRIEVAL_MEMORY_BUDGET_MB=0` (the SQL legs), and compares the answers;
 * the service is restarted as it was afterwards.
 */
export async function compareRetrievalPaths(
  system: RunningSystem,
  ask: ReadonlyArray<{ label: string; run: () => Promise<RetrievedChunk[]> }>,
): Promise<PathComparison> {
  const memory = await inPool([...ask], 4, (a) => a.run());
  // `start` adds a process: the running one must go first, or both would answer.
  await system.kill('retrieval', 'SIGTERM');
  await system.start('retrieval', { RETRIEVAL_MEMORY_BUDGET_MB: '0' });
  const sql = await inPool([...ask], 4, (a) => a.run());
  await system.kill('retrieval', 'SIGTERM');
  await system.start('retrieval');
  const result: PathComparison = {
    retrievals: ask.length,
    identical: 0,
    max_bm25_score_diff: 0,
    max_vector_dist_diff: 0,
    first_difference: null,
  };
  ask.forEach((a, i) => {
    const m = memory[i]!;
    const s = sql[i]!;
    const same =
      m.length === s.length &&
      m.every(
        (c, r) =>
          c.id === s[r]!.id &&
          c.bm25_rank === s[r]!.bm25_rank &&
          c.vector_rank === s[r]!.vector_rank,
      );
    if (same) result.identical += 1;
    else if (result.first_difference === null) {
      const r = m.findIndex((c, k) => c.id !== s[k]?.id);
      const sameSet =
        new Set(m.map((c) => c.id)).size === new Set([...m, ...s].map((c) => c.id)).size;
      const at = (c: RetrievedChunk | undefined) =>
        c ? `${c.vector_dist ?? '-'} / ${c.bm25_score ?? '-'}` : 'none';
      result.first_difference =
        `${a.label}: rank ${r + 1} differs (distance / BM25 in memory ${at(m[r])}, in SQL ${at(s[r])}); ` +
        `same chunks overall: ${sameSet}`;
    }
    m.forEach((c, r) => {
      const o = s[r];
      if (!o || o.id !== c.id) return;
      if (c.bm25_score !== null && o.bm25_score !== null)
        result.max_bm25_score_diff = Math.max(
          result.max_bm25_score_diff,
          Math.abs(c.bm25_score - o.bm25_score),
        );
      if (c.vector_dist !== null && o.vector_dist !== null)
        result.max_vector_dist_diff = Math.max(
          result.max_vector_dist_diff,
          Math.abs(c.vector_dist - o.vector_dist),
        );
    });
  });
  return result;
}
