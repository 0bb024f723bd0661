-- Extensions every later migration relies on.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE (its dictionary could change), so it cannot feed a
-- generated column or an index. Pinning the dictionary makes this wrapper safe to
-- declare IMMUTABLE, which is the documented way to index unaccented text.
CREATE OR REPLACE FUNCTION immutable_unaccent(input text)
  RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN public.unaccent('public.unaccent'::regdictionary, input);
