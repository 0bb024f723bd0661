import {
  folderIndexBytes,
  folderIndexEvictions,
  folderIndexFolders,
  folderIndexLookups,
  folderIndexWarmSeconds,
  type Logger,
  type Pool,
} from '@reports/platform';
import type { QueryLexeme } from './legs.js';
import { loadSnapshot, type FolderSnapshot } from './snapshot.js';
import { calibrate, type VectorArithmetic } from './arithmetic.js';

/**
 * What a query needs to know before it reads memory, in one round trip: the current version of
 * each folder it searches and its words as Postgres tokenises them (the keyword leg must split
 * the query exactly as `chunks.tsv` was split).
 */
const STATE_SQL = `
SELECT (SELECT coalesce(json_object_agg(report_id, version::text), '{}')
          FROM chunk_folder_versions WHERE report_id = ANY($1::uuid[])) AS versions,
       (SELECT coalesce(json_agg(json_build_array(u.lexeme, coalesce(array_length(u.positions, 1), 1))), '[]')
          FROM unnest(to_tsvector('simple', immutable_unaccent($2::text))) AS u) AS lexemes,
       (SELECT tenant_id FROM reports
         WHERE $3::uuid IS NOT NULL AND id = $3::uuid AND ($4::uuid IS NULL OR tenant_id = $4::uuid)) AS tenant_id`;

export interface QueryState {
  versions: Map<string, bigint>;
  lexemes: QueryLexeme[];
  /** With `tenantOf`: the report's tenant when the caller may see it, else null. */
  tenantId: string | null;
}

/**
 * The query's state; with `tenantOf`, also the tenant check of a folder scope (the report's
 * tenant, only inside `tenantId` unless that is null), in the same round trip.
 */
export async function queryState(
  pool: Pool,
  reportIds: readonly string[],
  query: string,
  tenantOf?: { reportId: string; tenantId: string | null },
): Promise<QueryState> {
  const { rows } = await pool.query<{
    versions: Record<string, string>;
    lexemes: Array<[string, number]>;
    tenant_id: string | null;
  }>(STATE_SQL, [reportIds, query, tenantOf?.reportId ?? null, tenantOf?.tenantId ?? null]);
  const row = rows[0]!;
  return {
    versions: new Map(Object.entries(row.versions).map(([id, v]) => [id, BigInt(v)])),
    lexemes: row.lexemes.map(([lexeme, qtf]) => ({ lexeme, qtf })),
    tenantId: row.tenant_id,
  };
}

/**
 * The folders the retrieval service holds in memory, least recently used first out, within a
 * byte budget. A folder is loaded on first use and again when the version its query read is
 * newer than the copy's: the version is written in the transaction of every change to the
 * folder's chunks, so no event can be missed. Concurrent queries of a folder being loaded wait
 * for one load. A folder larger than the whole budget is not kept: its queries use the SQL legs.
 */
export class FolderIndexCache {
  private readonly folders = new Map<string, FolderSnapshot>();
  private readonly loading = new Map<string, Promise<FolderSnapshot>>();
  /** Folders found too large, with the version measured: SQL until they change. */
  private readonly oversize = new Map<string, bigint>();
  private bytes = 0;
  /** pgvector's arithmetic on this server, found once (arithmetic.ts). */
  private arithmetic: Promise<VectorArithmetic> | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly budgetBytes: number,
    private readonly logger: Logger,
  ) {}

  /** Bytes held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  /**
   * The folder at `version` or newer; null when it does not fit the budget (the caller uses SQL).
   */
  async get(reportId: string, version: bigint): Promise<FolderSnapshot | null> {
    const held = this.folders.get(reportId);
    if (held && held.version >= version) {
      folderIndexLookups.inc({ result: 'hit' });
      this.folders.delete(reportId);
      this.folders.set(reportId, held);
      return held;
    }
    const tooLarge = this.oversize.get(reportId);
    if (tooLarge !== undefined && tooLarge >= version) {
      folderIndexLookups.inc({ result: 'oversize' });
      return null;
    }
    folderIndexLookups.inc({ result: held ? 'stale' : 'load' });
    let pending = this.loading.get(reportId);
    if (!pending) {
      pending = this.load(reportId).finally(() => this.loading.delete(reportId));
      this.loading.set(reportId, pending);
    }
    let snapshot = await pending;
    // A load that began before this query's version was written: load once more.
    if (snapshot.version < version) snapshot = await this.load(reportId);
    return snapshot.bytes <= this.budgetBytes ? snapshot : null;
  }

  private async load(reportId: string): Promise<FolderSnapshot> {
    this.arithmetic ??= calibrate(this.pool).then((found) => {
      if (found !== 'float32x8')
        this.logger.warn(
          { arithmetic: found },
          "pgvector's distance arithmetic not recognised: in-memory distances agree to about 1e-7, near-ties may order differently",
        );
      return found;
    });
    let arithmetic: VectorArithmetic;
    try {
      arithmetic = await this.arithmetic;
    } catch (error) {
      this.arithmetic = null;
      throw error;
    }
    const snapshot = await loadSnapshot(this.pool, reportId, arithmetic);
    folderIndexWarmSeconds.observe(snapshot.loadMs / 1000);
    this.install(snapshot);
    this.logger.debug(
      {
        report_id: reportId,
        version: snapshot.version.toString(),
        chunks: snapshot.ids.length,
        bytes: snapshot.bytes,
        load_ms: Math.round(snapshot.loadMs),
      },
      'folder loaded into memory',
    );
    return snapshot;
  }

  private install(snapshot: FolderSnapshot): void {
    const held = this.folders.get(snapshot.reportId);
    if (held && held.version > snapshot.version) return;
    if (snapshot.bytes > this.budgetBytes) {
      this.oversize.set(snapshot.reportId, snapshot.version);
      this.logger.warn(
        { report_id: snapshot.reportId, bytes: snapshot.bytes, budget_bytes: this.budgetBytes },
        'folder larger than RETRIEVAL_MEMORY_BUDGET_MB: searched in SQL',
      );
      if (held) this.drop(snapshot.reportId);
      return;
    }
    this.oversize.delete(snapshot.reportId);
    if (held) this.drop(snapshot.reportId);
    this.folders.set(snapshot.reportId, snapshot);
    this.bytes += snapshot.bytes;
    for (const [id] of this.folders) {
      if (this.bytes <= this.budgetBytes) break;
      if (id === snapshot.reportId) continue;
      this.drop(id);
      folderIndexEvictions.inc();
    }
    this.report();
  }

  private drop(reportId: string): void {
    const held = this.folders.get(reportId);
    if (!held) return;
    this.folders.delete(reportId);
    this.bytes -= held.bytes;
    this.report();
  }

  private report(): void {
    folderIndexBytes.set(this.bytes);
    folderIndexFolders.set(this.folders.size);
  }
}
