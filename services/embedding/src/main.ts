// Tracing starts before anything else is loaded: its instrumentations patch pg
// and http as they load, so the rest is imported only afterwards.
import { startTelemetry } from '@reports/platform/telemetry';

startTelemetry('embedding');
const { runService } = await import('@reports/platform');
const { startEmbedding } = await import('./service.js');

runService('embedding', (runtime) => startEmbedding(runtime));
