import type { TargetKind } from '@reports/contracts';
import type { Pool, PoolClient } from '@reports/platform';

/** The stored file of a pipeline target (a report's main file or an attachment). */
export interface TargetFile {
  tenant_id: string;
  report_id: string;
  document_kind: string;
  object_key: string;
  size_bytes: number;
  sha256: string;
  filename: string;
  title: string | null;
}

const TABLE: Record<TargetKind, string> = { report: 'reports', attachment: 'attachments' };

/** Loads the target's record, or null when it was deleted meanwhile. */
export async function loadTarget(
  db: Pool | PoolClient,
  kind: TargetKind,
  targetId: string,
  lock = false,
): Promise<TargetFile | null> {
  const title = kind === 'report' ? 'title' : 'NULL::text AS title';
  const reportId = kind === 'report' ? 'id AS report_id' : 'report_id';
  const { rows } = await db.query<TargetFile>(
    `SELECT tenant_id, ${reportId}, document_kind, object_key, size_bytes, sha256, filename, ${title}
       FROM ${TABLE[kind]} WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [targetId],
  );
  return rows[0] ?? null;
}

export function targetTable(kind: TargetKind): string {
  return TABLE[kind];
}
