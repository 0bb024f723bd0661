// Tracing starts before anything else is loaded: its instrumentations patch pg
// and http as they load, so the rest is imported only afterwards.
import { startTelemetry } from '@reports/platform/telemetry';

startTelemetry('gateway');
const { runService } = await import('@reports/platform');
const { buildApp } = await import('./app.js');

/** Start-up and wiring only: build the real adapters, hand them to the app, listen. */
runService('gateway', async ({ config, logger, pool, nats, objectStore, clock }) => {
  const publicUrl = config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
  const app = await buildApp({ config, logger, pool, nats, objectStore, publicUrl, clock });
  await app.listen({ port: config.PORT, host: config.HOST });
  return () => app.close();
});
