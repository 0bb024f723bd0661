import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Binary of the NATS server `npm test` provisions (Debian's nats-server). */
export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? 'nats-server';

/** A TCP port nothing listens on right now, on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
}

export interface TestNatsServer {
  url: string;
  port: number;
  storeDir: string;
  /** Stops the server (SIGTERM) and removes its store. */
  stop(): Promise<void>;
  /** Stops the process (SIGKILL or SIGTERM), keeping its store, so `restart` continues it. */
  halt(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again on the same port and store. */
  restart(): Promise<void>;
  isRunning(): boolean;
}

async function spawnServer(args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(NATS_SERVER_BIN, args, { stdio: 'ignore' });
  await waitForPort(port, child, 10_000);
  return child;
}

function managed(
  args: string[],
  port: number,
  storeDir: string,
  first: ChildProcess,
): TestNatsServer {
  let child: ChildProcess | null = first;
  const halt = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    halt,
    async restart() {
      await halt();
      child = await spawnServer(args, port);
    },
    isRunning: () => child !== null && child.exitCode === null,
    async stop() {
      await halt();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/**
 * A real NATS server with JetStream for one test file: its own port and store
 * directory, so streams and consumers never collide with another test or with
 * a running system.
 */
export async function startNatsServer(
  opts: { port?: number; storeDir?: string } = {},
): Promise<TestNatsServer> {
  const storeDir = opts.storeDir ?? (await mkdtemp(path.join(os.tmpdir(), 'nats-test-')));
  const port = opts.port ?? (await freePort());
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  return managed(args, port, storeDir, await spawnServer(args, port));
}

export interface TestNatsCluster {
  /** Every member's client URL, comma-separated, as NATS_URL takes them. */
  url: string;
  members: Array<TestNatsServer & { name: string }>;
  /** Stops every member and removes their stores. */
  stop(): Promise<void>;
}

/**
 * A JetStream cluster of `size` nats-server processes on loopback (routes between all of
 * them), each with its own store: streams with `size` replicas keep a quorum with one down.
 */
export async function startNatsCluster(size = 3): Promise<TestNatsCluster> {
  const ports: Array<{ client: number; cluster: number }> = [];
  for (let i = 0; i < size; i += 1)
    ports.push({ client: await freePort(), cluster: await freePort() });
  const routes = ports.map((p) => `nats://127.0.0.1:${p.cluster}`).join(',');
  const members = await Promise.all(
    ports.map(async (p, i) => {
      const name = `n${i + 1}`;
      const storeDir = await mkdtemp(path.join(os.tmpdir(), `nats-cluster-${name}-`));
      const args = [
        '-n',
        name,
        '-a',
        '127.0.0.1',
        '-p',
        String(p.client),
        '-js',
        '-sd',
        storeDir,
        '--cluster_name',
        'reports-test',
        '--cluster',
        `nats://127.0.0.1:${p.cluster}`,
        '--routes',
        routes,
      ];
      return { name, ...managed(args, p.client, storeDir, await spawnServer(args, p.client)) };
    }),
  );
  return {
    url: members.map((m) => m.url).join(','),
    members,
    async stop() {
      await Promise.all(members.map((m) => m.stop()));
    },
  };
}
