import { LocalEmbedder, type Embedder } from '@reports/providers';
import {
  startStageWorker,
  stageWorkerOptions,
  type Config,
  type ServiceRuntime,
} from '@reports/platform';
import { embedStage } from './embed/embedStage.js';

/** The configured embedder; remote providers arrive with hybrid retrieval. */
export function embedderFor(config: Config): Embedder | null {
  if (config.EMBEDDING_PROVIDER === 'local') return new LocalEmbedder();
  const key =
    config.EMBEDDING_PROVIDER === 'openai' ? config.OPENAI_API_KEY : config.MISTRAL_API_KEY;
  // A remote provider without its key: the embed stage is skipped (spec).
  if (!key) return null;
  throw new Error(
    `EMBEDDING_PROVIDER=${config.EMBEDDING_PROVIDER}: remote embedding providers are not implemented yet; use local`,
  );
}

export async function startEmbedding(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats'>,
): Promise<() => Promise<void>> {
  const handle = await startStageWorker(
    embedStage({ pool: rt.pool, embedder: embedderFor(rt.config) }),
    stageWorkerOptions(rt),
  );
  return () => handle.stop();
}
