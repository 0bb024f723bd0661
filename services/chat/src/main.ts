// Tracing starts before anything else is loaded: its instrumentations patch pg
// and http as they load, so the rest is imported only afterwards.
import { startTelemetry } from '@reports/platform/telemetry';

startTelemetry('chat');
const { runService } = await import('@reports/platform');
const { startChat } = await import('./service.js');

runService('chat', (runtime) => startChat(runtime));
