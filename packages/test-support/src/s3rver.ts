import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The part of s3rver 3.x's API used here (the package ships no TypeScript declarations). */
interface S3rverServer {
  /** Starts the HTTP server; resolves with the bound address. */
  run(): Promise<AddressInfo>;
  /** Stops the HTTP server. */
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
}) => S3rverServer;

// s3rver is CommonJS with `module.exports = S3rver`. Loading it with require and typing it locally
// keeps the types inside this file: an ambient `declare module 's3rver'` would only be seen by
// programs that happen to include the declaration file (platform's tests compile this file through
// a relative import), and a triple-slash reference to it would dangle in the emitted dist/*.d.ts.
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverConstructor;

/** A running throwaway S3 server, and what a client needs to talk to it. */
export interface S3rverHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** Stops the server and deletes its data directory. */
  close(): Promise<void>;
}

/** s3rver only accepts signatures made with these fixed credentials. */
const S3RVER_ACCESS_KEY = 'S3RVER';
const S3RVER_SECRET_KEY = 'S3RVER';

/**
 * Starts an in-process s3rver on 127.0.0.1 with an OS-assigned port, backed by a fresh temporary
 * directory that `close()` removes.
 */
export async function startS3rver(): Promise<S3rverHandle> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (err) {
    await rm(directory, { recursive: true, force: true });
    throw err;
  }

  let closed: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: S3RVER_ACCESS_KEY,
    secretKey: S3RVER_SECRET_KEY,
    region: 'us-east-1',
    close() {
      closed ??= (async () => {
        try {
          await server.close();
        } finally {
          await rm(directory, { recursive: true, force: true });
        }
      })();
      return closed;
    },
  };
}
