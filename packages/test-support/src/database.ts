import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createPool, type Pool } from '@reports/platform';
import { migrateSchema, migrationsDir } from '@reports/schema';

/** Server the tests use; the same local cluster `npm test` provisions. */
export const TEST_PG_ADMIN_URL =
  process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  pool: Pool;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

async function migrationsFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of (await readdir(migrationsDir)).sort()) {
    hash.update(file).update(await readFile(path.join(migrationsDir, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

function urlFor(database: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// Any constant: serialises template creation across parallel test processes.
const TEMPLATE_LOCK = 7_342_002;

/** The migrated template database for the current migrations, created once. */
async function ensureTemplate(): Promise<string> {
  const template = `reports_tpl_${await migrationsFingerprint()}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        template,
      ]);
      if (rowCount) return;
      const building = `${template}_build`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const pool = createPool(urlFor(building), 1);
      try {
        await migrateSchema(pool);
      } finally {
        await pool.end();
      }
      // Renamed only once complete, so a crash mid-migration never leaves a bad template.
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return template;
}

/**
 * A fresh, migrated database of its own for one test file, copied from a
 * template in milliseconds. Drop it in afterAll.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `reports_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  const url = urlFor(name);
  const pool = createPool(url, 5);
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * The rows of a query that may still be written: retrieval log rows are written behind the
 * reply (docs/adr/136-retrieval-log-written-behind.md). Asks again every 20 ms until some row
 * comes back; throws after `timeoutMs`.
 */
export async function rowsOnceWritten<T extends Record<string, unknown>>(
  pool: Pool,
  sql: string,
  params: unknown[],
  timeoutMs = 5000,
): Promise<T[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<T>(sql, params);
    if (rows.length > 0) return rows;
    if (performance.now() > deadline) {
      throw new Error(`no row within ${timeoutMs} ms: ${sql}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
