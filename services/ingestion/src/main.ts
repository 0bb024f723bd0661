// Tracing starts before anything else is loaded: its instrumentations patch pg
// and http as they load, so the rest is imported only afterwards.
import { startTelemetry } from '@reports/platform/telemetry';

startTelemetry('ingestion');
const { runService } = await import('@reports/platform');
const { startIngestion } = await import('./service.js');

runService('ingestion', (runtime) => startIngestion(runtime));
