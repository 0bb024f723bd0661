// Tracing starts before anything else is loaded: its instrumentations patch pg
// and http as they load, so the rest is imported only afterwards.
import { startTelemetry } from '@reports/platform/telemetry';

startTelemetry('admin');
const { runService } = await import('@reports/platform');
const { startAdmin } = await import('./service.js');

runService('admin', (runtime) => startAdmin(runtime));
