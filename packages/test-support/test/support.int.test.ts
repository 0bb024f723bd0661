import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, startNatsServer } from '../src/index.js';

describe('test support', () => {
  it('gives each caller a migrated database of its own, and drops it', async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    expect(a.name).not.toBe(b.name);
    await a.pool.query(
      `INSERT INTO tenants (id, name, kind) VALUES (gen_random_uuid(), 'only in a', 'personal')`,
    );
    const inB = await b.pool.query(`SELECT count(*)::int AS n FROM tenants`);
    expect(inB.rows[0]).toEqual({ n: 0 });
    await a.drop();
    await b.drop();
    const c = await createTestDatabase();
    const { rows } = await c.pool.query(
      `SELECT count(*)::int AS n FROM pg_database WHERE datname = ANY($1)`,
      [[a.name, b.name]],
    );
    expect(rows[0]).toEqual({ n: 0 });
    await c.drop();
  });

  it('starts a NATS server with JetStream on a port of its own, and stops it', async () => {
    const server = await startNatsServer();
    const nc = await connect({ servers: server.url });
    const info = await (await jetstreamManager(nc)).getAccountInfo();
    expect(info.streams).toBe(0);
    await nc.close();
    await server.stop();
    await expect(connect({ servers: server.url, reconnect: false })).rejects.toThrow();
  });
});
