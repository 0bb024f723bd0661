// Tracing starts before anything else is loaded: its instrumentations patch pg
// and http as they load, so the rest is imported only afterwards.
import { startTelemetry } from '@reports/platform/telemetry';

startTelemetry('retrieval');
const { runService } = await import('@reports/platform');
const { startRetrieval } = await import('./service.js');

runService('retrieval', (runtime) => startRetrieval(runtime));
