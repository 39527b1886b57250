-- First defined in api/db/migrations/0023_cart_writes_in_one_call.sql; this file is its source from now on.
-- The add button: one more unit of a product in the owner's cart (the owner as for cart_lock), all
-- or nothing, by the cart's one rule (cart_line_add with p_whole): one call, one round trip
-- (docs/decisions/0039-cart-writes-in-one-call.md). v_cart is null and v_reason 'no_cart' when the
-- owner has no cart (a guest before the first line: the API makes the row and calls again);
-- otherwise v_reason, v_limit, v_line and v_quantity are cart_line_add's.
CREATE OR REPLACE FUNCTION "cart_add_one"(p_user_id text, p_guest_hash text, p_cart_id text,
  p_guest_cutoff timestamptz, p_now timestamptz, p_new_cart_id text, p_store_id text, p_product_id text,
  p_new_line_id text, p_max_qty integer, p_max_lines integer,
  OUT v_cart text, OUT v_reason text, OUT v_limit integer, OUT v_line text, OUT v_quantity integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  v_cart := "cart_lock"(p_user_id, p_guest_hash, p_cart_id, p_guest_cutoff, p_now, p_new_cart_id);
  IF v_cart IS NULL THEN
    v_reason := 'no_cart';
    RETURN;
  END IF;
  SELECT a.v_reason, a.v_limit, a.v_line, a.v_quantity INTO v_reason, v_limit, v_line, v_quantity
    FROM "cart_line_add"(v_cart, p_store_id, p_product_id, 1, true, p_new_line_id, NULL, NULL, p_max_qty, p_max_lines) a;
END $$;
