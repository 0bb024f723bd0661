-- The pages a chunk's text comes from (issue 11: citations name the page). A chunk belongs to
-- one section, but a short section's text joins its parent's chunk (ADR 075), and a child on
-- page 2 under a parent on page 1 was cited as page 1. The embed stage writes the span of the
-- pieces each chunk holds; retrieval prefers it to the section's pages. Chunks written before
-- keep null here and their section's pages, as before, until the target is embedded again.
ALTER TABLE chunks
  ADD COLUMN page_start integer,
  ADD COLUMN page_end   integer;
