import type { Logger } from 'pino';
import { loadConfig, objectStoreUrl, type Config } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { connectNats, type Nats } from '../nats/connection.js';
import { provisionReportsStream } from '../nats/events.js';
import { createPool, type Pool } from '../postgres/pool.js';
import { createObjectStore, type ObjectStore } from '../objectstore/index.js';

/** The real adapters a service needs, built once at start-up from the environment. */
export interface ServiceRuntime {
  name: string;
  config: Config;
  logger: Logger;
  pool: Pool;
  nats: Nats;
  objectStore: ObjectStore;
}

export async function createRuntime(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServiceRuntime> {
  const config = loadConfig(env);
  const logger = createLogger(name, config.LOG_LEVEL);
  const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  const nats = await connectNats(config.NATS_URL, name);
  await provisionReportsStream(nats.jsm, config.NATS_STREAM_REPLICAS);
  const objectStore = createObjectStore({
    url: objectStoreUrl(config),
    s3Endpoint: config.S3_ENDPOINT,
    s3AccessKey: config.S3_ACCESS_KEY,
    s3SecretKey: config.S3_SECRET_KEY,
    s3Region: config.S3_REGION,
  });
  await objectStore.ensureReady();
  return { name, config, logger, pool, nats, objectStore };
}

/**
 * Keeps the process up until SIGTERM or SIGINT, then runs `stop` (stop taking
 * work, settle what is in hand), drains NATS, closes the pool and exits.
 * A failure to start prints one line and exits 1.
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
    rt.logger.info('started');
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      rt.logger.info({ signal }, 'shutting down');
      try {
        await stop();
        await rt.nats.nc.drain();
        await rt.pool.end();
      } catch (error) {
        rt.logger.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      }
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
