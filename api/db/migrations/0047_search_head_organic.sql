-- A product named "Organic - Sugar/Sakkare" has the head noun {sugar, sakkare}, not {organic}
-- (api/db/functions/search_head.sql; docs/search.md, "Ranking"): the function is redefined here,
-- as its file defines it, so that the stored generated column can be recomputed from it (PostgreSQL
-- recomputes a generated column only when the row is written: dropping and adding it back recomputes
-- every row). The file is applied again after the migrations, with the same text.
CREATE OR REPLACE FUNCTION search_head(name text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(w), '{}'::text[])
    FROM (
      SELECT lower(regexp_replace(part, '[^[:alnum:]]+', '', 'g')) AS w
      FROM regexp_split_to_table(
        (regexp_match(split_part(split_part(split_part(regexp_replace(coalesce(name, ''), '^[[:space:]]*organic[[:space:]]+-[[:space:]]+', '', 'i'), ' - ', 1), '(', 1), ',', 1), '([^[:space:]]+)[[:space:]]*$'))[1],
        '/'
      ) AS part
    ) words
    WHERE w <> ''
  $$;
--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "search_head";
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_head" text[] GENERATED ALWAYS AS (search_head("name")) STORED;
