-- Chunks that keep their context (docs/adr/075-chunks-keep-their-context.md): each chunk carries
-- the path of headings above it (document title > system > subsection), and the keyword leg
-- indexes that path with the chunk's text. The vector leg embeds the same text (the embed stage
-- writes both). The column is null for chunks written before this migration.
ALTER TABLE chunks ADD COLUMN heading_path text;

DROP INDEX chunks_tsv_idx;
ALTER TABLE chunks DROP COLUMN tsv;
ALTER TABLE chunks
  ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', immutable_unaccent(coalesce(heading_path || E'\n', '') || content))
  ) STORED;
CREATE INDEX chunks_tsv_idx ON chunks USING gin (tsv);

-- A changed heading path re-indexes the row, as a changed text does.
DROP TRIGGER chunks_keyword_index_update ON chunks;
CREATE TRIGGER chunks_keyword_index_update AFTER UPDATE OF content, heading_path, report_id ON chunks
  FOR EACH ROW WHEN (
    OLD.content IS DISTINCT FROM NEW.content
    OR OLD.heading_path IS DISTINCT FROM NEW.heading_path
    OR OLD.report_id IS DISTINCT FROM NEW.report_id
  )
  EXECUTE FUNCTION chunks_keyword_index_update();

-- The keyword statistics follow the rebuilt tsvector (the table rewrite fires no trigger).
TRUNCATE chunk_terms;
DELETE FROM keyword_folders;
INSERT INTO chunk_terms (report_id, term, chunk_id, tf, dl)
SELECT c.report_id, u.lexeme, c.id, coalesce(array_length(u.positions, 1), 1), tsvector_token_count(c.tsv)
  FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) AS u;
INSERT INTO keyword_folders (report_id, docs, total_length)
SELECT report_id, count(*), sum(tsvector_token_count(tsv)) FROM chunks GROUP BY report_id;
