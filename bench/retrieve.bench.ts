// Retrieve benchmark (issues 4 and 14): POST /retrieve through the whole system (built services as
// processes) on one 2 000-chunk folder of a database holding at least 200 000 chunks, 1 and 50
// clients, with the folder index in memory (after), with the SQL legs (before: the retrieval
// service restarted with RETRIEVAL_MEMORY_BUDGET_MB=0) and with the local reranker on
// (RERANK_ENABLED=true, ADR 138); beside it, in the same run and driven by
// the same client over HTTP on loopback, three peers (bench/peers/server.ts): the two legs' SQL
// through pg with RRF in Node, LanceDB, and the in-process lower bound. Also the first query of
// cold folders and the memory the index holds (/metrics). Prints the table and the ratios; writes
// bench/results/retrieve-*.json. No assertions on timing: it fails only when a system does.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pgvector from 'pgvector';
import { createPool, type Pool } from '@reports/platform';
import { LocalEmbedder } from '@reports/providers';
import { freePort, sampleReportSpec } from '@reports/test-support';
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
/** Queries cycled through: the hand-written ones, then phrases of the folder's own text. */
const QUERY_COUNT = intFromEnv('BENCH_RETRIEVE_QUERIES', 200, 20);
/** Folders queried once cold (not in memory) and once warm. */
const COLD_FOLDERS = intFromEnv('BENCH_RETRIEVE_COLD_FOLDERS', 20, 1);
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
async function generateFolder(
  pool: Pool,
  tenantId: string,
): Promise<{ reportId: string; texts: string[] }> {
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
  return { reportId, texts };
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

/** Queries of the run: the hand-written ones, then 3-8 word phrases taken from the folder's text. */
function benchQueries(texts: readonly string[], count: number): string[] {
  const queries = [...QUERIES];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  while (queries.length < count) {
    const words = texts[Math.floor(next() * texts.length)]!.split(/\s+/);
    const n = 3 + Math.floor(next() * 6);
    const at = Math.floor(next() * Math.max(1, words.length - n));
    queries.push(
      words
        .slice(at, at + n)
        .join(' ')
        .replace(/[.,;:]/g, ''),
    );
  }
  return queries;
}

/** Busy CPU time of the whole machine (all cores) in ms, from /proc/stat. */
async function machineBusyMs(): Promise<number> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  const ticks = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: (query: string) => Record<string, unknown>;
}

interface RunResult {
  times: number[];
  wallMs: number;
  non2xx: number;
  /** CPU of everything but this process (the client), per request, in ms. */
  cpuMsPerQuery: number;
}

let ipCounter = 0;
/** A distinct client address per request: the gateway allows 60 retrievals a minute per address. */
function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

async function httpRun(
  target: Target,
  queries: readonly string[],
  total: number,
  connections: number,
): Promise<RunResult> {
  const times: number[] = [];
  let non2xx = 0;
  let q = 0;
  const busyBefore = await machineBusyMs();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const instance = autocannon({
    url: target.url,
    connections,
    amount: total,
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'x-forwarded-for': nextIp() },
          body: JSON.stringify(target.body(queries[q++ % queries.length]!)),
        }),
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    if (statusCode !== 200) non2xx += 1;
  });
  await instance;
  const wallMs = performance.now() - started;
  const own = process.cpuUsage(ownBefore);
  const busy = (await machineBusyMs()) - busyBefore - (own.user + own.system) / 1000;
  return { times, wallMs, non2xx, cpuMsPerQuery: Math.round((busy / total) * 100) / 100 };
}

/** Top-k chunk ids of one query from a target. */
async function topIds(target: Target, query: string): Promise<string[]> {
  const res = await fetch(target.url, {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json', 'x-forwarded-for': nextIp() },
    body: JSON.stringify(target.body(query)),
  });
  if (!res.ok) throw new Error(`${target.name}: ${res.status}`);
  const body = (await res.json()) as { chunks: Array<{ id: string }> };
  return body.chunks.map((c) => c.id);
}

/** Share of the project's top-k found in the peer's top-k, over the queries. */
async function agreement(
  project: Target,
  peer: Target,
  queries: readonly string[],
): Promise<number> {
  let found = 0;
  let total = 0;
  for (const query of queries) {
    const [a, b] = await Promise.all([topIds(project, query), topIds(peer, query)]);
    const theirs = new Set(b);
    found += a.filter((id) => theirs.has(id)).length;
    total += a.length;
  }
  return Math.round((found / Math.max(total, 1)) * 1000) / 1000;
}

const PEERS = {
  sql: "the project's two legs' SQL through pg, RRF in Node",
  lancedb: 'LanceDB 0.39 (vector + FTS, its RRF)',
  memory: 'in-process lower bound (dense scalar vector scan, in-memory BM25, RRF)',
  'project-legs': "in process, the project's in-memory legs (no gateway, NATS or database)",
} as const;
type PeerKind = keyof typeof PEERS;

/** LanceDB is a bench-only dependency of bench/peers (never installed by the root's npm ci). */
function installPeers(): void {
  const dir = path.join(ROOT, 'bench/peers');
  if (existsSync(path.join(dir, 'node_modules/@lancedb/lancedb/package.json'))) return;
  console.log('installing the bench-only peers (bench/peers: LanceDB)');
  // `npm install` from the lock, not `npm ci`: npm 11's ci refuses a lock without an entry for
  // every platform's optional LanceDB binary, and a registry mirror may serve only this platform's.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
}

async function startPeer(
  kind: PeerKind,
  databaseUrl: string,
  reportId: string,
): Promise<{ target: Target; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'bench/peers/server.ts'),
      kind,
      String(port),
      databaseUrl,
      reportId,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(`ready ${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`peer ${kind} exited with ${code}`)));
  });
  return {
    child,
    target: {
      name: PEERS[kind],
      url: `http://127.0.0.1:${port}/retrieve`,
      headers: {},
      body: (query) => ({ query, top_k: TOP_K }),
    },
  };
}

/** The retrieval service's /metrics: the folder index's memory and warm-up times. */
async function folderIndexMetrics(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => {
    const m = text.match(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm'));
    return m ? Number(m[1]) : NaN;
  };
  const count = value('retrieval_folder_index_warm_seconds_count');
  const sum = value('retrieval_folder_index_warm_seconds_sum');
  return {
    folders: value('retrieval_folder_index_folders'),
    bytes: value('retrieval_folder_index_bytes'),
    warm_count: count,
    warm_mean_ms: Math.round((sum / count) * 1000 * 10) / 10,
  };
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

interface Measured {
  name: string;
  sequential_ms: Distribution;
  sequential_cpu_ms_per_query: number;
  concurrent_ms: Distribution;
  concurrent_rps: number;
  concurrent_cpu_ms_per_query: number;
  top_k_agreement_with_project: number | null;
}

async function measure(
  target: Target,
  queries: readonly string[],
  agreeWith: Target | null,
): Promise<Measured> {
  console.log(`measuring: ${target.name}`);
  const warm = await httpRun(target, queries, 300, 10);
  if (warm.non2xx > 0) throw new Error(`${target.name}: ${warm.non2xx} warm-up requests failed`);
  const seq = await httpRun(target, queries, SEQUENTIAL, 1);
  const conc = await httpRun(target, queries, REQUESTS, CONNECTIONS);
  if (seq.non2xx + conc.non2xx > 0)
    throw new Error(`${target.name}: ${seq.non2xx + conc.non2xx} requests were not 200`);
  return {
    name: target.name,
    sequential_ms: distribution(seq.times),
    sequential_cpu_ms_per_query: seq.cpuMsPerQuery,
    concurrent_ms: distribution(conc.times),
    concurrent_rps: Math.round((conc.times.length / conc.wallMs) * 1000 * 10) / 10,
    concurrent_cpu_ms_per_query: conc.cpuMsPerQuery,
    top_k_agreement_with_project: agreeWith ? await agreement(agreeWith, target, queries) : null,
  };
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  let system: RunningSystem | undefined;
  let pool: Pool | undefined;
  const peers: ChildProcess[] = [];
  const stop = async () => {
    for (const p of peers) p.kill('SIGTERM');
    await pool?.end().catch(() => undefined);
    await system?.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    installPeers();
    const metricsPort = await freePort();
    system = await startSystem({
      serviceEnv: { retrieval: { METRICS_PORT: String(metricsPort) } },
    });
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const session = await signIn(system, 'bench@example.com');
    const tenantId = session.user.active_tenant_id;
    pool = createPool(system.db.url, POOL_MAX);

    console.log(
      `generating: a ${FOLDER_CHUNKS}-chunk folder and ${TOTAL_CHUNKS - FOLDER_CHUNKS} other chunks`,
    );
    const genStarted = performance.now();
    const { reportId, texts } = await generateFolder(pool, tenantId);
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
    const queries = benchQueries(texts, QUERY_COUNT);

    const project: Target = {
      name: 'this project, POST /retrieve (folders in memory)',
      url: `${system.url}/retrieve`,
      headers: { authorization: `Bearer ${session.token}` },
      body: (query) => ({ query, top_k: TOP_K, scope: { type: 'folder', report_id: reportId } }),
    };

    // Cold and warm folders: the first query of a folder loads it; the second finds it in memory.
    const { rows: bulk } = await pool.query<{ id: string }>(
      `SELECT id::text FROM reports WHERE title LIKE 'Bulk folder%' ORDER BY title LIMIT $1`,
      [COLD_FOLDERS],
    );
    const cold: number[] = [];
    const warmAgain: number[] = [];
    for (const [i, folder] of bulk.entries()) {
      const one: Target = {
        ...project,
        body: (query) => ({ query, top_k: TOP_K, scope: { type: 'folder', report_id: folder.id } }),
      };
      const first = await httpRun(one, [queries[i % queries.length]!], 1, 1);
      const second = await httpRun(one, [queries[(i + 1) % queries.length]!], 1, 1);
      if (first.non2xx + second.non2xx > 0) throw new Error('a cold-folder request failed');
      cold.push(first.times[0]!);
      warmAgain.push(second.times[0]!);
    }
    const coldMetrics = await folderIndexMetrics(metricsUrl);

    const results: Measured[] = [];
    results.push(await measure(project, queries, null));
    const memoryMetrics = await folderIndexMetrics(metricsUrl);

    // A change no event announces: a chunk written straight into the warm folder. The next
    // query must find it (the folder's version moved); how long that query takes is the reload.
    const marker = 'Freshness marker zyzzyva written without an event.';
    const [markerVector] = await new LocalEmbedder().embed([marker]);
    await pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, source_type, section_name, content, content_tokens, order_in_doc, embedding, embedding_model)
       VALUES (gen_random_uuid(), $1, $2, $2, 'main', 'Section', $3, 7, 1000000, $4, 'local-hash-1536')`,
      [tenantId, reportId, marker, pgvector.toSql(markerVector!)],
    );
    const changeStarted = performance.now();
    const probe = await fetch(project.url, {
      method: 'POST',
      headers: {
        ...project.headers,
        'content-type': 'application/json',
        'x-forwarded-for': nextIp(),
      },
      body: JSON.stringify(project.body('zyzzyva freshness marker')),
    });
    const probeBody = (await probe.json()) as { chunks: Array<{ content: string }> };
    const freshness = {
      next_query_found_it: probeBody.chunks.some((c) => c.content.includes('zyzzyva')),
      next_query_ms: Math.round((performance.now() - changeStarted) * 10) / 10,
    };
    await pool.query(
      `DELETE FROM chunks WHERE report_id = $1 AND content LIKE 'Freshness marker%'`,
      [reportId],
    );

    // Before: the same service reading Postgres at every query (the in-memory legs off).
    // `start` adds a process: the running one must go first, or both would answer.
    await system.kill('retrieval', 'SIGTERM');
    await system.start('retrieval', { RETRIEVAL_MEMORY_BUDGET_MB: '0' });
    results.push(
      await measure(
        { ...project, name: 'this project, POST /retrieve (SQL legs: before)' },
        queries,
        project,
      ),
    );
    // The local reranker (ADR 138, off by default): the same service with `RERANK_ENABLED` and
    // no `RERANK_URL`, reordering the first 100 fused candidates of every query. No agreement:
    // the fused order is not served while the reranker is on (both targets are this service).
    await system.kill('retrieval', 'SIGTERM');
    await system.start('retrieval', { RERANK_ENABLED: 'true' });
    results.push(
      await measure(
        { ...project, name: 'this project, POST /retrieve (local reranker on)' },
        queries,
        null,
      ),
    );
    await system.kill('retrieval', 'SIGTERM');
    await system.start('retrieval');

    for (const kind of ['sql', 'lancedb', 'memory', 'project-legs'] as const) {
      const peer = await startPeer(kind, system.db.url, reportId);
      peers.push(peer.child);
      results.push(await measure(peer.target, queries, project));
      peer.child.kill('SIGTERM');
    }

    const byName = (prefix: string) => results.find((r) => r.name.startsWith(prefix))!;
    const after = results[0]!;
    const lance = byName('LanceDB');
    const bound = byName('in-process lower bound');
    const legsInProcess = byName('in process,');
    const reranked = byName('this project, POST /retrieve (local reranker on)');
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
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
        queries: queries.length,
        top_k: TOP_K,
        embedding: 'local-hash-1536',
        rerank: 'off, except the row with the local reranker on',
        hyde: 'off (local LLM provider)',
        cpu: 'busy time of the whole machine from /proc/stat minus the client process, per request',
      },
      database: { ...stats, generation_s: Math.round(generationS * 10) / 10 },
      systems: results,
      cold_folders: {
        folders: cold.length,
        first_query_ms: distribution(cold),
        second_query_ms: distribution(warmAgain),
        metrics_after: coldMetrics,
      },
      folder_index_metrics_after_run: memoryMetrics,
      change_without_event: freshness,
      ratios: {
        rps_vs_lancedb_50_clients: ratio(after.concurrent_rps, lance.concurrent_rps),
        cpu_vs_lower_bound_50_clients: ratio(
          after.concurrent_cpu_ms_per_query,
          bound.concurrent_cpu_ms_per_query,
        ),
        cpu_vs_lower_bound_1_client: ratio(
          after.sequential_cpu_ms_per_query,
          bound.sequential_cpu_ms_per_query,
        ),
        cpu_vs_project_legs_in_process_50_clients: ratio(
          after.concurrent_cpu_ms_per_query,
          legsInProcess.concurrent_cpu_ms_per_query,
        ),
        p95_1_client_ms: after.sequential_ms.p95,
        // What turning the local reranker on costs, against the same service without it.
        local_reranker_p50_1_client: ratio(reranked.sequential_ms.p50, after.sequential_ms.p50),
        local_reranker_cpu_1_client: ratio(
          reranked.sequential_cpu_ms_per_query,
          after.sequential_cpu_ms_per_query,
        ),
        local_reranker_rps_50_clients: ratio(reranked.concurrent_rps, after.concurrent_rps),
      },
      total_run_s: Math.round((performance.now() - runStarted) / 100) / 10,
    };

    console.log(
      `\n| system | 1 client p50 / p95 ms | req/s at ${CONNECTIONS} clients | ${CONNECTIONS} clients p50 / p95 ms | CPU ms per query (1 / ${CONNECTIONS} clients) | top-${TOP_K} agreement |`,
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.sequential_ms.p50} / ${r.sequential_ms.p95} | ${r.concurrent_rps} | ${r.concurrent_ms.p50} / ${r.concurrent_ms.p95} | ${r.sequential_cpu_ms_per_query} / ${r.concurrent_cpu_ms_per_query} | ${r.top_k_agreement_with_project ?? '-'} |`,
      );
    }
    console.log(
      `\ncold folders (${cold.length}, ${FOLDER_CHUNKS} chunks each): first query p50 ${result.cold_folders.first_query_ms.p50} ms, p95 ${result.cold_folders.first_query_ms.p95} ms; second p50 ${result.cold_folders.second_query_ms.p50} ms; ` +
        `load into memory mean ${coldMetrics.warm_mean_ms} ms; memory held ${Math.round(memoryMetrics.bytes! / 1048576)} MB for ${memoryMetrics.folders} folders`,
    );
    console.log(
      `the local reranker on: 1-client p50 x${result.ratios.local_reranker_p50_1_client}, CPU per query x${result.ratios.local_reranker_cpu_1_client}, req/s at ${CONNECTIONS} clients x${result.ratios.local_reranker_rps_50_clients} (against the same service without it)`,
    );
    console.log(
      `a chunk written without an event: the next query found it: ${freshness.next_query_found_it} (${freshness.next_query_ms} ms, the folder reloaded)`,
    );
    console.log(
      `ratios: req/s vs LanceDB ${result.ratios.rps_vs_lancedb_50_clients} (aim > 1); CPU per query vs the in-process lower bound ${result.ratios.cpu_vs_lower_bound_50_clients} at ${CONNECTIONS} clients, ${result.ratios.cpu_vs_lower_bound_1_client} at 1 (aim < 2), vs the project's own legs in process ${result.ratios.cpu_vs_project_legs_in_process_50_clients}; 1-client p95 ${result.ratios.p95_1_client_ms} ms (aim < 10)`,
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
// Exits when done: fetch's pooled keep-alive sockets to the peers and the gateway would hold it.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(
      `retrieve bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
