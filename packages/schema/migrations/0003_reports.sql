-- Reports (folders), their attachments, and everything parsed out of them.
-- Every row below carries tenant_id and report_id, so a folder is one query by report_id.

CREATE TABLE reports (
  id                     uuid PRIMARY KEY,
  tenant_id              uuid NOT NULL REFERENCES tenants (id),
  created_by             uuid,
  report_version         smallint NOT NULL DEFAULT 2 CHECK (report_version IN (1, 2)),
  filename               text NOT NULL,
  title                  text,
  content_type           text NOT NULL,
  document_kind          text NOT NULL,
  size_bytes             bigint NOT NULL CHECK (size_bytes >= 0),
  sha256                 text NOT NULL,
  object_key             text NOT NULL,
  generation             integer NOT NULL DEFAULT 1,
  -- Status projection (rebuilt from the REPORTS stream by replay).
  status                 text NOT NULL DEFAULT 'uploaded',
  ingestion_started_at   timestamptz,
  ingestion_finished_at  timestamptz,
  ingestion_error        text,
  ingestion_cost_cents   bigint NOT NULL DEFAULT 0,
  stage_costs            jsonb NOT NULL DEFAULT '{}',
  projection_seq         bigint NOT NULL DEFAULT 0,
  -- Parse output.
  parsed_markdown        text,
  clean_text             text,
  parsed_metadata        jsonb NOT NULL DEFAULT '{}',
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reports_tenant_created_idx ON reports (tenant_id, created_at DESC);

CREATE TABLE attachments (
  id                     uuid PRIMARY KEY,
  tenant_id              uuid NOT NULL REFERENCES tenants (id),
  report_id              uuid NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  source                 text NOT NULL CHECK (source IN ('partner', 'user_upload')),
  partner_id             text,
  attachment_type        text,
  note                   text,
  filename               text NOT NULL,
  content_type           text NOT NULL,
  document_kind          text NOT NULL,
  size_bytes             bigint NOT NULL CHECK (size_bytes >= 0),
  sha256                 text NOT NULL,
  object_key             text NOT NULL,
  generation             integer NOT NULL DEFAULT 1,
  status                 text NOT NULL DEFAULT 'uploaded',
  ingestion_started_at   timestamptz,
  ingestion_finished_at  timestamptz,
  ingestion_error        text,
  ingestion_cost_cents   bigint NOT NULL DEFAULT 0,
  stage_costs            jsonb NOT NULL DEFAULT '{}',
  projection_seq         bigint NOT NULL DEFAULT 0,
  parsed_metadata        jsonb NOT NULL DEFAULT '{}',
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX attachments_report_idx ON attachments (report_id);
CREATE UNIQUE INDEX attachments_partner_idem_idx ON attachments (report_id, partner_id)
  WHERE source = 'partner' AND partner_id IS NOT NULL;

-- target_id is the report id for the main file, the attachment id otherwise.
CREATE TABLE sections (
  id             uuid PRIMARY KEY,
  tenant_id      uuid NOT NULL,
  report_id      uuid NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  attachment_id  uuid REFERENCES attachments (id) ON DELETE CASCADE,
  target_id      uuid NOT NULL,
  section_name   text NOT NULL,
  section_slug   text NOT NULL,
  level          smallint NOT NULL,
  order_in_doc   integer NOT NULL,
  page_start     integer,
  page_end       integer,
  markdown       text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (target_id, order_in_doc)
);
CREATE INDEX sections_report_idx ON sections (report_id, order_in_doc);

CREATE TABLE figures (
  id                        uuid PRIMARY KEY,
  tenant_id                 uuid NOT NULL,
  report_id                 uuid NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  attachment_id             uuid REFERENCES attachments (id) ON DELETE CASCADE,
  target_id                 uuid NOT NULL,
  section_id                uuid REFERENCES sections (id) ON DELETE SET NULL,
  section_name              text,
  page_number               integer,
  order_in_doc              integer NOT NULL,
  object_key                text NOT NULL,
  thumbnail_key             text,
  mime_type                 text,
  width                     integer,
  height                    integer,
  ocr_text                  text,
  annotation_source         text NOT NULL DEFAULT 'pending',
  annotation_quality_score  real,
  annotation_json           jsonb,
  created_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX figures_report_idx ON figures (report_id, order_in_doc);
CREATE INDEX figures_target_idx ON figures (target_id);

CREATE TABLE report_tables (
  id             uuid PRIMARY KEY,
  tenant_id      uuid NOT NULL,
  report_id      uuid NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  attachment_id  uuid REFERENCES attachments (id) ON DELETE CASCADE,
  target_id      uuid NOT NULL,
  section_id     uuid REFERENCES sections (id) ON DELETE SET NULL,
  page_number    integer,
  order_in_doc   integer NOT NULL,
  markdown       text NOT NULL,
  cells          jsonb NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_tables_report_idx ON report_tables (report_id, order_in_doc);
CREATE INDEX report_tables_target_idx ON report_tables (target_id);

CREATE TABLE chunks (
  id                   uuid PRIMARY KEY,
  tenant_id            uuid NOT NULL,
  report_id            uuid NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  attachment_id        uuid REFERENCES attachments (id) ON DELETE CASCADE,
  target_id            uuid NOT NULL,
  section_id           uuid REFERENCES sections (id) ON DELETE CASCADE,
  figure_id            uuid REFERENCES figures (id) ON DELETE CASCADE,
  table_id             uuid REFERENCES report_tables (id) ON DELETE CASCADE,
  content_type         text NOT NULL DEFAULT 'text',
  source_type          text NOT NULL DEFAULT 'main',
  section_name         text,
  section_slug         text,
  attachment_filename  text,
  source_label         text,
  content              text NOT NULL,
  content_tokens       integer NOT NULL,
  order_in_doc         integer NOT NULL,
  -- Null embedding: the chunk is found by the keyword leg only.
  embedding            vector(1536),
  embedding_type       text NOT NULL DEFAULT 'text',
  embedding_model      text,
  -- Keyword leg: unaccented, unstemmed ('simple' configuration).
  tsv                  tsvector GENERATED ALWAYS AS (to_tsvector('simple', immutable_unaccent(content))) STORED,
  created_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (target_id, order_in_doc)
);
CREATE INDEX chunks_report_idx ON chunks (report_id, order_in_doc);
CREATE INDEX chunks_tsv_idx ON chunks USING gin (tsv);

-- One row per stage attempt: durations, outcomes and provider cost. No foreign key
-- to reports, so cost history outlives a deleted report.
CREATE TABLE stage_runs (
  id            uuid PRIMARY KEY,
  tenant_id     uuid NOT NULL,
  report_id     uuid NOT NULL,
  target_kind   text NOT NULL CHECK (target_kind IN ('report', 'attachment')),
  target_id     uuid NOT NULL,
  stage         text NOT NULL,
  generation    integer NOT NULL,
  attempt       integer NOT NULL,
  outcome       text NOT NULL CHECK (outcome IN ('done', 'skipped', 'retry', 'failed')),
  error         text,
  started_at    timestamptz NOT NULL,
  finished_at   timestamptz NOT NULL,
  duration_ms   integer NOT NULL,
  provider      text,
  model         text,
  cost_cents    bigint NOT NULL DEFAULT 0,
  units         jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX stage_runs_target_idx ON stage_runs (target_id, stage);
CREATE INDEX stage_runs_tenant_time_idx ON stage_runs (tenant_id, started_at DESC);
