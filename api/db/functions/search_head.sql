-- First defined in api/db/migrations/0006_search.sql; this file is its source from now on.
-- Search (docs/search.md; docs/decisions/0016-search-ranking-synonyms-spelling.md): a product's
-- `search_head` column (generated from this function): the name's head noun(s), the last word
-- before the first " - ", "(" or ",", split on "/" ("Toned Milk" -> {milk}; "Farm Fresh Curd/Dahi -
-- Premium" -> {curd, dahi}). A name that opens with "Organic - " (the catalogue's way of marking an
-- organic product: "Organic - Sugar/Sakkare") is read from after it, so its head is the thing
-- itself ({sugar, sakkare}), not the attribute. IMMUTABLE and used by a stored generated column: a change to what it
-- answers needs the column recomputed too (a migration).
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
