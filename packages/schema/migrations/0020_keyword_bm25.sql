-- Keyword leg: real BM25 over a report folder, in SQL (docs/adr/021-keyword-bm25-in-postgres.md).
-- ts_rank is not BM25 (no IDF, no length normalisation that saturates), so the statistics BM25
-- needs are kept beside the chunks, by triggers, in the same transaction as every chunk write:
--   chunk_terms      one posting per (folder, lexeme, chunk): term frequency and chunk length
--   keyword_folders  per folder: number of chunks and their total length (for avgdl)
-- Lexemes come from the chunk's own tsvector (`simple` configuration over unaccented text:
-- lowercased, unstemmed), so the keyword leg tokenises exactly like chunks.tsv.

-- Number of tokens in a tsvector (its document length for BM25). Lexemes without positions
-- (a stripped tsvector) count once.
CREATE FUNCTION tsvector_token_count(v tsvector)
  RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN (SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)::integer FROM unnest(v) AS u);

-- "C" collation: byte order, so `term >= 'roo' AND term < 'roo' || chr(1114111)` is a btree
-- range scan of every lexeme that starts with 'roo' (prefix matching).
CREATE TABLE chunk_terms (
  report_id  uuid NOT NULL,
  term       text COLLATE "C" NOT NULL,
  chunk_id   uuid NOT NULL,
  tf         integer NOT NULL,
  dl         integer NOT NULL,
  PRIMARY KEY (report_id, term, chunk_id)
) WITH (fillfactor = 90);
-- No foreign keys: a check per posting would double the cost of writing chunks. Deleting a
-- chunk (directly or by cascade from its report, attachment or section) removes its postings
-- through the trigger below.

CREATE TABLE keyword_folders (
  report_id     uuid PRIMARY KEY,
  docs          bigint NOT NULL,
  total_length  bigint NOT NULL
);

CREATE FUNCTION chunks_keyword_index_insert() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_terms (report_id, term, chunk_id, tf, dl)
  SELECT n.report_id, u.lexeme, n.id, coalesce(array_length(u.positions, 1), 1), tsvector_token_count(n.tsv)
    FROM new_chunks n CROSS JOIN LATERAL unnest(n.tsv) AS u;
  INSERT INTO keyword_folders AS f (report_id, docs, total_length)
  SELECT report_id, count(*), sum(tsvector_token_count(tsv)) FROM new_chunks GROUP BY report_id
  ON CONFLICT (report_id) DO UPDATE
    SET docs = f.docs + EXCLUDED.docs, total_length = f.total_length + EXCLUDED.total_length;
  RETURN NULL;
END
$$;

CREATE FUNCTION chunks_keyword_index_delete() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chunk_terms t
   USING old_chunks o CROSS JOIN LATERAL unnest(o.tsv) AS u
   WHERE t.report_id = o.report_id AND t.term = u.lexeme AND t.chunk_id = o.id;
  UPDATE keyword_folders f
     SET docs = f.docs - o.docs, total_length = f.total_length - o.total_length
    FROM (SELECT report_id, count(*) AS docs, sum(tsvector_token_count(tsv)) AS total_length
            FROM old_chunks GROUP BY report_id) o
   WHERE f.report_id = o.report_id;
  DELETE FROM keyword_folders f
   WHERE f.docs <= 0 AND f.report_id IN (SELECT report_id FROM old_chunks);
  RETURN NULL;
END
$$;

-- Chunks are written by delete + insert; an update of the text (rare) re-indexes that row.
CREATE FUNCTION chunks_keyword_index_update() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chunk_terms t
   USING unnest(OLD.tsv) AS u
   WHERE t.report_id = OLD.report_id AND t.term = u.lexeme AND t.chunk_id = OLD.id;
  UPDATE keyword_folders SET docs = docs - 1, total_length = total_length - tsvector_token_count(OLD.tsv)
   WHERE report_id = OLD.report_id;
  INSERT INTO chunk_terms (report_id, term, chunk_id, tf, dl)
  SELECT NEW.report_id, u.lexeme, NEW.id, coalesce(array_length(u.positions, 1), 1), tsvector_token_count(NEW.tsv)
    FROM unnest(NEW.tsv) AS u;
  INSERT INTO keyword_folders AS f (report_id, docs, total_length)
  VALUES (NEW.report_id, 1, tsvector_token_count(NEW.tsv))
  ON CONFLICT (report_id) DO UPDATE
    SET docs = f.docs + 1, total_length = f.total_length + EXCLUDED.total_length;
  RETURN NULL;
END
$$;

CREATE TRIGGER chunks_keyword_index_insert AFTER INSERT ON chunks
  REFERENCING NEW TABLE AS new_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_index_insert();
CREATE TRIGGER chunks_keyword_index_delete AFTER DELETE ON chunks
  REFERENCING OLD TABLE AS old_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_index_delete();
CREATE TRIGGER chunks_keyword_index_update AFTER UPDATE OF content, report_id ON chunks
  FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.report_id IS DISTINCT FROM NEW.report_id)
  EXECUTE FUNCTION chunks_keyword_index_update();

-- Chunks written before this migration.
INSERT INTO chunk_terms (report_id, term, chunk_id, tf, dl)
SELECT c.report_id, u.lexeme, c.id, coalesce(array_length(u.positions, 1), 1), tsvector_token_count(c.tsv)
  FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) AS u;
INSERT INTO keyword_folders (report_id, docs, total_length)
SELECT report_id, count(*), sum(tsvector_token_count(tsv)) FROM chunks GROUP BY report_id;
