-- First defined in api/db/migrations/0010_dark_stores.sql; this file is its source from now on.
-- A demo store's stock of a product, derived from the catalogue's stock `base` and a hash of the
-- store and the product, so every import gives the same numbers: 12 in 100 products are out of stock
-- in a store, 8 in 100 are low (1-5 units), the rest keep `base`. Each store draws differently, so a
-- product out of stock in one store is in stock in others.
CREATE OR REPLACE FUNCTION demo_store_stock(base integer, store_key text, product_key text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN h % 100 < 12 THEN 0
    WHEN h % 100 < 20 THEN 1 + (h / 100) % 5
    ELSE base
  END
  FROM (SELECT ('x' || substr(md5(store_key || ':' || product_key), 1, 7))::bit(28)::int AS h) AS hashed
$$;
