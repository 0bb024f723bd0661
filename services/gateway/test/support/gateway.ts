import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import {
  connectNats,
  createObjectStore,
  loadConfig,
  systemClock,
  provisionReportsStream,
  type Nats,
  type ObjectStore,
} from '@reports/platform';
import type { TokenResponse } from '@reports/contracts';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { startNatsServer, type TestNatsServer } from '@reports/test-support';
import { buildApp } from '../../src/app.js';

export interface TestGateway {
  app: FastifyInstance;
  db: TestDatabase;
  natsServer: TestNatsServer;
  nats: Nats;
  objectStore: ObjectStore;
  objectsDir: string;
  logs: Array<Record<string, unknown>>;
  signIn(email: string): Promise<TestSession>;
  close(): Promise<void>;
}

export interface TestSession {
  token: string;
  user: TokenResponse['user'];
  ip: string;
  headers(extra?: Record<string, string>): Record<string, string>;
}

let ipCounter = 0;
export function freshIp(): string {
  ipCounter += 1;
  return `10.88.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

/**
 * The gateway as production builds it (buildApp with real Postgres, NATS
 * JetStream and a local object store), without the stage services.
 */
export async function startTestGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  const db = await createTestDatabase();
  const natsServer = await startNatsServer();
  const objectsDir = await mkdtemp(path.join(os.tmpdir(), 'gw-objects-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    NATS_URL: natsServer.url,
    OBJECT_STORE_URL: `file://${objectsDir}`,
    ...env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const nats = await connectNats(natsServer.url, 'gateway-test');
  await provisionReportsStream(nats.jsm, 1);
  const objectStore = createObjectStore({
    url: config.OBJECT_STORE_URL!,
    s3Endpoint: config.S3_ENDPOINT,
    s3AccessKey: config.S3_ACCESS_KEY,
    s3SecretKey: config.S3_SECRET_KEY,
    s3Region: config.S3_REGION,
  });
  await objectStore.ensureReady();
  const app = await buildApp({
    config,
    logger,
    pool: db.pool,
    nats,
    objectStore,
    publicUrl: 'http://gateway.test',
    clock: systemClock,
  });
  await app.ready();

  return {
    app,
    db,
    natsServer,
    nats,
    objectStore,
    objectsDir,
    logs,
    async signIn(email) {
      const ip = freshIp();
      const seen = logs.length;
      const res = await app.inject({
        method: 'POST',
        url: '/auth/magic-link',
        payload: { email },
        remoteAddress: ip,
      });
      if (res.statusCode !== 202) throw new Error(`magic link ${res.statusCode}: ${res.body}`);
      const link = logs
        .slice(seen)
        .map((l) => l.magic_link)
        .find((v): v is string => typeof v === 'string');
      if (!link) throw new Error('no magic link logged');
      const url = new URL(link);
      const confirm = await app.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        remoteAddress: ip,
      });
      if (confirm.statusCode !== 200)
        throw new Error(`confirm ${confirm.statusCode}: ${confirm.body}`);
      const tokens = confirm.json<TokenResponse>();
      return {
        token: tokens.access_token,
        user: tokens.user,
        ip,
        headers: (extra = {}) => ({ authorization: `Bearer ${tokens.access_token}`, ...extra }),
      };
    },
    async close() {
      await app.close();
      await nats.nc.close();
      await natsServer.stop();
      await db.drop();
      await rm(objectsDir, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body as a browser would send it. */
export async function multipart(
  fields: Record<string, string>,
  file?: { bytes: Buffer; filename: string; type?: string; field?: string },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file)
    form.set(
      file.field ?? 'file',
      new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
      file.filename,
    );
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}
