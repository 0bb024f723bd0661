import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsText } from './metrics.js';

export interface OpsServerOptions {
  port: number;
  host: string;
  /** Readiness: false (or a throw) answers 503, so Kubernetes sends no work meanwhile. */
  ready(): Promise<boolean> | boolean;
}

export interface OpsServer {
  /** The port it listens on (useful with port 0 in tests). */
  port: number;
  /** From now on /readyz answers 503 (used as soon as shutdown starts). */
  markStopping(): void;
  close(): Promise<void>;
}

/**
 * The operations endpoint of a service without an HTTP API of its own:
 * `/metrics` (Prometheus text), `/healthz` (liveness: the event loop answers) and
 * `/readyz` (readiness: dependencies reachable and not shutting down).
 */
export async function startOpsServer(opts: OpsServerOptions): Promise<OpsServer> {
  let stopping = false;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return reply(405, 'text/plain', 'method not allowed\n');
    if (path === '/metrics') {
      metricsText().then(
        ({ contentType, body }) => reply(200, contentType, body),
        (error: unknown) => reply(500, 'text/plain', `${(error as Error).message}\n`),
      );
      return;
    }
    if (path === '/healthz') return reply(200, 'text/plain', 'ok\n');
    if (path === '/readyz') {
      if (stopping) return reply(503, 'text/plain', 'stopping\n');
      Promise.resolve()
        .then(() => opts.ready())
        .then(
          (ok) => reply(ok ? 200 : 503, 'text/plain', ok ? 'ready\n' : 'not ready\n'),
          (error: unknown) => reply(503, 'text/plain', `not ready: ${(error as Error).message}\n`),
        );
      return;
    }
    reply(404, 'text/plain', 'not found\n');
  });
  // Scrapes must never keep a stopping process alive.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    markStopping: () => {
      stopping = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
