-- Sets the bits of the products `product_ids` in `store` from their stock there, as this
-- transaction sees it (no inventory row: out of stock): what a bulk stock write of a few hundred
-- products (one slice of a catalogue import, which writes with the inventory_stock_bit triggers
-- switched off) needs instead of refresh_store_stock_bits, which rebuilds the store's whole string
-- from every product it stocks (about 60 ms per call on the embedded database for 18,000 products).
-- One read of the store's row, locked, and one write of it, however many products are named.
CREATE OR REPLACE FUNCTION set_store_stock_bits(store text, product_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  top integer;
  bits bit varying;
  r record;
BEGIN
  SELECT max(p.stock_seq) INTO top FROM products p WHERE p.id = ANY (product_ids);
  IF top IS NULL THEN RETURN; END IF;
  INSERT INTO store_stock_bits (store_id) VALUES (store) ON CONFLICT (store_id) DO NOTHING;
  SELECT b.in_stock INTO bits FROM store_stock_bits b WHERE b.store_id = store FOR UPDATE;
  IF length(bits) <= top THEN
    bits := bits || repeat('0', top + 1 - length(bits))::bit varying;
  END IF;
  FOR r IN
    SELECT p.stock_seq AS seq, coalesce(i.stock > 0, false) AS want
    FROM products p LEFT JOIN inventory i ON i.product_id = p.id AND i.store_id = store
    WHERE p.id = ANY (product_ids)
  LOOP
    bits := set_bit(bits, r.seq, CASE WHEN r.want THEN 1 ELSE 0 END);
  END LOOP;
  UPDATE store_stock_bits SET in_stock = bits WHERE store_id = store;
END
$$;
