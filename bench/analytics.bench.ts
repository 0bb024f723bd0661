// Retrieval analytics benchmark (issue 15 item 4, ADR 134): GET /admin/retrieval/stats and
// GET /admin/retrieval/queries through the gateway over a retrieval log of 1 million rows (90 days,
// 10 tenants, written in one statement as the retrieval service writes its rows one by one: the
// same trigger keeps the daily rollup), beside the same SQL run directly through `pg` and beside
// the naive aggregate over the raw log. Prints p50/p95 of each; writes
// bench/results/analytics-*.json. No assertions on timing.
import { execFileSync } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startSystem, type RunningSystem } from '../test/support/system.js';
import { freshIp, getJson } from '../test/support/client.js';
import { distribution, type Distribution } from './support/stats.js';
import { intFromEnv } from './support/env.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const ADMIN_HASH = 'bench-admin-hash-0123456789abcdef0123';

const ROWS = intFromEnv('BENCH_ANALYTICS_ROWS', 1_000_000, 1000);
const CALLS = intFromEnv('BENCH_ANALYTICS_CALLS', 50, 5);
const TENANTS = 10;

const git = (args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

async function timed(calls: number, run: () => Promise<unknown>): Promise<Distribution> {
  for (let i = 0; i < 3; i++) await run(); // warm up
  const ms: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  return distribution(ms);
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  const startedAt = new Date();
  let system: RunningSystem | undefined;
  const stop = async () => {
    await system?.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    system = await startSystem({ env: { ADMIN_HASH } });
    const pool = system.db.pool;
    const tenants = Array.from(
      { length: TENANTS },
      (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    );
    const insertStarted = performance.now();
    // One log row per retrieval, spread over 90 days and 10 tenants; 5% found nothing.
    await pool.query(
      `INSERT INTO retrieval_logs (id, tenant_id, report_id, caller, scope_type, query, top_k, legs,
         keyword_backend, used_hyde, reranked, rerank_error, keyword_candidates, vector_candidates,
         embed_ms, keyword_ms, vector_ms, retrieval_ms, rerank_ms, total_ms, results, created_at)
       SELECT gen_random_uuid(), ($2::uuid[])[1 + i % ${TENANTS}], gen_random_uuid(), 'user', 'folder',
              'what is the condition of item ' || i, 6, 'hybrid', 'bm25', i % 3 = 0, i % 4 = 0,
              CASE WHEN i % 500 = 0 THEN 'rerank timed out' END, 40, 40,
              (i * 7) % 60, 5, 5, 5 + (i * 11) % 90, (i * 13) % 40, 10 + (i * 17) % 300,
              CASE WHEN i % 20 = 0 THEN '[]'::jsonb
                   ELSE '[{"chunk_id":"00000000-0000-4000-8000-000000000000","rank":1}]'::jsonb END,
              now() - make_interval(secs => (i::bigint * 7776000 / $1)::int)
         FROM generate_series(1, $1::int) AS i`,
      [ROWS, tenants],
    );
    const insertS = (performance.now() - insertStarted) / 1000;
    await pool.query('ANALYZE retrieval_logs');
    await pool.query('ANALYZE retrieval_log_daily');

    const headers = { 'x-admin-hash': ADMIN_HASH };
    const api = (url: string) => async () => {
      // Each call from an address of its own: the admin area's rate limit is per address.
      const res = await getJson(system!, null, url, {
        headers: { ...headers, 'x-forwarded-for': freshIp() },
      });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    };
    const cases: Record<string, { url: string; sql?: () => Promise<unknown> }> = {};
    for (const days of [7, 30, 90]) {
      cases[`stats days=${days}`] = { url: `/admin/retrieval/stats?days=${days}` };
      cases[`stats days=${days} tenant`] = {
        url: `/admin/retrieval/stats?days=${days}&tenant_id=${tenants[3]}`,
      };
    }
    cases['queries days=30 zero_results'] = {
      url: '/admin/retrieval/queries?days=30&zero_results=true',
    };
    cases['queries days=30 zero_results tenant'] = {
      url: `/admin/retrieval/queries?days=30&zero_results=true&tenant_id=${tenants[3]}`,
    };
    cases['queries days=90'] = { url: '/admin/retrieval/queries?days=90' };

    const results: Record<string, Distribution> = {};
    for (const [name, c] of Object.entries(cases)) {
      results[name] = await timed(CALLS, api(c.url));
      console.log(`${name}: p50 ${results[name].p50} ms, p95 ${results[name].p95} ms`);
    }
    // The rollup's SQL alone, and what the same figures cost computed from the raw log.
    const rollupSql = await timed(CALLS, () =>
      pool.query(
        `SELECT sum(e), sum(r), sum(k), sum(t)
           FROM retrieval_log_daily,
                unnest(embed_hist, retrieval_hist, rerank_hist, total_hist) WITH ORDINALITY AS u(e, r, k, t, i)
          WHERE day >= (now() AT TIME ZONE 'UTC')::date - 89
          GROUP BY i ORDER BY i`,
      ),
    );
    const rawSql = await timed(Math.max(5, Math.floor(CALLS / 10)), () =>
      pool.query(
        `SELECT count(*), count(*) FILTER (WHERE result_count = 0),
                percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY embed_ms),
                percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY retrieval_ms),
                percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY rerank_ms),
                percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY total_ms)
           FROM retrieval_logs WHERE created_at >= now() - interval '90 days'`,
      ),
    );
    console.log(`rollup SQL through pg, days=90: p50 ${rollupSql.p50} ms, p95 ${rollupSql.p95} ms`);
    console.log(
      `raw-log aggregate through pg, days=90: p50 ${rawSql.p50} ms, p95 ${rawSql.p95} ms`,
    );

    const result = {
      date: startedAt.toISOString(),
      commit: git(['rev-parse', '--short', 'HEAD']),
      dirty: git(['status', '--porcelain']) !== '',
      node: process.version,
      cpu_count: os.cpus().length,
      config: { rows: ROWS, tenants: TENANTS, days_spread: 90, calls: CALLS },
      insert_s: Math.round(insertS * 10) / 10,
      through_gateway_ms: results,
      rollup_sql_ms: rollupSql,
      raw_log_aggregate_sql_ms: rawSql,
      target_p95_under_200_ms: Object.values(results).every((d) => d.p95 < 200),
      total_run_s: Math.round((performance.now() - runStarted) / 100) / 10,
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    const stamp = result.date.replace(/[:.]/g, '-');
    const text = `${JSON.stringify(result, null, 2)}\n`;
    await writeFile(path.join(RESULTS_DIR, `analytics-${stamp}.json`), text);
    await writeFile(path.join(RESULTS_DIR, 'analytics-latest.json.tmp'), text);
    await rename(
      path.join(RESULTS_DIR, 'analytics-latest.json.tmp'),
      path.join(RESULTS_DIR, 'analytics-latest.json'),
    );
    console.log(
      `\nevery endpoint p95 under 200 ms: ${result.target_p95_under_200_ms}; results: bench/results/analytics-latest.json`,
    );
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
