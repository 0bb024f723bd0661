import { startStageWorker, stageWorkerOptions, type ServiceRuntime } from '@reports/platform';
import { annotateStage } from './annotate/annotateStage.js';
import { visionModelFor } from './models/fromConfig.js';

export async function startAnnotation(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats' | 'objectStore'>,
): Promise<() => Promise<void>> {
  const model = visionModelFor(rt.config, rt.logger);
  rt.logger.info(
    { annotation_source: model?.source ?? 'local', model: model?.model ?? 'local-heuristic' },
    'figure annotation provider',
  );
  const handle = await startStageWorker(
    annotateStage({
      pool: rt.pool,
      objectStore: rt.objectStore,
      model,
      concurrency: rt.config.ANNOTATION_CONCURRENCY,
    }),
    stageWorkerOptions(rt),
  );
  return () => handle.stop();
}
