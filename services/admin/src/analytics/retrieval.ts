import type {
  LatencyPercentiles,
  RetrievalQueriesRequest,
  RetrievalQueryList,
  RetrievalStats,
  RetrievalStatsQuery,
} from '@reports/contracts';
import type { Pool } from '@reports/platform';

/**
 * Retrieval analytics (docs/adr/134-retrieval-analytics.md). The stats read the daily rollup
 * `retrieval_log_daily` (one row per UTC day and tenant, histograms of the latencies), which a
 * statement trigger keeps as the log grows; the query list reads the log through its time
 * indexes. The chat figures read the window's assistant messages and feedback.
 */

/** The percentile of a histogram: the upper bound of the bucket it falls in (0 when empty). Pure. */
export function percentile(hist: readonly number[], bounds: readonly number[], p: number): number {
  const total = hist.reduce((n, c) => n + c, 0);
  if (total === 0) return 0;
  const rank = Math.ceil(p * total);
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]!;
    // The last bucket holds everything above the last bound: it is reported as that bound.
    if (seen >= rank) return bounds[Math.min(i, bounds.length - 1)]!;
  }
  return bounds[bounds.length - 1]!;
}

function percentiles(hist: readonly number[], bounds: readonly number[]): LatencyPercentiles {
  return { p50: percentile(hist, bounds, 0.5), p95: percentile(hist, bounds, 0.95) };
}

const rate = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

/** First day of a window of `days` calendar days ending today (UTC), by the database's clock. */
async function windowStart(pool: Pool, days: number): Promise<string> {
  const { rows } = await pool.query<{ since: string }>(
    `SELECT to_char((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), 'YYYY-MM-DD') AS since`,
    [days],
  );
  return rows[0]!.since;
}

export async function retrievalStats(pool: Pool, q: RetrievalStatsQuery): Promise<RetrievalStats> {
  const since = await windowStart(pool, q.days);
  const tenant = q.tenant_id ?? null;
  const [totals, hists, days, chat, feedback] = await Promise.all([
    pool.query<{
      queries: number;
      zero_results: number;
      hyde: number;
      reranked: number;
      rerank_errors: number;
      bounds: number[];
    }>(
      `SELECT COALESCE(sum(queries), 0)::int AS queries,
              COALESCE(sum(zero_results), 0)::int AS zero_results,
              COALESCE(sum(hyde), 0)::int AS hyde, COALESCE(sum(reranked), 0)::int AS reranked,
              COALESCE(sum(rerank_errors), 0)::int AS rerank_errors,
              latency_bounds() AS bounds
         FROM retrieval_log_daily
        WHERE day >= $1::date AND ($2::uuid IS NULL OR tenant_id = $2)`,
      [since, tenant],
    ),
    // The histograms summed bucket by bucket (one row per bucket).
    pool.query<{ embed: number; retrieval: number; rerank: number; total: number }>(
      `SELECT sum(e)::int AS embed, sum(r)::int AS retrieval, sum(k)::int AS rerank,
              sum(t)::int AS total
         FROM retrieval_log_daily,
              unnest(embed_hist, retrieval_hist, rerank_hist, total_hist)
                WITH ORDINALITY AS u(e, r, k, t, i)
        WHERE day >= $1::date AND ($2::uuid IS NULL OR tenant_id = $2)
        GROUP BY i ORDER BY i`,
      [since, tenant],
    ),
    pool.query<{ day: string; queries: number; zero_results: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(queries)::int AS queries,
              sum(zero_results)::int AS zero_results
         FROM retrieval_log_daily
        WHERE day >= $1::date AND ($2::uuid IS NULL OR tenant_id = $2)
        GROUP BY day ORDER BY day`,
      [since, tenant],
    ),
    pool.query<{ mode: string; reason: string | null; turns: number }>(
      `SELECT meta->>'mode' AS mode, meta->>'fallback_reason' AS reason, count(*)::int AS turns
         FROM messages
        WHERE role = 'assistant' AND created_at >= $1::date AND ($2::uuid IS NULL OR tenant_id = $2)
          AND meta->>'mode' IN ('rag', 'full_fallback')
        GROUP BY 1, 2`,
      [since, tenant],
    ),
    pool.query<{ mode: string; up: number; down: number }>(
      `SELECT COALESCE(m.meta->>'mode', 'unknown') AS mode,
              count(*) FILTER (WHERE f.value = 'up')::int AS up,
              count(*) FILTER (WHERE f.value = 'down')::int AS down
         FROM feedback f
         LEFT JOIN messages m ON m.id = f.message_id
        WHERE f.created_at >= $1::date AND ($2::uuid IS NULL OR f.tenant_id = $2)
        GROUP BY 1 ORDER BY 1`,
      [since, tenant],
    ),
  ]);
  const t = totals.rows[0]!;
  const hist = (pick: (r: (typeof hists.rows)[number]) => number) => hists.rows.map(pick);
  const turns = chat.rows.reduce((n, r) => n + r.turns, 0);
  const fallbacks = chat.rows.filter((r) => r.mode === 'full_fallback');
  const fallbackTurns = fallbacks.reduce((n, r) => n + r.turns, 0);
  return {
    days: q.days,
    tenant_id: tenant,
    since,
    queries: t.queries,
    zero_results: t.zero_results,
    zero_result_rate: rate(t.zero_results, t.queries),
    per_day: days.rows,
    latency_ms: {
      embed: percentiles(
        hist((r) => r.embed),
        t.bounds,
      ),
      retrieval: percentiles(
        hist((r) => r.retrieval),
        t.bounds,
      ),
      rerank: percentiles(
        hist((r) => r.rerank),
        t.bounds,
      ),
      total: percentiles(
        hist((r) => r.total),
        t.bounds,
      ),
    },
    hyde_rate: rate(t.hyde, t.queries),
    rerank_rate: rate(t.reranked, t.queries),
    rerank_fallbacks: t.rerank_errors,
    chat: {
      turns,
      fallback_turns: fallbackTurns,
      fallback_rate: rate(fallbackTurns, turns),
      fallback_reasons: fallbacks
        .map((r) => ({ reason: r.reason ?? 'unknown', turns: r.turns }))
        .sort((a, b) => b.turns - a.turns || a.reason.localeCompare(b.reason)),
      feedback: feedback.rows.map((r) => ({
        ...r,
        up_ratio: r.up + r.down === 0 ? null : r.up / (r.up + r.down),
      })),
    },
  };
}

/** The window's logged queries, newest first; only those that found nothing with `zero_results`. */
export async function retrievalQueries(
  pool: Pool,
  q: RetrievalQueriesRequest,
): Promise<RetrievalQueryList> {
  const since = await windowStart(pool, q.days);
  const { rows } = await pool.query<{
    id: string;
    created_at: Date;
    tenant_id: string;
    report_id: string;
    caller: 'user' | 'admin';
    scope_type: string;
    query: string;
    result_count: number;
    total_ms: number;
  }>(
    // Conditions written out (not `$n IS NULL OR …`) so the partial indexes of migration 0081
    // match every plan, generic ones included.
    `SELECT id, created_at, tenant_id, report_id, caller, scope_type, query, result_count, total_ms
       FROM retrieval_logs
      WHERE created_at >= $1::date
        ${q.tenant_id ? 'AND tenant_id = $4' : ''}
        ${q.zero_results ? 'AND result_count = 0' : ''}
      ORDER BY created_at DESC, id
      LIMIT $2 OFFSET $3`,
    [since, q.limit, q.offset, ...(q.tenant_id ? [q.tenant_id] : [])],
  );
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}
