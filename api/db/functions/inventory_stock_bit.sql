-- First defined in api/db/migrations/0020_store_stock_bits.sql; this file is its source from now on.
-- Keeps one product's bit in its store equal to its stock at commit. A deferred constraint trigger
-- (PostgreSQL docs, "CREATE TRIGGER": constraint triggers), so the store's row is locked only at
-- commit, after every inventory row the transaction locks: two orders of one store wait for each
-- other's commit there, never in a cycle. It reads the stock as committed, so several changes of one
-- row in a transaction give the same answer, and it writes only when the bit differs.
CREATE OR REPLACE FUNCTION inventory_stock_bit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  sid text;
  pid text;
  seq integer;
  want boolean;
  bits bit varying;
BEGIN
  IF TG_OP = 'DELETE' THEN sid := OLD.store_id; pid := OLD.product_id;
  ELSE sid := NEW.store_id; pid := NEW.product_id;
  END IF;
  SELECT p.stock_seq INTO seq FROM products p WHERE p.id = pid;
  -- A product deleted with its stock: no statement can rank it any more.
  IF seq IS NULL THEN RETURN NULL; END IF;
  want := coalesce((SELECT i.stock > 0 FROM inventory i WHERE i.store_id = sid AND i.product_id = pid), false);
  SELECT b.in_stock INTO bits FROM store_stock_bits b WHERE b.store_id = sid;
  IF stock_bit(bits, seq) = want THEN RETURN NULL; END IF;
  INSERT INTO store_stock_bits (store_id) VALUES (sid) ON CONFLICT (store_id) DO NOTHING;
  SELECT b.in_stock INTO bits FROM store_stock_bits b WHERE b.store_id = sid FOR UPDATE;
  IF stock_bit(bits, seq) = want THEN RETURN NULL; END IF;
  IF length(bits) <= seq THEN
    bits := bits || repeat('0', seq + 1 - length(bits))::bit varying;
  END IF;
  UPDATE store_stock_bits SET in_stock = set_bit(bits, seq, CASE WHEN want THEN 1 ELSE 0 END) WHERE store_id = sid;
  RETURN NULL;
END
$$;
