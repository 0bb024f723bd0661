import type {
  FeedbackList,
  FeedbackListQuery,
  FeedbackStatList,
  FeedbackStatsQuery,
} from '@reports/contracts';
import type { Pool } from '@reports/platform';

interface FeedbackDbRow {
  id: string;
  message_id: string;
  user_id: string;
  tenant_id: string;
  report_id: string;
  conversation_id: string | null;
  value: 'up' | 'down';
  comment: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Feedback rows, newest first, optionally for one tenant, report or value. */
export async function listFeedback(pool: Pool, q: FeedbackListQuery): Promise<FeedbackList> {
  const { rows } = await pool.query<FeedbackDbRow>(
    `SELECT id, message_id, user_id, tenant_id, report_id, conversation_id, value, comment, created_at, updated_at
       FROM feedback
      WHERE ($1::uuid IS NULL OR tenant_id = $1)
        AND ($2::uuid IS NULL OR report_id = $2)
        AND ($3::text IS NULL OR value = $3)
      ORDER BY created_at DESC, id
      LIMIT $4 OFFSET $5`,
    [q.tenant_id ?? null, q.report_id ?? null, q.value ?? null, q.limit, q.offset],
  );
  return rows.map((r) => ({
    ...r,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

/**
 * Per report: how many votes, how many up, how many down; most rated first. The
 * title comes from the report while it exists (feedback outlives deleted reports).
 */
export async function feedbackStats(pool: Pool, q: FeedbackStatsQuery): Promise<FeedbackStatList> {
  const { rows } = await pool.query<{
    report_id: string;
    tenant_id: string;
    title: string | null;
    total: number;
    up: number;
    down: number;
  }>(
    `SELECT f.report_id, f.tenant_id, r.title,
            count(*)::int AS total,
            count(*) FILTER (WHERE f.value = 'up')::int AS up,
            count(*) FILTER (WHERE f.value = 'down')::int AS down
       FROM feedback f
       LEFT JOIN reports r ON r.id = f.report_id
      WHERE ($1::uuid IS NULL OR f.tenant_id = $1)
      GROUP BY f.report_id, f.tenant_id, r.title
      ORDER BY total DESC, f.report_id
      LIMIT $2 OFFSET $3`,
    [q.tenant_id ?? null, q.limit, q.offset],
  );
  return rows;
}
