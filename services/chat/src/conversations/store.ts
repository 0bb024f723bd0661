import { randomUUID } from 'node:crypto';
import {
  AppError,
  AssistantMeta,
  UserMeta,
  type ChatMessage,
  type ChatUsage,
  type Conversation,
  type FeedbackRecorded,
  type FeedbackValue,
} from '@reports/contracts';
import { storableJson, storableText, withTransaction, type Pool } from '@reports/platform';
import type { StoredTurnMessage } from '../history/history.js';

/** Conversations, messages, feedback and the cost ledger in Postgres; every read is scoped to a tenant. */

/** Title of a conversation created without one, until its first message names it. */
export const UNTITLED = 'New conversation';
const TITLE_CHARS = 80;

/** A title from the first message: its first line, spaces collapsed, at most 80 characters. Pure. */
export function titleFrom(message: string): string {
  const line = (message.split('\n').find((l) => l.trim()) ?? message).replace(/\s+/g, ' ').trim();
  if (!line) return UNTITLED;
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1).trimEnd()}…` : line;
}

interface ConversationRow {
  id: string;
  tenant_id: string;
  report_id: string;
  title: string;
  titled: boolean;
  created_by: string | null;
  message_count: number;
  created_at: Date;
  updated_at: Date;
  last_message_at: Date | null;
}

const CONVERSATION_COLUMNS = `c.id, c.tenant_id, c.report_id, c.title, c.titled, c.created_by,
  (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id) AS message_count,
  c.created_at, c.updated_at, c.last_message_at`;

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    report_id: row.report_id,
    title: row.title,
    created_by: row.created_by,
    message_count: row.message_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_message_at: row.last_message_at?.toISOString() ?? null,
  };
}

export type StoredConversation = ReturnType<typeof toConversation> & { titled: boolean };

/** A conversation of the tenant, or null. */
export async function findConversation(
  pool: Pool,
  tenantId: string,
  id: string,
): Promise<StoredConversation | null> {
  const { rows } = await pool.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.id = $1 AND c.tenant_id = $2`,
    [id, tenantId],
  );
  const row = rows[0];
  return row ? { ...toConversation(row), titled: row.titled } : null;
}

/** A conversation of the tenant, or 404. */
export async function requireConversation(
  pool: Pool,
  tenantId: string,
  id: string,
): Promise<StoredConversation> {
  const found = await findConversation(pool, tenantId, id);
  if (!found) throw new AppError('not_found', 'conversation not found');
  return found;
}

export async function createConversation(
  pool: Pool,
  c: { tenantId: string; reportId: string; userId: string; title: string | null },
): Promise<StoredConversation> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO conversations (id, tenant_id, report_id, created_by, title, titled)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, c.tenantId, c.reportId, c.userId, c.title ?? UNTITLED, c.title !== null],
  );
  return requireConversation(pool, c.tenantId, id);
}

/** The tenant's conversations about one report, most recently active first. */
export async function listConversations(
  pool: Pool,
  tenantId: string,
  reportId: string,
  page: { limit: number; offset: number },
): Promise<Conversation[]> {
  const { rows } = await pool.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c
      WHERE c.tenant_id = $1 AND c.report_id = $2
      ORDER BY COALESCE(c.last_message_at, c.created_at) DESC, c.id
      LIMIT $3 OFFSET $4`,
    [tenantId, reportId, page.limit, page.offset],
  );
  return rows.map(toConversation);
}

export async function renameConversation(
  pool: Pool,
  tenantId: string,
  id: string,
  title: string,
): Promise<Conversation> {
  const { rowCount } = await pool.query(
    `UPDATE conversations SET title = $3, titled = true, updated_at = now() WHERE id = $1 AND tenant_id = $2`,
    [id, tenantId, title],
  );
  if (!rowCount) throw new AppError('not_found', 'conversation not found');
  return requireConversation(pool, tenantId, id);
}

/** Deletes a conversation and its messages; feedback and the cost ledger outlive it. */
export async function deleteConversation(pool: Pool, tenantId: string, id: string): Promise<void> {
  const { rowCount } = await pool.query(
    'DELETE FROM conversations WHERE id = $1 AND tenant_id = $2',
    [id, tenantId],
  );
  if (!rowCount) throw new AppError('not_found', 'conversation not found');
}

/** Stores the user's message of a turn (naming an untitled conversation after it); returns its `seq`. */
export async function storeUserMessage(
  pool: Pool,
  m: {
    id: string;
    conversation: StoredConversation;
    tenantId: string;
    userId: string;
    content: string;
    meta: UserMeta;
  },
): Promise<number> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ seq: string }>(
      `INSERT INTO messages (id, conversation_id, tenant_id, report_id, user_id, role, content, meta)
       VALUES ($1, $2, $3, $4, $5, 'user', $6, $7) RETURNING seq`,
      [
        m.id,
        m.conversation.id,
        m.tenantId,
        m.conversation.report_id,
        m.userId,
        storableText(m.content),
        storableJson(UserMeta.parse(m.meta)),
      ],
    );
    await client.query(
      `UPDATE conversations
          SET last_message_at = now(), updated_at = now(),
              title = CASE WHEN titled THEN title ELSE $2 END, titled = true
        WHERE id = $1`,
      [
        m.conversation.id,
        m.conversation.titled ? m.conversation.title : storableText(titleFrom(m.content)),
      ],
    );
    return Number(rows[0]!.seq);
  });
}

/** The conversation's messages before `seq`, oldest first, at most `limit` of the latest. */
export async function messagesBefore(
  pool: Pool,
  conversationId: string,
  seq: number,
  limit: number,
): Promise<StoredTurnMessage[]> {
  const { rows } = await pool.query<StoredTurnMessage>(
    `SELECT role, content FROM (
       SELECT role, content, seq FROM messages
        WHERE conversation_id = $1 AND seq < $2
        ORDER BY seq DESC LIMIT $3) latest
     ORDER BY seq`,
    [conversationId, seq, limit],
  );
  return rows;
}

export interface StoredAnswer {
  id: string;
  conversationId: string;
  tenantId: string;
  reportId: string;
  userId: string;
  content: string;
  meta: AssistantMeta;
  usage: ChatUsage;
}

/** Stores an answer (whole or partial) and its line in the cost ledger, in one transaction. */
export async function storeAnswer(pool: Pool, a: StoredAnswer): Promise<void> {
  // A model's answer is kept whatever it holds: NUL removed, lone surrogates replaced (ADR 095).
  const meta = storableJson(AssistantMeta.parse(a.meta));
  await withTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO messages (id, conversation_id, tenant_id, report_id, user_id, role, content, meta)
       VALUES ($1, $2, $3, $4, NULL, 'assistant', $5, $6)`,
      [a.id, a.conversationId, a.tenantId, a.reportId, storableText(a.content), meta],
    );
    await client.query(
      `INSERT INTO chat_usage (message_id, tenant_id, report_id, conversation_id, user_id, provider, model, mode,
                               input_tokens, output_tokens, cost_microcents, priced)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        a.id,
        a.tenantId,
        a.reportId,
        a.conversationId,
        a.userId,
        meta.provider,
        meta.model,
        meta.mode,
        a.usage.input_tokens,
        a.usage.output_tokens,
        a.usage.cost_microcents,
        a.usage.priced,
      ],
    );
    await client.query(
      `UPDATE conversations SET last_message_at = now(), updated_at = now() WHERE id = $1`,
      [a.conversationId],
    );
  });
}

interface MessageRow {
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  meta: unknown;
  user_id: string | null;
  feedback: FeedbackValue | null;
  created_at: Date;
}

/** A conversation's messages, oldest first, each answer with the caller's own feedback. */
export async function listMessages(
  pool: Pool,
  tenantId: string,
  conversationId: string,
  callerId: string,
): Promise<ChatMessage[]> {
  await requireConversation(pool, tenantId, conversationId);
  const { rows } = await pool.query<MessageRow>(
    `SELECT m.id, m.conversation_id, m.role, m.content, m.meta, m.user_id, f.value AS feedback, m.created_at
       FROM messages m
       LEFT JOIN feedback f ON f.message_id = m.id AND f.user_id = $3
      WHERE m.conversation_id = $1 AND m.tenant_id = $2
      ORDER BY m.seq`,
    [conversationId, tenantId, callerId],
  );
  return rows.map((r): ChatMessage => {
    const base = {
      id: r.id,
      conversation_id: r.conversation_id,
      content: r.content,
      created_at: r.created_at.toISOString(),
    };
    return r.role === 'user'
      ? { ...base, role: 'user', meta: UserMeta.parse(r.meta), user_id: r.user_id }
      : { ...base, role: 'assistant', meta: AssistantMeta.parse(r.meta), feedback: r.feedback };
  });
}

/**
 * Records the caller's thumbs on an answer of the tenant: one per user per message, a
 * second vote replaces the first. 404 outside the tenant; 422 on a user's message.
 */
export async function putFeedback(
  pool: Pool,
  f: {
    tenantId: string;
    userId: string;
    messageId: string;
    value: FeedbackValue;
    comment: string | null;
  },
): Promise<FeedbackRecorded> {
  const { rows } = await pool.query<{ role: string; report_id: string; conversation_id: string }>(
    'SELECT role, report_id, conversation_id FROM messages WHERE id = $1 AND tenant_id = $2',
    [f.messageId, f.tenantId],
  );
  const message = rows[0];
  if (!message) throw new AppError('not_found', 'message not found');
  if (message.role !== 'assistant')
    throw new AppError(
      'validation_failed',
      'feedback is given on answers (assistant messages), not on questions',
    );
  const { rows: saved } = await pool.query<{ value: FeedbackValue; comment: string | null }>(
    `INSERT INTO feedback (id, message_id, user_id, tenant_id, report_id, conversation_id, value, comment)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (message_id, user_id) DO UPDATE
       SET value = EXCLUDED.value, comment = EXCLUDED.comment, updated_at = now()
     RETURNING value, comment`,
    [
      randomUUID(),
      f.messageId,
      f.userId,
      f.tenantId,
      message.report_id,
      message.conversation_id,
      f.value,
      f.comment,
    ],
  );
  return { message_id: f.messageId, value: saved[0]!.value, comment: saved[0]!.comment };
}
