import { embedderFor as configuredEmbedder, type Embedder } from '@reports/providers';
import { keywordIndexFor } from '@reports/search';
import {
  startStageWorker,
  stageWorkerOptions,
  type Config,
  type ServiceRuntime,
} from '@reports/platform';
import { embedStage, type EmbedDeps } from './embed/embedStage.js';
import { observedEmbedder } from './embed/observedEmbedder.js';
import { startEmbedCommands } from './commands/embedCommand.js';

/**
 * The configured embedder: local, OpenAI-compatible or Mistral; null when a remote provider is
 * chosen without its key (the embed stage is then skipped, as the spec says).
 */
export function embedderFor(config: Config): Embedder | null {
  return configuredEmbedder(config);
}

const observed = (embedder: Embedder | null) => embedder && observedEmbedder(embedder);

export async function startEmbedding(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats'>,
): Promise<() => Promise<void>> {
  const deps: EmbedDeps = {
    pool: rt.pool,
    embedder: observed(embedderFor(rt.config)),
    keywordIndex: keywordIndexFor(rt.config, rt.pool),
  };
  await deps.keywordIndex?.ensureReady();
  const options = stageWorkerOptions(rt);
  const handle = await startStageWorker(embedStage(deps), options);
  const commands = await startEmbedCommands(deps, {
    ...options,
    replicas: rt.config.NATS_STREAM_REPLICAS,
  });
  return async () => {
    await Promise.all([handle.stop(), commands.stop()]);
  };
}
