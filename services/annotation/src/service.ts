import { startStageWorker, stageWorkerOptions, type ServiceRuntime } from '@reports/platform';
import { annotateStage } from './annotate/annotateStage.js';

export async function startAnnotation(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats'>,
): Promise<() => Promise<void>> {
  const handle = await startStageWorker(annotateStage({ pool: rt.pool }), stageWorkerOptions(rt));
  return () => handle.stop();
}
