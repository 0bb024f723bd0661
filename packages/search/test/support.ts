import { randomUUID } from 'node:crypto';
import pgvector from 'pgvector';
import type { Pool } from '@reports/platform';

/** A tenant and a report (folder) to hang chunks on. */
export async function createFolder(
  pool: Pool,
  tenantId: string = randomUUID(),
): Promise<{ tenantId: string; reportId: string }> {
  const reportId = randomUUID();
  await pool.query(
    `INSERT INTO tenants (id, name, kind) VALUES ($1, 'test', 'personal') ON CONFLICT DO NOTHING`,
    [tenantId],
  );
  await pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'r.html', 'text/html', 'html', 1, repeat('0', 64), 'k')`,
    [reportId, tenantId],
  );
  return { tenantId, reportId };
}

export interface ChunkSpec {
  content: string;
  embedding?: number[] | null;
  sourceType?: string;
}

/** Inserts chunks into a folder as the embed stage does (one statement); returns their ids in order. */
export async function insertChunks(
  pool: Pool,
  folder: { tenantId: string; reportId: string },
  specs: ChunkSpec[],
  targetId: string = folder.reportId,
): Promise<string[]> {
  const ids = specs.map(() => randomUUID());
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM chunks WHERE target_id = $1',
    [targetId],
  );
  const offset = rows[0]!.n;
  const values: unknown[] = [];
  const tuples = specs.map((s, i) => {
    const p = values.length;
    values.push(
      ids[i],
      folder.tenantId,
      folder.reportId,
      targetId,
      s.sourceType ?? 'main',
      s.content,
      s.content.split(/\s+/).length,
      offset + i,
      s.embedding ? pgvector.toSql(s.embedding) : null,
    );
    return `(${Array.from({ length: 9 }, (_, k) => `$${p + k + 1}`).join(',')})`;
  });
  await pool.query(
    `INSERT INTO chunks (id, tenant_id, report_id, target_id, source_type, content, content_tokens, order_in_doc, embedding)
     VALUES ${tuples.join(',')}`,
    values,
  );
  return ids;
}

/** A unit vector pointing mostly along `axis`, a little along `lean`. */
export function unitVector(axis: number, lean = 0, leanAxis = (axis + 1) % 1536): number[] {
  const v = new Array<number>(1536).fill(0);
  v[axis] = 1;
  v[leanAxis] = lean;
  const norm = Math.hypot(1, lean);
  return v.map((x) => x / norm);
}
