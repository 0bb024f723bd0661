import { embedderFor, rerankerFor, textGeneratorFor } from '@reports/providers';
import type { ServiceRuntime } from '@reports/platform';
import { keywordIndexFor } from '@reports/search';
import { startRetrievalEndpoint } from './service/endpoint.js';
import type { RetrievalDeps } from './retrieve/retrieve.js';
import { FolderIndexCache } from './memory/cache.js';
import { RetrievalLogWriter } from './log/retrievalLog.js';

/** The real adapters from the configuration. */
export function retrievalDeps(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool'> & Partial<Pick<ServiceRuntime, 'clock'>>,
): RetrievalDeps & { retrievalLog: RetrievalLogWriter } {
  return {
    pool: rt.pool,
    retrievalLog: new RetrievalLogWriter(rt.pool, rt.logger),
    ...(rt.clock ? { clock: rt.clock } : {}),
    keywordIndex: keywordIndexFor(rt.config, rt.pool),
    embedder: embedderFor(rt.config),
    reranker: rerankerFor(rt.config),
    generator: textGeneratorFor(rt.config),
    logger: rt.logger,
    keywordWeight: rt.config.RETRIEVAL_KEYWORD_WEIGHT,
    wordFamilies: rt.config.RETRIEVAL_WORD_FAMILIES,
    folderIndex:
      rt.config.RETRIEVAL_MEMORY_BUDGET_MB > 0
        ? new FolderIndexCache(
            rt.pool,
            rt.config.RETRIEVAL_MEMORY_BUDGET_MB * 1024 * 1024,
            rt.logger,
          )
        : null,
  };
}

export async function startRetrieval(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats'> &
    Partial<Pick<ServiceRuntime, 'clock'>>,
  deps: RetrievalDeps & { retrievalLog: RetrievalLogWriter } = retrievalDeps(rt),
): Promise<() => Promise<void>> {
  await deps.keywordIndex.ensureReady();
  const service = await startRetrievalEndpoint(rt.nats.nc, deps);
  rt.logger.info(
    {
      keyword_backend: deps.keywordIndex.backend,
      embedding: deps.embedder?.model ?? null,
      rerank: deps.reranker?.model ?? null,
      hyde: deps.generator?.model ?? null,
    },
    'retrieval endpoint ready',
  );
  return async () => {
    await service.stop();
    // Before the pool closes: the rows of the requests just answered.
    await deps.retrievalLog.close();
  };
}
