-- Legacy (v1) reports and the claim flow that imports them.
--
-- legacy_reports holds the v1 system's reports as they were: keyed by their owner's
-- email, with the clean text v1 extracted (no file, no parsed sections). Operators
-- load it from the v1 export; nothing in the service writes it.
CREATE TABLE legacy_reports (
  id            uuid PRIMARY KEY,
  owner_email   text NOT NULL CHECK (owner_email = lower(owner_email)),
  title         text,
  filename      text,
  clean_text    text NOT NULL,
  -- Anything else the v1 record carried, kept for the imported report's metadata.
  metadata      jsonb NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  loaded_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX legacy_reports_owner_idx ON legacy_reports (owner_email, created_at);

-- One row per pre-authorised email: `ready` until its owner claims, then `claimed`.
-- A reversed claim goes back to `ready` and counts the reversal.
CREATE TABLE legacy_claims (
  email             text PRIMARY KEY CHECK (email = lower(email)),
  status            text NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'claimed')),
  preauthorized_at  timestamptz NOT NULL DEFAULT now(),
  claimed_at        timestamptz,
  claimed_by        uuid,
  tenant_id         uuid,
  reversals         integer NOT NULL DEFAULT 0,
  last_reversed_at  timestamptz,
  CHECK ((status = 'claimed') = (claimed_at IS NOT NULL))
);

-- Which current report a claimed v1 report became. Deleting the report (by its owner
-- or by a reversed claim) removes the link; the v1 row stays.
CREATE TABLE legacy_claimed_reports (
  legacy_report_id  uuid PRIMARY KEY REFERENCES legacy_reports (id) ON DELETE CASCADE,
  report_id         uuid NOT NULL UNIQUE REFERENCES reports (id) ON DELETE CASCADE,
  email             text NOT NULL REFERENCES legacy_claims (email) ON DELETE CASCADE,
  tenant_id         uuid NOT NULL,
  claimed_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX legacy_claimed_reports_email_idx ON legacy_claimed_reports (email);
