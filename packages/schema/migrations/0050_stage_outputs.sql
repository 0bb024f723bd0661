-- The committed output of each pipeline stage, one row per target, stage and generation,
-- written in the same transaction as the stage's rows (sections, figures, chunks...). The
-- first attempt to commit wins: a later attempt of the same stage and generation finds the
-- row, writes nothing and announces the recorded output again; an attempt of an older
-- generation finds a newer row and writes nothing. `data` is the event the stage emitted.
CREATE TABLE stage_outputs (
  target_id     uuid NOT NULL,
  stage         text NOT NULL CHECK (stage IN ('scan', 'parse', 'annotate', 'embed', 'finalize')),
  generation    integer NOT NULL,
  tenant_id     uuid NOT NULL,
  report_id     uuid NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  attempt       integer NOT NULL,
  data          jsonb NOT NULL,
  committed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (target_id, stage, generation)
);
CREATE INDEX stage_outputs_report_idx ON stage_outputs (report_id);
