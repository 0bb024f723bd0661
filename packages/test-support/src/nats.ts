import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Binary of the NATS server `npm test` provisions (Debian's nats-server). */
export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? 'nats-server';

export interface TestNatsServer {
  url: string;
  port: number;
  storeDir: string;
  /** Stops the server (SIGTERM) and removes its store. */
  stop(): Promise<void>;
}

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
  const child = spawn(
    NATS_SERVER_BIN,
    ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir],
    {
      stdio: 'ignore',
    },
  );
  await waitForPort(port, child, 10_000);
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
