import { systemClock, type Clock } from '../time/clock.js';
import type { Logger } from 'pino';
import { loadConfig, objectStoreUrl, type Config } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { connectNatsWithRetry, type Nats } from '../nats/connection.js';
import { provisionReportsStream } from '../nats/events.js';
import { createPool, type Pool } from '../postgres/pool.js';
import { createObjectStore, type ObjectStore } from '../objectstore/index.js';
import { runningConsumers } from '../nats/consumer.js';
import { startConsumerSampler } from '../telemetry/consumerSampler.js';
import { startOpsServer, type OpsServer } from '../telemetry/opsServer.js';
import { currentTracing } from '../telemetry/tracing.js';

/**
 * Operations port of each service when METRICS_PORT is unset, distinct so that
 * every service can run on one machine (`npm start`). In Kubernetes every pod sets
 * METRICS_PORT=9464. A service not listed here has none unless METRICS_PORT is set;
 * the gateway serves `/metrics` on its own HTTP port.
 */
export const DEFAULT_METRICS_PORTS: Readonly<Record<string, number>> = {
  ingestion: 9101,
  annotation: 9102,
  embedding: 9103,
  retrieval: 9104,
  chat: 9105,
  admin: 9106,
};

export function defaultMetricsPort(name: string, config: Pick<Config, 'METRICS_PORT'>): number {
  return config.METRICS_PORT ?? DEFAULT_METRICS_PORTS[name] ?? 0;
}

/** The real adapters a service needs, built once at start-up from the environment. */
export interface ServiceRuntime {
  name: string;
  config: Config;
  logger: Logger;
  pool: Pool;
  nats: Nats;
  objectStore: ObjectStore;
  /** The wall clock every part of the service reads (docs/adr/125-one-clock.md). */
  clock: Clock;
}

export async function createRuntime(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServiceRuntime> {
  const config = loadConfig(env);
  const logger = createLogger(name, config.LOG_LEVEL);
  const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  // NATS down at start-up is waited for (with backoff, logged), not a reason to exit.
  const nats = await connectNatsWithRetry(
    config.NATS_URL,
    name,
    (n) => provisionReportsStream(n.jsm, config.NATS_STREAM_REPLICAS),
    {
      maxDelayMs: config.NATS_CONNECT_BACKOFF_MAX_MS,
      onRetry: (info) => logger.warn(info, 'NATS not reachable yet; retrying'),
    },
  );
  const objectStore = createObjectStore({
    url: objectStoreUrl(config),
    s3Endpoint: config.S3_ENDPOINT,
    s3AccessKey: config.S3_ACCESS_KEY,
    s3SecretKey: config.S3_SECRET_KEY,
    s3Region: config.S3_REGION,
  });
  await objectStore.ensureReady();
  return { name, config, logger, pool, nats, objectStore, clock: systemClock };
}

/**
 * Keeps the process up until SIGTERM or SIGINT, then shuts down within
 * SHUTDOWN_TIMEOUT_MS: readiness turns 503, `stop` stops taking work and settles
 * what is in hand (finished, or nak'd after SHUTDOWN_GRACE_MS), NATS is drained,
 * the pool closed, buffered spans sent, and the process exits 0. Past the timeout
 * it exits 1. Services without an HTTP server of their own get the operations
 * endpoint (`/metrics`, `/healthz`, `/readyz`) on METRICS_PORT. A failure to start
 * prints one line and exits 1.
 */
export function runService(
  name: string,
  start: (runtime: ServiceRuntime) => Promise<() => Promise<void>>,
): void {
  let runtime: ServiceRuntime | undefined;
  const boot = async () => {
    runtime = await createRuntime(name);
    const rt = runtime;
    const stop = await start(rt);
    let ops: OpsServer | null = null;
    const opsPort = defaultMetricsPort(name, rt.config);
    if (opsPort > 0) {
      // Without its operations port a service still does its work: say so loudly, go on
      // (in Kubernetes the failing probes restart it).
      ops = await startOpsServer({
        port: opsPort,
        host: rt.config.HOST,
        ready: async () => {
          if (rt.nats.nc.isClosed()) return false;
          await rt.pool.query('SELECT 1');
          return true;
        },
      }).catch((error: unknown) => {
        rt.logger.error(
          { err: error, metrics_port: opsPort },
          'operations port unavailable: no /metrics, /healthz, /readyz',
        );
        return null;
      });
    }
    const sampler = startConsumerSampler(rt.nats.jsm, () => [...runningConsumers.values()]);
    rt.logger.info(ops ? { metrics_port: ops.port } : {}, 'started');
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      const started = performance.now();
      rt.logger.info({ signal }, 'shutting down');
      ops?.markStopping();
      const deadline = setTimeout(() => {
        rt.logger.error(
          { timeout_ms: rt.config.SHUTDOWN_TIMEOUT_MS },
          'shutdown took too long; exiting',
        );
        process.exit(1);
      }, rt.config.SHUTDOWN_TIMEOUT_MS);
      deadline.unref();
      try {
        sampler.stop();
        await stop();
        await rt.nats.nc.drain();
        await rt.pool.end();
        await currentTracing()
          .shutdown()
          .catch(() => undefined);
        await ops?.close();
      } catch (error) {
        rt.logger.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      }
      rt.logger.info({ shutdown_ms: Math.round(performance.now() - started) }, 'stopped');
      process.exit(0);
    };
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.once('SIGINT', () => void shutdown('SIGINT'));
  };
  boot().catch((error: unknown) => {
    console.error(
      `${name} failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
