-- A version stamp per report folder, changed in the transaction of every write to its chunks
-- (docs/adr/135-folder-index-in-memory.md). The retrieval service keeps each queried folder's
-- vectors and postings in memory and compares the stamp it loaded with this one at every query:
-- a folder whose chunks changed is loaded again, whoever changed them and whatever event was
-- missed. Values come from one sequence, so a folder deleted and written again never gets back
-- a stamp it had before.
CREATE SEQUENCE chunk_folder_version_seq;

CREATE TABLE chunk_folder_versions (
  report_id  uuid PRIMARY KEY,
  version    bigint NOT NULL
);

-- One row per folder a statement touched, in report order (two statements touching the same
-- folders lock their rows in the same order: no deadlock between them).
CREATE FUNCTION chunks_folder_version_bump() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_folder_versions AS v (report_id, version)
  SELECT d.report_id, nextval('chunk_folder_version_seq')
    FROM (SELECT DISTINCT report_id FROM changed_chunks ORDER BY report_id) d
  ON CONFLICT (report_id) DO UPDATE SET version = EXCLUDED.version;
  RETURN NULL;
END
$$;

CREATE TRIGGER chunks_folder_version_insert AFTER INSERT ON chunks
  REFERENCING NEW TABLE AS changed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_folder_version_bump();
CREATE TRIGGER chunks_folder_version_update AFTER UPDATE ON chunks
  REFERENCING NEW TABLE AS changed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_folder_version_bump();
CREATE TRIGGER chunks_folder_version_delete AFTER DELETE ON chunks
  REFERENCING OLD TABLE AS changed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_folder_version_bump();

-- An update that moves a chunk to another folder changes the old folder too.
CREATE TRIGGER chunks_folder_version_update_old AFTER UPDATE ON chunks
  REFERENCING OLD TABLE AS changed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_folder_version_bump();

INSERT INTO chunk_folder_versions (report_id, version)
SELECT report_id, nextval('chunk_folder_version_seq')
  FROM (SELECT DISTINCT report_id FROM chunks ORDER BY report_id) d;
