import { runService } from '@reports/platform';
import { buildApp } from './app.js';

/** Start-up and wiring only: build the real adapters, hand them to the app, listen. */
runService('gateway', async ({ config, logger, pool, nats, objectStore }) => {
  const publicUrl = config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
  const app = await buildApp({ config, logger, pool, nats, objectStore, publicUrl });
  await app.listen({ port: config.PORT, host: config.HOST });
  return () => app.close();
});
