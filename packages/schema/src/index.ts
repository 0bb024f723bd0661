import { fileURLToPath } from 'node:url';
import { migrate, type MigrationResult, type Pool } from '@reports/platform';

/** Folder of the plain SQL migrations, applied in name order. */
export const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

export function migrateSchema(pool: Pool): Promise<MigrationResult> {
  return migrate(pool, migrationsDir);
}
