import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RetrieveOptions, RetrievedChunk } from '@reports/contracts';
import { retrievalClient, type Nats } from '@reports/platform';

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
 * of one report folder, with the legs and keyword weight an eval variant measures.
 */
export async function retrieveFolder(
  nats: Nats,
  reportId: string | string[],
  query: string,
  topK: number,
  legs: RetrieveOptions['legs'],
  keywordWeight?: number,
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
      rerank: 'auto',
      hyde: 'auto',
      ...(keywordWeight === undefined ? {} : { keyword_weight: keywordWeight }),
    },
  });
  return res.chunks;
}
