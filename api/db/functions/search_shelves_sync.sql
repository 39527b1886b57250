-- First defined in api/db/migrations/0007_search_shelves.sql; this file is its source from now on.
-- The copies of a product's category and sub category ids on its row (`search_category_ids`,
-- `search_sub_category_ids`, migration 0007_search_shelves), kept by statement-level triggers on the link tables (transition tables:
-- one set-based update per write statement). Only products whose list changed are written, in
-- id order so that two writers lock them alike.
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
