import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadWebConfig } from './server/config.js';
import { buildOpsApp, buildWebApp } from './server/app.js';

/** Start-up and wiring only: configuration, the app, listen, stop on SIGTERM. */
const config = loadWebConfig();
const staticDir =
  config.WEB_STATIC_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'public');
const app = await buildWebApp({ config, staticDir });
await app.listen({ port: config.WEB_PORT, host: config.HOST });
// Kubernetes probes the operations port (METRICS_PORT) of every service.
const ops = config.METRICS_PORT ? await buildOpsApp() : null;
if (ops && config.METRICS_PORT) await ops.listen({ port: config.METRICS_PORT, host: '0.0.0.0' });
const stop = () => {
  Promise.all([app.close(), ops?.close()]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
