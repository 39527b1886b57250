-- Search speed (docs/search.md, "Performance"; docs/decisions/0016-search-ranking-synonyms-spelling.md).
--
-- 1. Each product's categories and sub categories on its own row, sorted: ranking reads them for
--    every match (the shelf a search names, its department), and a search of a common word at
--    100,000 products matches about 3,000 products. Read from the link tables, they cost four index
--    probes per match (the page of "milk", 2,129 matches: 47 ms of database CPU; now 7 ms); read
--    from the row, a few array comparisons. The link tables stay the source of truth: the triggers
--    below copy them in the writing transaction, whatever writes them (the admin's product form,
--    the import, a data fix, direct SQL).
ALTER TABLE "products" ADD COLUMN "search_category_ids" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_sub_category_ids" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
-- The products of the shelves a search names are matches even when their names do not say it
-- (migration 0006_search): found through this index, in the same bitmap scan as the words'.
-- fastupdate off, as products_search_doc_idx (migration 0006_search).
CREATE INDEX IF NOT EXISTS "products_search_sub_category_ids_idx" ON "products" USING gin ("search_sub_category_ids") WITH (fastupdate = off);
--> statement-breakpoint
-- 2. The vocabulary trigger of 0006 counted the words of every updated row, changed or not; it now
--    counts only rows whose words or publication changed (a stock update, or the copies above,
--    change neither). A row is paired with its old version by id; an unpaired row counts as changed.
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
--> statement-breakpoint
-- 3. The copies of (1), kept by statement-level triggers on the link tables (transition tables:
--    one set-based update per write statement). Only products whose list changed are written, in
--    id order so that two writers lock them alike.
CREATE OR REPLACE FUNCTION search_shelves_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  DECLARE
    changed text[];
  BEGIN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT product_id) INTO changed FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT product_id) INTO changed FROM old_rows;
    ELSE
      SELECT array_agg(DISTINCT product_id) INTO changed
        FROM (SELECT product_id FROM new_rows UNION SELECT product_id FROM old_rows) x;
    END IF;
    IF changed IS NULL THEN
      RETURN NULL;
    END IF;
    IF TG_TABLE_NAME = 'product_categories' THEN
      UPDATE products p SET search_category_ids = s.ids
        FROM (SELECT c.id, array(SELECT pc.category_id FROM product_categories pc WHERE pc.product_id = c.id ORDER BY 1) AS ids
              FROM unnest(changed) AS c(id) ORDER BY c.id) s
        WHERE p.id = s.id AND p.search_category_ids IS DISTINCT FROM s.ids;
    ELSE
      UPDATE products p SET search_sub_category_ids = s.ids
        FROM (SELECT c.id, array(SELECT psc.sub_category_id FROM product_sub_categories psc WHERE psc.product_id = c.id ORDER BY 1) AS ids
              FROM unnest(changed) AS c(id) ORDER BY c.id) s
        WHERE p.id = s.id AND p.search_sub_category_ids IS DISTINCT FROM s.ids;
    END IF;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER "product_categories_search_insert" AFTER INSERT ON "product_categories"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_shelves_sync();
--> statement-breakpoint
CREATE TRIGGER "product_categories_search_update" AFTER UPDATE ON "product_categories"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_shelves_sync();
--> statement-breakpoint
CREATE TRIGGER "product_categories_search_delete" AFTER DELETE ON "product_categories"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_shelves_sync();
--> statement-breakpoint
CREATE TRIGGER "product_sub_categories_search_insert" AFTER INSERT ON "product_sub_categories"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_shelves_sync();
--> statement-breakpoint
CREATE TRIGGER "product_sub_categories_search_update" AFTER UPDATE ON "product_sub_categories"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_shelves_sync();
--> statement-breakpoint
CREATE TRIGGER "product_sub_categories_search_delete" AFTER DELETE ON "product_sub_categories"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_shelves_sync();
--> statement-breakpoint
UPDATE products p SET
  search_category_ids = array(SELECT pc.category_id FROM product_categories pc WHERE pc.product_id = p.id ORDER BY 1),
  search_sub_category_ids = array(SELECT psc.sub_category_id FROM product_sub_categories psc WHERE psc.product_id = p.id ORDER BY 1);
