// Retrieve benchmark (issue 4): POST /retrieve through the whole system (built services as
// processes) with 50 concurrent clients on one 2 000-chunk folder, in a database holding at least
// 200 000 chunks; next to it, in the same run, the two legs' raw SQL (the same statements the
// retrieval service sends) at the same concurrency and one at a time. Prints p50/p95/p99 and the
// ratios; writes bench/results/retrieve-*.json. No assertions on timing: it fails only when the
// system does (a request that is not 200).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pgvector from 'pgvector';
import { createPool, type Pool } from '@reports/platform';
import { LocalEmbedder } from '@reports/providers';
import { BM25_SQL, VECTOR_SQL } from '@reports/search';
import { sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from '../test/support/system.js';
import { signIn } from '../test/support/client.js';
import { distribution, type Distribution } from './support/stats.js';
import { intFromEnv } from './support/env.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** Chunks in the folder that is queried. */
const FOLDER_CHUNKS = intFromEnv('BENCH_RETRIEVE_FOLDER_CHUNKS', 2000, 10);
/** Chunks in the whole database (the folder included). */
const TOTAL_CHUNKS = intFromEnv('BENCH_RETRIEVE_TOTAL_CHUNKS', 200_000, FOLDER_CHUNKS);
const CONNECTIONS = intFromEnv('BENCH_RETRIEVE_CONNECTIONS', 50, 1);
/** Requests in the measured HTTP run (and in the raw SQL run under the same concurrency). */
const REQUESTS = intFromEnv('BENCH_RETRIEVE_REQUESTS', 3000, 100);
/** One-at-a-time requests for the unloaded comparison. */
const SEQUENTIAL = intFromEnv('BENCH_RETRIEVE_SEQUENTIAL', 200, 10);
const TOP_K = 8;
/** Same retrieval pool size as the service's default (DATABASE_POOL_MAX). */
const POOL_MAX = 10;

/** What people ask of a property report. Cycled through by every run. */
const QUERIES = [
  'are any roof slates missing',
  'condition of the chimney stack',
  'rising damp in the cellar walls',
  'when was the boiler last serviced',
  'is there asbestos in the garage',
  'cracks in the external render',
  'state of the windows and doors',
  'electrical installation needs rewiring',
  'drainage and gutters blocked',
  'subsidence or structural movement',
  'woodworm in the roof timbers',
  'what is the market valuation',
  'roof',
  'damp',
  'boiler flue',
  'garden boundary fences',
  'insulation in the loft',
  'condensation and mould in the bathroom',
  'plumbing leaks under the kitchen sink',
  'fire safety and smoke alarms',
];

/** Folder chunk texts: paragraphs of generated survey reports, about 120-250 words each. */
function folderTexts(count: number): string[] {
  const texts: string[] = [];
  for (let seed = 1; texts.length < count; seed++) {
    const spec = sampleReportSpec({ sections: 10, paragraphsPerSection: 6, seed });
    for (const section of spec.sections) {
      for (let i = 0; i + 1 < section.paragraphs.length && texts.length < count; i += 2) {
        texts.push(`${section.heading}. ${section.paragraphs[i]} ${section.paragraphs[i + 1]}`);
      }
    }
  }
  return texts;
}

async function createReport(pool: Pool, tenantId: string, title: string): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO reports (id, tenant_id, filename, title, content_type, document_kind, size_bytes, sha256, object_key, status)
     VALUES ($1, $2, 'bench.html', $3, 'text/html', 'html', 1, repeat('0', 64), 'bench', 'ready')`,
    [id, tenantId, title],
  );
  return id;
}

/** The queried folder: real text, local-embedder vectors, inserted as the embed stage does (triggers index it). */
async function generateFolder(pool: Pool, tenantId: string): Promise<string> {
  const reportId = await createReport(pool, tenantId, 'Benchmark folder');
  const texts = folderTexts(FOLDER_CHUNKS);
  const embedder = new LocalEmbedder();
  for (let i = 0; i < texts.length; i += 200) {
    const batch = texts.slice(i, i + 200);
    const vectors = await embedder.embed(batch);
    const values: unknown[] = [];
    const tuples = batch.map((content, j) => {
      const p = values.length;
      values.push(
        randomUUID(),
        tenantId,
        reportId,
        content,
        content.split(/\s+/).length,
        i + j,
        pgvector.toSql(vectors[j]!),
      );
      return `($${p + 1},$${p + 2},$${p + 3},$${p + 3},'main','Section',$${p + 4},$${p + 5},$${p + 6},$${p + 7},'local-hash-1536')`;
    });
    await pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, source_type, section_name, content, content_tokens, order_in_doc, embedding, embedding_model)
       VALUES ${tuples.join(',')}`,
      values,
    );
  }
  return reportId;
}

/**
 * Every other chunk, generated in SQL: folders of FOLDER_CHUNKS chunks, each 40 words drawn from
 * the folder's own vocabulary, with a random unit vector (one of 1 000 drawn in SQL, so
 * generation stays quick). They are never read by the folder's queries, which is the point.
 */
async function generateBulk(pool: Pool, tenantId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await pool.query(`
    CREATE TEMP TABLE bench_vectors AS
    SELECT i, (SELECT array_agg(x / norm) FROM (
              SELECT x, sqrt(sum(x * x) OVER ()) AS norm FROM (
                SELECT (random() - 0.5) AS x, i AS seed FROM generate_series(1, 1536)) raw) n)::vector(1536) AS v
      FROM generate_series(0, 999) i;
    -- Each generated chunk looks its vector up by key: without this, a scan of all 1 000 per row.
    CREATE UNIQUE INDEX ON bench_vectors (i);
    ANALYZE bench_vectors;
    CREATE TEMP TABLE bench_vocab AS
    SELECT array_agg(DISTINCT lexeme) AS words FROM (
      SELECT unnest(tsvector_to_array(tsv)) AS lexeme FROM chunks) w;`);
  for (let done = 0; done < count; done += FOLDER_CHUNKS) {
    const n = Math.min(FOLDER_CHUNKS, count - done);
    const reportId = await createReport(pool, tenantId, `Bulk folder ${done / FOLDER_CHUNKS + 1}`);
    await pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, source_type, section_name, content, content_tokens, order_in_doc, embedding)
       SELECT gen_random_uuid(), $1, $2, $2, 'main', 'Bulk',
              (SELECT string_agg(words[1 + floor(random() * array_length(words, 1))::int], ' ')
                 FROM bench_vocab, generate_series(1, 40) WHERE g >= 0),
              40, g,
              (SELECT v FROM bench_vectors WHERE i = (g * 7919) % 1000)
         FROM generate_series(0, $3::int - 1) g`,
      [tenantId, reportId, n],
    );
    if ((done / FOLDER_CHUNKS) % 10 === 0) process.stdout.write(`  bulk chunks: ${done + n}\r`);
  }
  process.stdout.write('\n');
}

async function rawLegs(
  pool: Pool,
  reportId: string,
  query: string,
  vector: number[],
): Promise<void> {
  const depth = Math.min(Math.max(TOP_K * 5, 50), 200);
  await Promise.all([
    pool.query(BM25_SQL, [reportId, query, depth]),
    pool.query(VECTOR_SQL, [reportId, pgvector.toSql(vector), depth]),
  ]);
}

async function timedLoop(
  total: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<{ times: number[]; wallMs: number }> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
    }),
  );
  return { times, wallMs: performance.now() - started };
}

let ipCounter = 0;
/** A distinct client address per request: the gateway allows 60 retrievals a minute per address. */
function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

async function httpRun(
  url: string,
  token: string,
  reportId: string,
  total: number,
  connections: number,
): Promise<{ times: number[]; wallMs: number; non2xx: number }> {
  const times: number[] = [];
  let non2xx = 0;
  let q = 0;
  const started = performance.now();
  const instance = autocannon({
    url: `${url}/retrieve`,
    connections,
    amount: total,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const query = QUERIES[q++ % QUERIES.length]!;
          return {
            ...req,
            headers: { ...req.headers, 'x-forwarded-for': nextIp() },
            body: JSON.stringify({
              query,
              top_k: TOP_K,
              scope: { type: 'folder', report_id: reportId },
            }),
          };
        },
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    if (statusCode !== 200) non2xx += 1;
  });
  await instance;
  return { times, wallMs: performance.now() - started, non2xx };
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  let system: RunningSystem | undefined;
  let pool: Pool | undefined;
  const stop = async () => {
    await pool?.end().catch(() => undefined);
    await system?.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    system = await startSystem({});
    const session = await signIn(system, 'bench@example.com');
    const tenantId = session.user.active_tenant_id;
    pool = createPool(system.db.url, POOL_MAX);

    console.log(
      `generating: a ${FOLDER_CHUNKS}-chunk folder and ${TOTAL_CHUNKS - FOLDER_CHUNKS} other chunks`,
    );
    const genStarted = performance.now();
    const reportId = await generateFolder(pool, tenantId);
    await generateBulk(pool, tenantId, TOTAL_CHUNKS - FOLDER_CHUNKS);
    await pool.query('VACUUM ANALYZE chunks');
    await pool.query('VACUUM ANALYZE chunk_terms');
    await pool.query('VACUUM ANALYZE keyword_folders');
    const generationS = (performance.now() - genStarted) / 1000;
    const { rows: counts } = await pool.query<{
      chunks: number;
      postings: number;
      folder: number;
      db_mb: number;
    }>(
      `SELECT (SELECT count(*) FROM chunks)::int AS chunks, (SELECT count(*) FROM chunk_terms)::int AS postings,
              (SELECT count(*) FROM chunks WHERE report_id = $1)::int AS folder,
              (pg_database_size(current_database()) / 1048576)::int AS db_mb`,
      [reportId],
    );
    const stats = counts[0]!;
    console.log(
      `generated in ${generationS.toFixed(1)} s: ${stats.chunks} chunks (${stats.folder} in the folder), ${stats.postings} postings, database ${stats.db_mb} MB`,
    );
    if (stats.chunks < TOTAL_CHUNKS) throw new Error(`only ${stats.chunks} chunks were generated`);

    const embedder = new LocalEmbedder();
    const vectors = await embedder.embed(QUERIES);

    // Warm both paths (caches, JIT, connection pools).
    await timedLoop(200, 10, (i) =>
      rawLegs(pool!, reportId, QUERIES[i % QUERIES.length]!, vectors[i % QUERIES.length]!),
    );
    const warm = await httpRun(system.url, session.token, reportId, 300, 10);
    if (warm.non2xx > 0) throw new Error(`${warm.non2xx} warm-up requests failed`);

    // One at a time: what the HTTP path adds to the two legs when nothing queues.
    const seqSql = await timedLoop(SEQUENTIAL, 1, (i) =>
      rawLegs(pool!, reportId, QUERIES[i % QUERIES.length]!, vectors[i % QUERIES.length]!),
    );
    const seqHttp = await httpRun(system.url, session.token, reportId, SEQUENTIAL, 1);
    // Each leg alone, one at a time, to see which dominates.
    const depth = Math.min(Math.max(TOP_K * 5, 50), 200);
    const keywordOnly = await timedLoop(SEQUENTIAL, 1, async (i) => {
      await pool!.query(BM25_SQL, [reportId, QUERIES[i % QUERIES.length]!, depth]);
    });
    const vectorOnly = await timedLoop(SEQUENTIAL, 1, async (i) => {
      await pool!.query(VECTOR_SQL, [
        reportId,
        pgvector.toSql(vectors[i % QUERIES.length]!),
        depth,
      ]);
    });

    // Under load: 50 concurrent clients.
    console.log(
      `measuring: ${REQUESTS} requests with ${CONNECTIONS} concurrent clients, HTTP then raw SQL`,
    );
    const http = await httpRun(system.url, session.token, reportId, REQUESTS, CONNECTIONS);
    if (http.non2xx > 0 || seqHttp.non2xx > 0)
      throw new Error(`${http.non2xx + seqHttp.non2xx} requests were not 200`);
    const sql = await timedLoop(REQUESTS, CONNECTIONS, (i) =>
      rawLegs(pool!, reportId, QUERIES[i % QUERIES.length]!, vectors[i % QUERIES.length]!),
    );

    const result = {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpu_count: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? 'unknown',
      commit: git(['rev-parse', '--short', 'HEAD']),
      dirty: git(['status', '--porcelain']).length > 0,
      config: {
        folder_chunks: FOLDER_CHUNKS,
        total_chunks: TOTAL_CHUNKS,
        connections: CONNECTIONS,
        requests: REQUESTS,
        sequential_requests: SEQUENTIAL,
        top_k: TOP_K,
        leg_depth: depth,
        queries: QUERIES.length,
        raw_sql_pool: POOL_MAX,
        embedding: 'local-hash-1536',
        rerank: 'off',
        hyde: 'off (local LLM provider)',
      },
      database: { ...stats, generation_s: Math.round(generationS * 10) / 10 },
      http_concurrent_ms: distribution(http.times),
      http_concurrent_rps: Math.round((http.times.length / http.wallMs) * 1000 * 10) / 10,
      raw_sql_concurrent_ms: distribution(sql.times),
      raw_sql_concurrent_rps: Math.round((sql.times.length / sql.wallMs) * 1000 * 10) / 10,
      http_sequential_ms: distribution(seqHttp.times),
      raw_sql_sequential_ms: distribution(seqSql.times),
      keyword_leg_sequential_ms: distribution(keywordOnly.times),
      vector_leg_sequential_ms: distribution(vectorOnly.times),
      ratios: {
        concurrent_p50: 0,
        concurrent_p95: 0,
        sequential_p50: 0,
      },
      total_run_s: 0,
    };
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    result.ratios = {
      concurrent_p50: ratio(result.http_concurrent_ms.p50, result.raw_sql_concurrent_ms.p50),
      concurrent_p95: ratio(result.http_concurrent_ms.p95, result.raw_sql_concurrent_ms.p95),
      sequential_p50: ratio(result.http_sequential_ms.p50, result.raw_sql_sequential_ms.p50),
    };
    result.total_run_s = Math.round((performance.now() - runStarted) / 100) / 10;

    const row = (name: string, d: Distribution, extra = '') =>
      console.log(
        `| ${name.padEnd(34)} | ${String(d.p50).padStart(8)} | ${String(d.p95).padStart(8)} | ${String(d.p99).padStart(8)} | ${extra}`,
      );
    console.log(`\n| ms                                 |      p50 |      p95 |      p99 |`);
    console.log(`| ---------------------------------- | -------- | -------- | -------- |`);
    row(
      `POST /retrieve, ${CONNECTIONS} clients`,
      result.http_concurrent_ms,
      `${result.http_concurrent_rps} req/s`,
    );
    row(
      `both legs' raw SQL, ${CONNECTIONS} clients`,
      result.raw_sql_concurrent_ms,
      `${result.raw_sql_concurrent_rps} req/s`,
    );
    row('POST /retrieve, 1 client', result.http_sequential_ms);
    row("both legs' raw SQL, 1 client", result.raw_sql_sequential_ms);
    row('keyword leg SQL alone, 1 client', result.keyword_leg_sequential_ms);
    row('vector leg SQL alone, 1 client', result.vector_leg_sequential_ms);
    console.log(
      `\nratio HTTP/raw SQL: p50 ${result.ratios.concurrent_p50} and p95 ${result.ratios.concurrent_p95} under ${CONNECTIONS} clients; ` +
        `p50 ${result.ratios.sequential_p50} one at a time. Aim: p95 < 30 ms, ratio < 2.`,
    );

    await mkdir(RESULTS_DIR, { recursive: true });
    const json = `${JSON.stringify(result, null, 2)}\n`;
    const stamp = result.date.replace(/[:.]/g, '-');
    await writeFile(path.join(RESULTS_DIR, `retrieve-${stamp}.json`), json);
    const target = path.join(RESULTS_DIR, 'retrieve-latest.json');
    await writeFile(`${target}.tmp`, json);
    await rename(`${target}.tmp`, target);
    console.log(`results: bench/results/retrieve-latest.json`);
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(
    `retrieve bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
