import { spawn } from 'node:child_process';
import net from 'node:net';
import { freePort } from './nats.js';

/** Binary of the Redis server `npm test` provisions (Debian's redis-server). */
export const REDIS_SERVER_BIN = process.env.REDIS_SERVER_BIN ?? 'redis-server';

export interface TestRedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM). */
  stop(): Promise<void>;
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A Redis server of one test file's own, on a free loopback port, keeping
 * nothing on disk (no snapshots, no append-only file).
 */
export async function startRedisServer(): Promise<TestRedisServer> {
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER_BIN,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
