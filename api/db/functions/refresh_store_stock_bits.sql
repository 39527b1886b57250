-- First defined in api/db/migrations/0020_store_stock_bits.sql; this file is its source from now on.
-- Rebuilds one store's bits from its inventory: after a bulk stock write (the catalogue import,
-- which writes with the triggers below switched off) and for the stores of an upgraded database.
CREATE OR REPLACE FUNCTION refresh_store_stock_bits(store text) RETURNS void
LANGUAGE sql AS $$
  -- Materialized: the in-stock numbers are hashed once, not probed per number of the series.
  WITH on_hand AS MATERIALIZED (
    SELECT p.stock_seq AS seq FROM inventory i JOIN products p ON p.id = i.product_id
    WHERE i.store_id = store AND i.stock > 0
  )
  INSERT INTO store_stock_bits (store_id, in_stock)
  SELECT store, coalesce((
    SELECT string_agg(CASE WHEN o.seq IS NULL THEN '0' ELSE '1' END, '' ORDER BY g.n)
    FROM generate_series(0, (SELECT coalesce(max(stock_seq), -1) FROM products)) AS g(n)
    LEFT JOIN on_hand o ON o.seq = g.n
  ), '')::bit varying
  ON CONFLICT (store_id) DO UPDATE SET in_stock = excluded.in_stock
$$;
