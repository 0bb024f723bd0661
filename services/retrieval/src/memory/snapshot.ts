import type { Pool } from '@reports/platform';
import { CHUNK_COLUMNS, type ChunkRow } from '../retrieve/chunks.js';
import { arithmeticFor, dotOf, type VectorArithmetic } from './arithmetic.js';

/**
 * One report folder as the in-memory legs read it (docs/adr/135-folder-index-in-memory.md):
 * everything the two SQL legs and `loadChunks` read of the folder, copied out of Postgres in one
 * repeatable-read transaction, so it is the folder as one commit left it. Immutable once loaded:
 * a query holds its snapshots for its whole run, and a newer version replaces the object.
 */
export interface FolderSnapshot {
  reportId: string;
  /** `chunk_folder_versions.version` the copy was read at ('0' for a folder never written). */
  version: bigint;
  /** Chunk ids in uuid order (Postgres' order of the type), the index of every array below. */
  ids: string[];
  rows: ChunkRow[];
  /** BM25 statistics of the folder (`keyword_folders`); 0 docs: the keyword leg finds nothing. */
  docs: number;
  totalLength: number;
  /** Document length of each chunk (tokens of its tsvector, as the postings hold it). */
  dl: Float64Array;
  /** The folder's lexemes in byte order (the "C" collation of `chunk_terms.term`). */
  terms: string[];
  /** Postings of `terms[t]`: entries `postingStart[t]` to `postingStart[t + 1]`. */
  postingStart: Uint32Array;
  postingChunk: Uint32Array;
  postingTf: Float64Array;
  /**
   * Embedded chunks: their index, their float32 components one dimension after another
   * (`columns[j * vectorChunk.length + v]` is component j of vector v, so a query reads only
   * the columns where it is not zero), and their squared norms.
   */
  dim: number;
  vectorChunk: Uint32Array;
  columns: Float32Array;
  norms: Float64Array;
  /** How distances are summed so they equal the server's (norms were summed so too). */
  arithmetic: VectorArithmetic;
  /** Approximate memory held, for the cache's budget. */
  bytes: number;
  /** Time to copy the folder out of Postgres and build the arrays. */
  loadMs: number;
}

const VERSION_SQL =
  'SELECT version::text AS version FROM chunk_folder_versions WHERE report_id = $1';
const STATS_SQL = 'SELECT docs, total_length FROM keyword_folders WHERE report_id = $1';
// Row i of the folder is its i-th chunk id in uuid order; postings refer to chunks by that i.
const CHUNKS_SQL = `
SELECT ${CHUNK_COLUMNS}, tsvector_token_count(c.tsv) AS dl,
       CASE WHEN c.embedding IS NULL THEN NULL ELSE vector_send(c.embedding) END AS vec
  FROM chunks c
  LEFT JOIN sections s ON s.id = c.section_id
  LEFT JOIN figures f ON f.id = c.figure_id
 WHERE c.report_id = $1
 ORDER BY c.id`;
const POSTINGS_SQL = `
WITH c AS (
  SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS i FROM chunks WHERE report_id = $1
)
SELECT t.term, array_agg(c.i ORDER BY c.i) AS chunks, array_agg(t.tf ORDER BY c.i) AS tfs
  FROM chunk_terms t JOIN c ON c.id = t.chunk_id
 WHERE t.report_id = $1
 GROUP BY t.term
 ORDER BY t.term`;

interface ChunkRecord extends ChunkRow {
  dl: number;
  vec: Buffer | null;
}

/**
 * Reads pgvector's binary form (int16 dimensions, int16 unused, big-endian float4s) into
 * column `v` of `columns`; returns the squared norm, summed as `arithmetic` sums.
 */
function readVector(
  buf: Buffer,
  columns: Float32Array,
  rows: number,
  v: number,
  arithmetic: VectorArithmetic,
): number {
  const dim = buf.readInt16BE(0);
  const row = new Float32Array(dim);
  for (let j = 0; j < dim; j++) {
    row[j] = buf.readFloatBE(4 + 4 * j);
    columns[j * rows + v] = row[j]!;
  }
  return dotOf(
    arithmetic,
    dim,
    (i) => row[i]!,
    (i) => row[i]!,
  );
}

/** Copies one folder out of Postgres, consistent with one commit. */
export async function loadSnapshot(
  pool: Pool,
  reportId: string,
  arithmetic: VectorArithmetic = 'float64',
): Promise<FolderSnapshot> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const version = await client.query<{ version: string }>(VERSION_SQL, [reportId]);
    const stats = await client.query<{ docs: string; total_length: string }>(STATS_SQL, [reportId]);
    const chunks = await client.query<ChunkRecord>(CHUNKS_SQL, [reportId]);
    const postings = await client.query<{ term: string; chunks: number[]; tfs: number[] }>(
      POSTINGS_SQL,
      [reportId],
    );
    await client.query('COMMIT');

    const n = chunks.rows.length;
    const ids: string[] = new Array<string>(n);
    const rows: ChunkRow[] = new Array<ChunkRow>(n);
    const dl = new Float64Array(n);
    const dim = chunks.rows.find((r) => r.vec !== null)?.vec?.readInt16BE(0) ?? 0;
    const sums = arithmeticFor(arithmetic, dim);
    // Vectors of another dimension (a half-done change of model) are left out, as the SQL leg
    // would fail on them.
    const embedded = chunks.rows.filter((r) => r.vec !== null && r.vec.readInt16BE(0) === dim);
    const vectorChunk = new Uint32Array(embedded.length);
    const columns = new Float32Array(embedded.length * dim);
    const norms = new Float64Array(embedded.length);
    let textBytes = 0;
    let v = 0;
    chunks.rows.forEach((record, i) => {
      const { dl: length, vec, ...row } = record;
      ids[i] = row.id;
      rows[i] = row;
      dl[i] = Number(length);
      textBytes += row.content.length * 2 + 400;
      if (vec && vec.readInt16BE(0) === dim) {
        vectorChunk[v] = i;
        norms[v] = readVector(vec, columns, embedded.length, v, sums);
        v += 1;
      }
    });

    const terms: string[] = new Array<string>(postings.rows.length);
    const postingStart = new Uint32Array(postings.rows.length + 1);
    let total = 0;
    postings.rows.forEach((p, t) => {
      terms[t] = p.term;
      postingStart[t] = total;
      total += p.chunks.length;
      textBytes += p.term.length * 2 + 64;
    });
    postingStart[postings.rows.length] = total;
    const postingChunk = new Uint32Array(total);
    const postingTf = new Float64Array(total);
    postings.rows.forEach((p, t) => {
      postingChunk.set(p.chunks, postingStart[t]);
      postingTf.set(p.tfs, postingStart[t]);
    });

    const statsRow = stats.rows[0];
    return {
      reportId,
      version: BigInt(version.rows[0]?.version ?? '0'),
      ids,
      rows,
      docs: statsRow ? Number(statsRow.docs) : 0,
      totalLength: statsRow ? Number(statsRow.total_length) : 0,
      dl,
      terms,
      postingStart,
      postingChunk,
      postingTf,
      dim,
      vectorChunk,
      columns,
      norms,
      arithmetic: sums,
      bytes:
        textBytes +
        dl.byteLength +
        postingStart.byteLength +
        postingChunk.byteLength +
        postingTf.byteLength +
        vectorChunk.byteLength +
        columns.byteLength +
        norms.byteLength,
      loadMs: performance.now() - started,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The row of chunk `id` when the folder holds it (ids are in uuid order: a binary search). */
export function rowOf(snapshot: FolderSnapshot, id: string): ChunkRow | undefined {
  let lo = 0;
  let hi = snapshot.ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (snapshot.ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return snapshot.ids[lo] === id ? snapshot.rows[lo] : undefined;
}

/** The rows of the given chunks that `snapshots` hold. */
export function rowsOf(
  snapshots: readonly FolderSnapshot[],
  ids: readonly string[],
): Map<string, ChunkRow> {
  const rows = new Map<string, ChunkRow>();
  for (const id of ids) {
    for (const s of snapshots) {
      const row = rowOf(s, id);
      if (row) {
        rows.set(id, row);
        break;
      }
    }
  }
  return rows;
}
