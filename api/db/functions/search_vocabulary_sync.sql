-- First defined in api/db/migrations/0007_search_shelves.sql; this file is its source from now on.
-- Keeps `search_vocabulary` (migration 0006_search) current on every write of products, one
-- statement-level trigger per event: counts change by the difference of the old and new rows' words,
-- in word order so that two writers lock vocabulary rows alike, and only for rows whose words or
-- publication changed (a stock update changes neither). A row is paired with its old version by id; an unpaired row counts as changed.
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
          SELECT w, 1 AS d FROM new_rows n, search_vocabulary_words(n.search_doc) w
          WHERE n.publish AND NOT EXISTS (
            SELECT 1 FROM old_rows o WHERE o.id = n.id AND o.publish = n.publish AND o.search_doc = n.search_doc)
          UNION ALL
          SELECT w, -1 AS d FROM old_rows o, search_vocabulary_words(o.search_doc) w
          WHERE o.publish AND NOT EXISTS (
            SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.publish = o.publish AND n.search_doc = o.search_doc)
        ) changes GROUP BY w HAVING sum(d) <> 0 ORDER BY w
        ON CONFLICT (word) DO UPDATE SET products = v.products + excluded.products;
      DELETE FROM search_vocabulary WHERE products <= 0
        AND word IN (SELECT w FROM old_rows o, search_vocabulary_words(o.search_doc) w
                     WHERE NOT EXISTS (
                       SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.publish = o.publish AND n.search_doc = o.search_doc));
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
