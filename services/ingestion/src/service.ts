import {
  startStageWorker,
  stageWorkerOptions,
  type ConsumerHandle,
  type ServiceRuntime,
} from '@reports/platform';
import { scanStage } from './scan/scanStage.js';
import { parseStage } from './parse/parseStage.js';
import { ocrEngineFor } from './parse/ocrEngine.js';
import { finalizeStage } from './finalize/finalizeStage.js';
import { startProjector } from './projection/projector.js';

/** Starts scan, parse, finalize and the status projection; returns how to stop them. */
export async function startIngestion(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats' | 'objectStore'>,
): Promise<() => Promise<void>> {
  const { config, logger, pool, nats, objectStore } = rt;
  const worker = stageWorkerOptions(rt);
  const handles: ConsumerHandle[] = [
    await startProjector({
      nats,
      pool,
      logger,
      ackWaitMs: config.STAGE_ACK_WAIT_MS,
      maxDeliver: config.STAGE_MAX_DELIVER,
    }),
    await startStageWorker(scanStage({ pool, objectStore }), worker),
    await startStageWorker(parseStage({ pool, objectStore, ocr: ocrEngineFor(config) }), {
      ...worker,
      // Reading a long scan is slow; the spec gives OCR 900000 ms, so parse gets at least that.
      timeoutMs: Math.max(worker.timeoutMs, config.OCR_TIMEOUT_MS),
    }),
    await startStageWorker(finalizeStage({ pool }), worker),
  ];
  return async () => {
    await Promise.all(handles.map((h) => h.stop()));
  };
}
