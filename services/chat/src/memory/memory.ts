import type { ChatCaller, MemoryUsed } from '@reports/contracts';
import type { Pool } from '@reports/platform';
import { queryTerms, type ContextDocument } from '@reports/providers';

/**
 * Chat memory (docs/adr/133-chat-memory.md): with the user's setting on, a turn about a report
 * also recalls the user's own earlier exchanges about that report (their question and the
 * answer to it), from other conversations, never another user's, never one they cleared; a
 * deleted conversation's messages are gone with it.
 */

/** Earlier exchanges recalled at most into one turn. */
export const MEMORY_RECALL = 2;
/** Longest answer text recalled, in characters. */
const MEMORY_ANSWER_CHARS = 1200;

/** Whether the caller's turns recall their earlier conversations (off unless set). */
export async function memoryEnabled(pool: Pool, caller: ChatCaller): Promise<boolean> {
  const { rows } = await pool.query<{ enabled: boolean }>(
    'SELECT enabled FROM chat_memory_settings WHERE tenant_id = $1 AND user_id = $2',
    [caller.tenant_id, caller.user_id],
  );
  return rows[0]?.enabled ?? false;
}

export async function setMemory(pool: Pool, caller: ChatCaller, enabled: boolean): Promise<void> {
  await pool.query(
    `INSERT INTO chat_memory_settings (tenant_id, user_id, enabled) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, user_id) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()`,
    [caller.tenant_id, caller.user_id, enabled],
  );
}

/** Forgets everything said before now, about one report or (null) every report. */
export async function clearMemory(
  pool: Pool,
  caller: ChatCaller,
  reportId: string | null,
): Promise<void> {
  await pool.query(
    // clock_timestamp(), not now(): a message stored later in the same transaction stays.
    `INSERT INTO chat_memory_clears (tenant_id, user_id, report_id, cleared_at)
     VALUES ($1, $2, $3, clock_timestamp())`,
    [caller.tenant_id, caller.user_id, reportId],
  );
}

export interface RecalledExchange {
  conversationId: string;
  conversationTitle: string;
  messageId: string;
  question: string;
  answer: string;
  createdAt: Date;
}

/**
 * The caller's earlier exchanges about the report that share words with the query, best first:
 * questions the caller asked (in any conversation of the report but `conversationId`) and the
 * complete answers to them, newer than the caller's last clear. Empty for a query without words
 * worth looking for.
 */
export async function recall(
  pool: Pool,
  q: { caller: ChatCaller; reportId: string; conversationId: string; query: string },
): Promise<RecalledExchange[]> {
  const terms = queryTerms(q.query)
    .map((t) => t.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  if (terms.length === 0) return [];
  const { rows } = await pool.query<{
    conversation_id: string;
    title: string;
    answer_id: string;
    question: string;
    answer: string;
    created_at: Date;
  }>(
    `WITH cleared AS (
       SELECT max(cleared_at) AS at FROM chat_memory_clears
        WHERE tenant_id = $1 AND user_id = $2 AND (report_id IS NULL OR report_id = $3)
     ), asked AS (
       SELECT m.conversation_id, m.seq, m.content
         FROM messages m
        WHERE m.tenant_id = $1 AND m.report_id = $3 AND m.user_id = $2 AND m.role = 'user'
          AND m.conversation_id <> $4
          AND m.created_at > COALESCE((SELECT at FROM cleared), '-infinity'::timestamptz)
     )
     SELECT a.conversation_id, c.title, a.id AS answer_id, asked.content AS question,
            a.content AS answer, a.created_at,
            ts_rank(to_tsvector('simple', asked.content || ' ' || a.content), query) AS rank
       FROM asked
       JOIN conversations c ON c.id = asked.conversation_id
       CROSS JOIN to_tsquery('simple', $5) AS query
       JOIN LATERAL (
         SELECT id, conversation_id, role, content, created_at, meta FROM messages n
          WHERE n.conversation_id = asked.conversation_id AND n.seq > asked.seq
          ORDER BY n.seq LIMIT 1
       ) a ON true
      WHERE a.role = 'assistant' AND (a.meta->>'partial') IS DISTINCT FROM 'true'
        AND a.content <> ''
        AND to_tsvector('simple', asked.content || ' ' || a.content) @@ query
      ORDER BY rank DESC, a.created_at DESC
      LIMIT $6`,
    [
      q.caller.tenant_id,
      q.caller.user_id,
      q.reportId,
      q.conversationId,
      terms.join(' | '),
      MEMORY_RECALL,
    ],
  );
  return rows.map((r) => ({
    conversationId: r.conversation_id,
    conversationTitle: r.title,
    messageId: r.answer_id,
    question: r.question,
    answer: r.answer,
    createdAt: r.created_at,
  }));
}

/** The recalled exchanges as documents `M1`, `M2`… of the turn, marked as memory. Pure. */
export function memoryDocuments(recalled: readonly RecalledExchange[]): {
  documents: ContextDocument[];
  used: MemoryUsed[];
} {
  const documents = recalled.map((r, i) => {
    const day = r.createdAt.toISOString().slice(0, 10);
    // Its citations named that turn's documents, not this one's: they go, with the answerer's
    // own "The report also says:".
    const said = r.answer
      .replace(/\s*\[[^\]\n]{1,200}\](?!\()/g, '')
      .replace(/^The report also says:\s*$/gm, '')
      .trim();
    const answer =
      said.length > MEMORY_ANSWER_CHARS ? `${said.slice(0, MEMORY_ANSWER_CHARS - 1)}…` : said;
    const question = r.question.replace(/\s+/g, ' ').trim().slice(0, 200);
    return {
      ref: `M${i + 1}`,
      title: `Memory: your earlier question "${question}" (${day}) and the answer to it`,
      text: answer,
      citation: `your earlier conversation of ${day}`,
      memory: true,
    };
  });
  const used = recalled.map((r, i) => ({
    ref: `M${i + 1}`,
    conversation_id: r.conversationId,
    message_id: r.messageId,
    created_at: r.createdAt.toISOString(),
  }));
  return { documents, used };
}
