import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, MigrationError, type Pool } from '../src/index.js';

const ADMIN = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `migrate_t_${randomBytes(5).toString('hex')}`;
let pool: Pool;
let dir: string;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  pool = createPool(url.toString(), 4);
  dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
});
afterAll(async () => {
  await pool?.end();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await rm(dir, { recursive: true, force: true });
});

describe('migrate', () => {
  it('applies files in name order and records them', async () => {
    await writeFile(path.join(dir, '0002_b.sql'), 'ALTER TABLE a ADD COLUMN note text;');
    await writeFile(path.join(dir, '0001_a.sql'), 'CREATE TABLE a (id int PRIMARY KEY);');
    await writeFile(path.join(dir, 'README.md'), 'not a migration');
    const result = await migrate(pool, dir);
    expect(result).toEqual({ applied: ['0001_a.sql', '0002_b.sql'], skipped: [] });
    const { rows } = await pool.query('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(['0001_a.sql', '0002_b.sql']);
  });

  it('skips what is applied when run again', async () => {
    expect(await migrate(pool, dir)).toEqual({
      applied: [],
      skipped: ['0001_a.sql', '0002_b.sql'],
    });
  });

  it('runs safely from several processes at once', async () => {
    await writeFile(path.join(dir, '0003_c.sql'), 'CREATE TABLE c (id int);');
    const results = await Promise.all([migrate(pool, dir), migrate(pool, dir), migrate(pool, dir)]);
    expect(results.flatMap((r) => r.applied)).toEqual(['0003_c.sql']);
  });

  it('rolls back a failing file and names it', async () => {
    await writeFile(
      path.join(dir, '0004_bad.sql'),
      'CREATE TABLE d (id int); SELECT no_such_function();',
    );
    await expect(migrate(pool, dir)).rejects.toThrow(/0004_bad\.sql failed/);
    const { rowCount } = await pool.query("SELECT 1 FROM pg_tables WHERE tablename = 'd'");
    expect(rowCount).toBe(0);
    await rm(path.join(dir, '0004_bad.sql'));
  });

  it('refuses a migration that changed after it was applied', async () => {
    await writeFile(path.join(dir, '0001_a.sql'), 'CREATE TABLE a (id bigint PRIMARY KEY);');
    const error = await migrate(pool, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/0001_a\.sql was changed/);
  });
});
