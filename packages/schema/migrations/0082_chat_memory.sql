-- Chat memory (docs/adr/133-chat-memory.md): a user's own earlier conversations about a report,
-- recalled into a turn when the user has turned it on. Off unless a row says otherwise.
CREATE TABLE chat_memory_settings (
  tenant_id   uuid NOT NULL,
  user_id     uuid NOT NULL,
  enabled     boolean NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);

-- A clear: messages older than `cleared_at` are never recalled for that report (null: for every
-- report). The conversations themselves stay; memory only forgets them.
CREATE TABLE chat_memory_clears (
  tenant_id   uuid NOT NULL,
  user_id     uuid NOT NULL,
  report_id   uuid,
  cleared_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_memory_clears_user_idx ON chat_memory_clears (tenant_id, user_id, cleared_at DESC);

-- Recall reads one user's messages about one report.
CREATE INDEX messages_memory_idx ON messages (tenant_id, report_id, user_id, created_at DESC)
  WHERE role = 'user';
