-- Search (docs/search.md; docs/decisions/0016-search-ranking-synonyms-spelling.md).
--
-- 1. Per product, what ranking reads without recomputing it per row: `search_doc`, the words of the
--    name (weight A) and of the brand (weight B) for full-text matching, and `search_head`, the
--    name's head noun(s): the last word before the first " - ", "(" or ",", split on "/" ("Toned
--    Milk" -> {milk}; "Farm Fresh Curd/Dahi - Premium" -> {curd, dahi}). "/" and "." are read as
--    spaces: the text-search parser would take "Curd/Dahi" for a file path and "Co.Ka" for a host
--    name, one token each, and neither word would be found.
CREATE OR REPLACE FUNCTION search_head(name text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(w), '{}'::text[])
    FROM (
      SELECT lower(regexp_replace(part, '[^[:alnum:]]+', '', 'g')) AS w
      FROM regexp_split_to_table(
        (regexp_match(split_part(split_part(split_part(coalesce(name, ''), ' - ', 1), '(', 1), ',', 1), '([^[:space:]]+)[[:space:]]*$'))[1],
        '/'
      ) AS part
    ) words
    WHERE w <> ''
  $$;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_doc" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple'::regconfig, translate(coalesce("name", ''), '/.', '  ')), 'A')
  || setweight(to_tsvector('simple'::regconfig, translate(coalesce("more_details"->>'brand', ''), '/.', '  ')), 'B')
) STORED;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_head" text[] GENERATED ALWAYS AS (search_head("name")) STORED;
--> statement-breakpoint
-- fastupdate off (PostgreSQL docs, "GIN Fast Update Technique"): with it, rows written since the
-- last vacuum wait in a pending list that every search reads in full, so right after the catalogue
-- import each search scanned thousands of entries (several times slower, measured). Catalogue
-- writes are rare; searches are not.
CREATE INDEX IF NOT EXISTS "products_search_doc_idx" ON "products" USING gin ("search_doc") WITH (fastupdate = off);
--> statement-breakpoint
-- Replaced by search_doc (full-text) and the vocabulary (spelling): no query reads them any more.
DROP INDEX IF EXISTS "products_search_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "products_name_trgm_idx";
--> statement-breakpoint
-- 2. The vocabulary: every distinct word of the published products' names and brands with the
--    number of products that have it, for spelling correction (pg_trgm docs, F.35.5: "a table of
--    all the words in the documents ... to suggest spellings"). Kept current by the triggers below
--    on every write of products, in the writing transaction.
CREATE TABLE IF NOT EXISTS "search_vocabulary" (
	"word" text PRIMARY KEY NOT NULL,
	"products" integer NOT NULL
);
--> statement-breakpoint
-- On lower(word) (the words are lower case already), not on word: pg_trgm's GIN operator class also
-- answers "=", and the planner would then take it over the primary key for exact look-ups, at
-- tens of milliseconds each instead of microseconds. Spelling queries say lower(word) % term.
-- fastupdate off, as for products_search_doc_idx above.
CREATE INDEX IF NOT EXISTS "search_vocabulary_trgm_idx" ON "search_vocabulary" USING gin (lower("word") gin_trgm_ops) WITH (fastupdate = off);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_vocabulary_prefix_idx" ON "search_vocabulary" ("word" text_pattern_ops);
--> statement-breakpoint
-- The words of one product that the vocabulary counts: letters somewhere, two characters or more.
CREATE OR REPLACE FUNCTION search_vocabulary_words(doc tsvector) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT w FROM unnest(tsvector_to_array(doc)) AS w WHERE length(w) >= 2 AND w ~ '[[:alpha:]]' $$;
--> statement-breakpoint
-- One statement-level trigger per event (transition tables allow one event each). Counts change by
-- the difference of the old and new rows' words, applied in word order so that two writers lock
-- vocabulary rows in the same order; a word no published product has any more is removed.
CREATE OR REPLACE FUNCTION search_vocabulary_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO search_vocabulary AS v (word, products)
        SELECT w, count(*)::int FROM new_rows n, search_vocabulary_words(n.search_doc) w WHERE n.publish GROUP BY w ORDER BY w
        ON CONFLICT (word) DO UPDATE SET products = v.products + excluded.products;
    ELSIF TG_OP = 'UPDATE' THEN
      INSERT INTO search_vocabulary AS v (word, products)
        SELECT w, sum(d)::int FROM (
          SELECT w, 1 AS d FROM new_rows n, search_vocabulary_words(n.search_doc) w WHERE n.publish
          UNION ALL
          SELECT w, -1 AS d FROM old_rows o, search_vocabulary_words(o.search_doc) w WHERE o.publish
        ) changes GROUP BY w HAVING sum(d) <> 0 ORDER BY w
        ON CONFLICT (word) DO UPDATE SET products = v.products + excluded.products;
      DELETE FROM search_vocabulary WHERE products <= 0
        AND word IN (SELECT w FROM old_rows o, search_vocabulary_words(o.search_doc) w);
    ELSE
      INSERT INTO search_vocabulary AS v (word, products)
        SELECT w, -count(*)::int FROM old_rows o, search_vocabulary_words(o.search_doc) w WHERE o.publish GROUP BY w ORDER BY w
        ON CONFLICT (word) DO UPDATE SET products = v.products + excluded.products;
      DELETE FROM search_vocabulary WHERE products <= 0
        AND word IN (SELECT w FROM old_rows o, search_vocabulary_words(o.search_doc) w);
    END IF;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER "products_vocabulary_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_sync();
--> statement-breakpoint
CREATE TRIGGER "products_vocabulary_update" AFTER UPDATE ON "products"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_sync();
--> statement-breakpoint
CREATE TRIGGER "products_vocabulary_delete" AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_sync();
--> statement-breakpoint
INSERT INTO search_vocabulary (word, products)
  SELECT w, count(*)::int FROM products p, search_vocabulary_words(p.search_doc) w WHERE p.publish GROUP BY w
  ON CONFLICT (word) DO NOTHING;
--> statement-breakpoint
-- 3. Synonyms: words shoppers type (often Hindi-English: doodh, dahi, chawal) and the catalogue's
--    words they stand for. Seeded once from api/db/seed/data/synonyms.csv (api/db/seed/synonyms.ts);
--    afterwards the table is the store's to edit. `both_ways`: the catalogue word finds the
--    shopper's word too (curd finds "Dahi").
CREATE TABLE IF NOT EXISTS "search_synonyms" (
	"word" text NOT NULL,
	"means" text NOT NULL,
	"both_ways" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_synonyms_word_means_pk" PRIMARY KEY("word","means")
);
