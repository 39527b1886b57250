-- First defined in api/db/migrations/0006_search.sql; this file is its source from now on.
-- The words of one product that the vocabulary counts: letters somewhere, two characters or more.
CREATE OR REPLACE FUNCTION search_vocabulary_words(doc tsvector) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT w FROM unnest(tsvector_to_array(doc)) AS w WHERE length(w) >= 2 AND w ~ '[[:alpha:]]' $$;
