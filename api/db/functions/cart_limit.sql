-- The cart's limits, decided here and nowhere else (docs/decisions/0047-cart-rule-and-sql-function-files.md):
-- may a line hold p_wanted units of a product with p_stock units in the store, at most p_max_qty a
-- line? v_reason is 'ok', or 'out_of_stock' (none in stock), or the cap that bites: 'stock' when the
-- stock is below the per-line maximum, else 'max_per_line'; v_limit is that cap's number (the stock
-- or the maximum), v_cap the most the line may hold (0 when out of stock). The API turns the reason
-- into the shopper's message (api/modules/cart/limits.ts). Callers: cart_line_add, cart_set_qty.
CREATE OR REPLACE FUNCTION "cart_limit"(p_wanted integer, p_stock integer, p_max_qty integer,
  OUT v_reason text, OUT v_limit integer, OUT v_cap integer)
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  v_cap := greatest(0, least(p_max_qty, p_stock));
  IF p_stock <= 0 THEN
    v_reason := 'out_of_stock';
    v_limit := 0;
  ELSIF p_wanted <= v_cap THEN
    v_reason := 'ok';
  ELSIF p_stock < p_max_qty THEN
    v_reason := 'stock';
    v_limit := p_stock;
  ELSE
    v_reason := 'max_per_line';
    v_limit := p_max_qty;
  END IF;
END $$;
