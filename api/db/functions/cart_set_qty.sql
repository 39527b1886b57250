-- First defined in api/db/migrations/0023_cart_writes_in_one_call.sql; this file is its source from now on.
-- A line's quantity set to p_qty in the owner's cart (the owner as for cart_lock; never made here),
-- at today's selling price in paise: 0 removes the line; another quantity is written only when
-- cart_limit allows it for the stock in p_store_id and p_max_qty. v_reason: 'ok' (written),
-- 'no_cart', 'no_line' (the cart has no such line), or cart_limit's refusal with its v_limit.
CREATE OR REPLACE FUNCTION "cart_set_qty"(p_user_id text, p_guest_hash text, p_cart_id text,
  p_guest_cutoff timestamptz, p_now timestamptz, p_store_id text, p_line_id text, p_qty integer, p_max_qty integer,
  OUT v_cart text, OUT v_reason text, OUT v_limit integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_price numeric;
  v_stock integer;
BEGIN
  v_cart := "cart_lock"(p_user_id, p_guest_hash, p_cart_id, p_guest_cutoff, p_now, NULL);
  IF v_cart IS NULL THEN
    v_reason := 'no_cart';
    RETURN;
  END IF;
  SELECT p."selling_price", coalesce(i."stock", 0)::int INTO v_price, v_stock
    FROM "cart_lines" l
    JOIN "products" p ON p."id" = l."product_id"
    LEFT JOIN "inventory" i ON i."product_id" = p."id" AND i."store_id" = p_store_id
    WHERE l."id" = p_line_id AND l."cart_id" = v_cart;
  IF NOT FOUND THEN
    v_reason := 'no_line';
    RETURN;
  END IF;
  IF p_qty = 0 THEN
    DELETE FROM "cart_lines" WHERE "id" = p_line_id;
    v_reason := 'ok';
    RETURN;
  END IF;
  SELECT c.v_reason, c.v_limit INTO v_reason, v_limit FROM "cart_limit"(p_qty, v_stock, p_max_qty) c;
  IF v_reason = 'ok' THEN
    UPDATE "cart_lines" SET "quantity" = p_qty, "unit_price_paise" = (v_price * 100)::int, "updated_at" = now()
      WHERE "id" = p_line_id;
  END IF;
END $$;
