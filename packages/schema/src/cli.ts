import pg from 'pg';
import { createLogger, createPool, loadConfig } from '@reports/platform';
import { migrateSchema } from './index.js';

/**
 * `npm run migrate`: creates the database named in DATABASE_URL when it does not
 * exist yet, then applies every pending migration.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('migrate', config.LOG_LEVEL);
  const url = new URL(config.DATABASE_URL);
  const database = decodeURIComponent(url.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      database,
    ]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
      log.info({ database }, 'database created');
    }
  } finally {
    await client.end();
  }
  const pool = createPool(config.DATABASE_URL, 2);
  try {
    const result = await migrateSchema(pool);
    log.info({ applied: result.applied, already: result.skipped.length }, 'migrations applied');
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error(`migrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
