-- Thumbs up or down on one assistant message, one per user per message (a second
-- vote replaces the first: the chat upserts on (message_id, user_id)).
-- No foreign keys to messages or reports: feedback history outlives a deleted
-- conversation or report, as stage_runs does for costs.
CREATE TABLE feedback (
  id               uuid PRIMARY KEY,
  message_id       uuid NOT NULL,
  user_id          uuid NOT NULL,
  tenant_id        uuid NOT NULL,
  report_id        uuid NOT NULL,
  conversation_id  uuid,
  value            text NOT NULL CHECK (value IN ('up', 'down')),
  comment          text CHECK (comment IS NULL OR length(comment) <= 4000),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (message_id, user_id)
);
CREATE INDEX feedback_created_idx ON feedback (created_at DESC);
CREATE INDEX feedback_report_idx ON feedback (report_id);
CREATE INDEX feedback_tenant_idx ON feedback (tenant_id, created_at DESC);
