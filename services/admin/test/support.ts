import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { z } from 'zod';
import type { RpcOperation } from '@reports/contracts';
import {
  connectNats,
  createObjectStore,
  loadConfig,
  provisionReportsStream,
  requestRpc,
  type Nats,
  type ObjectStore,
  systemClock,
} from '@reports/platform';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { startNatsServer, type TestNatsServer } from '@reports/test-support';
import { startAdmin } from '../src/service.js';

export const SECRETS_KEY = randomBytes(32).toString('hex');

/** The admin service as main.ts starts it, on a database, NATS server and object store of its own. */
export interface TestAdmin {
  db: TestDatabase;
  nats: Nats;
  objectStore: ObjectStore;
  objectsDir: string;
  call<Req extends z.ZodType, Res extends z.ZodType>(
    op: RpcOperation<Req, Res>,
    request: z.input<Req>,
  ): Promise<z.output<Res>>;
  close(): Promise<void>;
}

export async function startTestAdmin(env: Record<string, string> = {}): Promise<TestAdmin> {
  const db = await createTestDatabase();
  const natsServer: TestNatsServer = await startNatsServer();
  const objectsDir = await mkdtemp(path.join(os.tmpdir(), 'admin-objects-'));
  const config = loadConfig({ DATABASE_URL: db.url, NATS_URL: natsServer.url, ...env });
  const nats = await connectNats(natsServer.url, 'admin-test');
  await provisionReportsStream(nats.jsm, 1);
  const objectStore = createObjectStore({ url: `file://${objectsDir}` });
  await objectStore.ensureReady();
  const stop = await startAdmin({
    config,
    logger: pino({ level: 'silent' }),
    pool: db.pool,
    nats,
    objectStore,
    clock: systemClock,
  });
  return {
    db,
    nats,
    objectStore,
    objectsDir,
    call: (op, request) => requestRpc(nats.nc, op, request, { service: 'admin' }),
    async close() {
      await stop();
      await nats.nc.close();
      await natsServer.stop();
      await db.drop();
      await rm(objectsDir, { recursive: true, force: true });
    },
  };
}

/** A tenant row, as the issuer or a first upload creates it. */
export async function insertTenant(db: TestDatabase, name = 'tenant'): Promise<string> {
  const id = randomUUID();
  await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, $2, 'personal')`, [
    id,
    name,
  ]);
  return id;
}

/** A report row of a tenant (what POST /ingest records). */
export async function insertReport(
  db: TestDatabase,
  tenantId: string,
  fields: { title?: string; status?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, title, content_type, document_kind, size_bytes, sha256, object_key, status)
     VALUES ($1, $2, 'r.html', $3, 'text/html', 'html', 10, $4, $5, $6)`,
    [
      id,
      tenantId,
      fields.title ?? null,
      '0'.repeat(64),
      `tenants/${tenantId}/reports/${id}/original/source.html`,
      fields.status ?? 'ready',
    ],
  );
  return id;
}
