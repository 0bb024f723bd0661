-- Chat: conversations about a report, their messages, and the ledger of what each
-- answer cost. Written by the chat service only (docs/adr/040, 041).

-- A conversation about one report, shared by the members of its tenant. Deleting the
-- report removes its conversations (DELETE /ingest/{id} removes everything of a report).
CREATE TABLE conversations (
  id               uuid PRIMARY KEY,
  tenant_id        uuid NOT NULL,
  report_id        uuid NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  created_by       uuid,
  title            text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  -- False until the title is set by a person (POST with a title, PATCH): the first
  -- message names an untitled conversation.
  titled           boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  last_message_at  timestamptz
);
CREATE INDEX conversations_report_idx
  ON conversations (tenant_id, report_id, (COALESCE(last_message_at, created_at)) DESC);

-- Messages in the order they were written (`seq`). An assistant message is stored once
-- its answer ended (complete, cancelled or broken off: `meta.partial`, `meta.finish_reason`).
CREATE TABLE messages (
  id               uuid PRIMARY KEY,
  seq              bigint GENERATED ALWAYS AS IDENTITY,
  conversation_id  uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  tenant_id        uuid NOT NULL,
  report_id        uuid NOT NULL,
  -- The author of a user message; null on assistant messages.
  user_id          uuid,
  role             text NOT NULL CHECK (role IN ('user', 'assistant')),
  content          text NOT NULL,
  meta             jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_conversation_idx ON messages (conversation_id, seq);

-- What each answer cost, one row per assistant message (the query rewrite included).
-- No foreign keys, as stage_runs: cost history outlives a deleted conversation or report.
-- cost_microcents = input_tokens x input price + output_tokens x output price, with
-- prices in cents per million tokens: an exact integer in millionths of a cent.
CREATE TABLE chat_usage (
  message_id       uuid PRIMARY KEY,
  tenant_id        uuid NOT NULL,
  report_id        uuid NOT NULL,
  conversation_id  uuid NOT NULL,
  user_id          uuid,
  provider         text NOT NULL,
  model            text NOT NULL,
  mode             text NOT NULL,
  input_tokens     integer,
  output_tokens    integer,
  cost_microcents  bigint NOT NULL DEFAULT 0 CHECK (cost_microcents >= 0),
  priced           boolean NOT NULL,
  occurred_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_usage_tenant_time_idx ON chat_usage (tenant_id, occurred_at DESC);

-- The admin cost reports read cost_events only (0033). Chat answers join it as kind
-- `chat`; their cost is in cents with the fraction kept (numeric), so sums over many
-- cheap answers are right instead of each answer rounding up to a whole cent.
DROP VIEW cost_events;
CREATE VIEW cost_events AS
  SELECT tenant_id,
         report_id,
         stage                          AS kind,
         provider,
         model,
         cost_cents::numeric            AS cost_cents,
         started_at                     AS occurred_at
    FROM stage_runs
  UNION ALL
  SELECT tenant_id,
         report_id,
         'chat'                         AS kind,
         provider,
         model,
         cost_microcents / 1000000.0    AS cost_cents,
         occurred_at
    FROM chat_usage;
