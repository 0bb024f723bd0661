// A peer of `POST /retrieve` for the retrieve benchmark (issue 14), behind HTTP on loopback like
// the system, driven by the same client: `node --import tsx bench/peers/server.ts <kind> <port>
// <database url> <report id>`. It loads the folder, prints `ready <port>`, and answers
// `POST /retrieve {query, top_k}` with the top_k chunks (id and content), both legs fused by RRF.
// Every peer embeds the query with the project's local embedder, as the retrieval service does.
//   sql     the project's two legs' SQL through pg (pool of 10), RRF in Node
//   memory  the in-process lower bound as issue 14 defines it: the folder's vectors as one
//           Float32Array scanned by a dense scalar loop, BM25 over postings in memory, words
//           split in JS; no database, no gateway, no NATS
//   project-legs  the same with the project's own in-memory legs (a sparse query reads only
//           the vector columns where it is not zero)
//   lancedb LanceDB (vector + full-text search, its RRF reranker) over the folder's chunks
// Bench-only: LanceDB comes from bench/peers/package.json, installed by the benchmark.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pgvector from 'pgvector';
import { createPool, createLogger } from '@reports/platform';
import { LocalEmbedder } from '@reports/providers';
import { BM25_SQL, VECTOR_SQL } from '@reports/search';
import { reciprocalRankFusion, type LegHit } from '../../services/retrieval/src/fusion/rrf.js';
import { loadSnapshot } from '../../services/retrieval/src/memory/snapshot.js';
import { keywordSearch, vectorSearch } from '../../services/retrieval/src/memory/legs.js';
import { candidateDepth } from '../../services/retrieval/src/retrieve/retrieve.js';

type Answer = Array<{ id: string; content: string }>;
type Search = (query: string, topK: number) => Promise<Answer>;

const [kind, portText, databaseUrl, reportId] = process.argv.slice(2);
if (!kind || !portText || !databaseUrl || !reportId) {
  console.error(
    'usage: server.ts <sql|memory|project-legs|lancedb> <port> <database url> <report id>',
  );
  process.exit(2);
}
const embedder = new LocalEmbedder();
const pool = createPool(databaseUrl, 10);

/** Words as `to_tsvector('simple', unaccent(text))` splits them, near enough for a lower bound. */
function words(text: string): Array<{ lexeme: string; qtf: number }> {
  const counts = new Map<string, number>();
  for (const w of text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)) {
    if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([lexeme, qtf]) => ({ lexeme, qtf }));
}

type Legs = (
  query: string,
  vector: number[],
  depth: number,
) => Promise<[LegHit[], LegHit[]]> | [LegHit[], LegHit[]];

/** Embeds the query, runs both legs `depth` deep, fuses them by RRF and keeps the top k. */
function fused(content: Map<string, string>, legs: Legs): Search {
  return async (query, topK) => {
    const depth = candidateDepth(topK);
    const [vector] = await embedder.embed([query]);
    const [keyword, nearest] = await legs(query, vector!, depth);
    return reciprocalRankFusion(keyword, nearest)
      .slice(0, topK)
      .map((f) => ({ id: f.chunk_id, content: content.get(f.chunk_id)! }));
  };
}

async function sqlPeer(): Promise<Search> {
  const { rows } = await pool.query<{ id: string; content: string }>(
    'SELECT id::text, content FROM chunks WHERE report_id = $1',
    [reportId],
  );
  const content = new Map(rows.map((r) => [r.id, r.content]));
  return fused(content, async (query, vector, depth) => {
    const [keyword, nearest] = await Promise.all([
      pool.query<{ chunk_id: string; score: number }>(BM25_SQL, [[reportId], query, depth, null]),
      pool.query<{ chunk_id: string; distance: number }>(VECTOR_SQL, [
        [reportId],
        pgvector.toSql(vector),
        depth,
        null,
      ]),
    ]);
    return [
      keyword.rows.map((r, i) => ({ chunk_id: r.chunk_id, rank: i + 1, score: Number(r.score) })),
      nearest.rows.map((r, i) => ({
        chunk_id: r.chunk_id,
        rank: i + 1,
        score: Number(r.distance),
      })),
    ];
  });
}

/**
 * The in-process lower bound as issue 14 defines it: folder vectors as one row-major
 * Float32Array scanned by a dense scalar loop, BM25 over postings in memory, RRF.
 */
async function memoryPeer(): Promise<Search> {
  const snapshot = await loadSnapshot(pool, reportId!);
  const content = new Map(snapshot.rows.map((r) => [r.id, r.content]));
  const n = snapshot.vectorChunk.length;
  const dim = snapshot.dim;
  const rows = new Float32Array(n * dim);
  for (let v = 0; v < n; v++) {
    for (let j = 0; j < dim; j++) rows[v * dim + j] = snapshot.columns[j * n + v]!;
  }
  const nearest = (vector: number[], depth: number) => {
    const q = Float32Array.from(vector);
    let qNorm = 0;
    for (let j = 0; j < dim; j++) qNorm += q[j]! * q[j]!;
    const hits: Array<{ chunk_id: string; distance: number }> = [];
    for (let v = 0; v < n; v++) {
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += rows[v * dim + j]! * q[j]!;
      hits.push({
        chunk_id: snapshot.ids[snapshot.vectorChunk[v]!]!,
        distance: 1 - dot / Math.sqrt(snapshot.norms[v]! * qNorm),
      });
    }
    hits.sort((a, b) => a.distance - b.distance || (a.chunk_id < b.chunk_id ? -1 : 1));
    return hits
      .slice(0, depth)
      .map((h, i) => ({ chunk_id: h.chunk_id, rank: i + 1, score: h.distance }));
  };
  return fused(content, (query, vector, depth) => [
    keywordSearch([snapshot], words(query), depth, null),
    nearest(vector, depth),
  ]);
}

/** The project's own in-memory legs (sparse-aware vector scan), in process: no gateway or NATS. */
async function projectLegsPeer(): Promise<Search> {
  const snapshot = await loadSnapshot(pool, reportId!);
  const content = new Map(snapshot.rows.map((r) => [r.id, r.content]));
  return fused(content, (query, vector, depth) => [
    keywordSearch([snapshot], words(query), depth, null),
    vectorSearch([snapshot], vector, depth, null).map((h) => ({
      chunk_id: h.chunk_id,
      rank: h.rank,
      score: h.distance,
    })),
  ]);
}

let lanceDir: string | null = null;

async function lancePeer(): Promise<Search> {
  const lancedb = await import('@lancedb/lancedb');
  const { rows } = await pool.query<{ id: string; content: string; embedding: string }>(
    'SELECT id::text, content, embedding::text FROM chunks WHERE report_id = $1 AND embedding IS NOT NULL',
    [reportId],
  );
  lanceDir = await mkdtemp(path.join(os.tmpdir(), 'bench-lancedb-'));
  const db = await lancedb.connect(lanceDir);
  const table = await db.createTable(
    'chunks',
    rows.map((r) => ({ id: r.id, content: r.content, vector: pgvector.fromSql(r.embedding) })),
  );
  await table.createIndex('content', { config: lancedb.Index.fts() });
  const rrf = await lancedb.rerankers.RRFReranker.create(60);
  return async (query, topK) => {
    const [vector] = await embedder.embed([query]);
    const depth = candidateDepth(topK);
    const found = (await table
      .query()
      .fullTextSearch(query)
      .nearestTo(vector!)
      .distanceType('cosine')
      .rerank(rrf)
      .limit(depth)
      .toArray()) as Array<{ id: string; content: string }>;
    return found.slice(0, topK).map((r) => ({ id: r.id, content: r.content }));
  };
}

async function main(): Promise<void> {
  const search =
    kind === 'sql'
      ? await sqlPeer()
      : kind === 'memory'
        ? await memoryPeer()
        : kind === 'project-legs'
          ? await projectLegsPeer()
          : kind === 'lancedb'
            ? await lancePeer()
            : null;
  if (!search) throw new Error(`unknown peer ${kind}`);
  if (kind !== 'sql') await pool.end();
  const logger = createLogger(`peer-${kind}`, 'warn');
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as {
            query: string;
            top_k?: number;
          };
          const chunks = await search(body.query, body.top_k ?? 8);
          const json = JSON.stringify({ chunks });
          res.writeHead(200, { 'content-type': 'application/json' }).end(json);
        } catch (error) {
          logger.error({ err: (error as Error).message }, 'peer search failed');
          res.writeHead(500).end();
        }
      })();
    });
  });
  server.listen(Number(portText), '127.0.0.1', () => console.log(`ready ${portText}`));
  const stop = () => {
    server.close();
    void pool.end().catch(() => undefined);
    void (lanceDir ? rm(lanceDir, { recursive: true, force: true }) : Promise.resolve()).then(() =>
      process.exit(0),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`peer ${kind} failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
