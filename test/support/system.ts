import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  createTestDatabase,
  freePort,
  startNatsCluster,
  startNatsServer,
  startS3rver,
  type S3rverHandle,
  type TestDatabase,
  type TestNatsCluster,
  type TestNatsServer,
} from '@reports/test-support';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVICES = [
  'ingestion',
  'annotation',
  'embedding',
  'retrieval',
  'admin',
  'chat',
  'gateway',
] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface LogLine {
  service: ServiceName;
  line: string;
  json: Record<string, unknown> | null;
}

/** The whole system as separate processes, on a database, NATS server and object store of its own. */
export interface RunningSystem {
  url: string;
  db: TestDatabase;
  /** The NATS server (with `nats: 'cluster'`, the cluster's first member). */
  nats: TestNatsServer;
  /** The JetStream cluster, with `nats: 'cluster'`. */
  cluster: TestNatsCluster | null;
  logs: LogLine[];
  env: Record<string, string>;
  /** Starts (or restarts) a service; `extraEnv` is added to its environment for this start. */
  start(
    name: ServiceName,
    extraEnv?: Record<string, string>,
    opts?: { timeoutMs?: number },
  ): Promise<void>;
  kill(name: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  /** Sends a signal that does not end the process (SIGSTOP, SIGCONT). */
  signal(name: ServiceName, signal: NodeJS.Signals): void;
  isRunning(name: ServiceName): boolean;
  stop(): Promise<void>;
}

async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startSystem(
  opts: {
    objectStore?: 'local' | 's3';
    env?: Record<string, string>;
    /** Environment of one service only (e.g. its METRICS_PORT). */
    serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
    /** A single NATS server (default), or a JetStream cluster of 3 with streams of 3 replicas. */
    nats?: 'single' | 'cluster';
  } = {},
): Promise<RunningSystem> {
  const db = await createTestDatabase();
  const cluster = opts.nats === 'cluster' ? await startNatsCluster(3) : null;
  const nats = cluster ? cluster.members[0]! : await startNatsServer();
  const objectsDir = await mkdtemp(path.join(os.tmpdir(), 'e2e-objects-'));
  let s3: S3rverHandle | null = null;
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    DATABASE_URL: db.url,
    NATS_URL: cluster ? cluster.url : nats.url,
    NATS_STREAM_REPLICAS: cluster ? '3' : '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    STAGE_ACK_WAIT_MS: '3000',
    STAGE_MAX_DELIVER: '4',
    OBJECT_STORE_URL: `file://${objectsDir}`,
    // No operations port unless a test asks for one: fixed default ports would
    // collide between systems running side by side.
    METRICS_PORT: '0',
    ...opts.env,
  };
  if (opts.objectStore === 's3') {
    s3 = await startS3rver();
    Object.assign(env, {
      OBJECT_STORE_URL: 's3://e2e-reports',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_REGION: s3.region,
    });
  }
  const logs: LogLine[] = [];
  const children = new Map<ServiceName, ChildProcess>();
  const url = `http://127.0.0.1:${port}`;

  const system: RunningSystem = {
    url,
    db,
    nats,
    cluster,
    logs,
    env,
    async start(name, extraEnv = {}, startOpts = {}) {
      // A restarted service must log `started` again: the first start's line does not count.
      const seen = logs.length;
      const child = spawn(process.execPath, [path.join(ROOT, `services/${name}/dist/main.js`)], {
        env: { ...env, ...opts.serviceEnv?.[name], ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.set(name, child);
      for (const stream of [child.stdout, child.stderr]) {
        if (!stream) continue;
        createInterface({ input: stream }).on('line', (line) => {
          let json: Record<string, unknown> | null = null;
          try {
            json = JSON.parse(line) as Record<string, unknown>;
          } catch {
            json = null;
          }
          logs.push({ service: name, line, json });
        });
      }
      child.once('exit', () => {
        if (children.get(name) === child) children.delete(name);
      });
      if (name === 'gateway') {
        await waitFor(
          async () => {
            if (!children.has(name))
              throw new Error(
                `gateway exited: ${logs
                  .filter((l) => l.service === name)
                  .map((l) => l.line)
                  .join('\n')}`,
              );
            return fetch(`${url}/health`).then(
              (r) => r.ok,
              () => false,
            );
          },
          'the gateway',
          startOpts.timeoutMs,
        );
      } else {
        await waitFor(
          async () => {
            if (!children.has(name))
              throw new Error(
                `${name} exited: ${logs
                  .filter((l) => l.service === name)
                  .map((l) => l.line)
                  .join('\n')}`,
              );
            return logs.slice(seen).some((l) => l.service === name && l.json?.msg === 'started');
          },
          `${name} to start`,
          startOpts.timeoutMs,
        );
      }
    },
    async kill(name, signal = 'SIGKILL') {
      const child = children.get(name);
      if (!child) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
      children.delete(name);
    },
    signal(name, signal) {
      children.get(name)?.kill(signal);
    },
    isRunning: (name) => children.has(name),
    async stop() {
      await Promise.all([...children.keys()].map((name) => system.kill(name, 'SIGTERM')));
      if (cluster) await cluster.stop();
      else await nats.stop();
      await db.drop();
      await s3?.close();
      await rm(objectsDir, { recursive: true, force: true });
    },
  };
  for (const name of SERVICES) await system.start(name);
  return system;
}
