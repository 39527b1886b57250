-- p_qty more units of a product in the cart p_cart_id, whose row the caller has locked (cart_lock, or
-- `for update`): the one rule of every way a product gets into a cart, the add button
-- (cart_add_one), a guest cart merged at sign-in and "Order again" (api/modules/cart/service.ts
-- `addLinesCapped`); docs/decisions/0047-cart-rule-and-sql-function-files.md.
--
-- The product must exist and be published ('unavailable'), and the line may hold what cart_limit
-- allows; a new line needs room: at most p_max_lines lines ('cart_full', v_limit the number). With
-- p_whole (the add button) nothing is written unless all p_qty fit, and the line's price becomes
-- today's selling price. Without it (merge, reorder) the line becomes the most it may hold, up to
-- what it holds plus p_qty, even when that is less than it holds (the stock fell: as checkout would),
-- and an existing line keeps its price. A new line takes p_unit_price_paise, else today's selling
-- price in paise (numeric(12,2) × 100, exact), and p_created_at, else the moment of its insert, and
-- always after the cart's newest line: lines added together keep the order given even where the clock
-- does not move between two inserts (PGlite's clock ticks in milliseconds). v_reason is 'ok' when all p_qty were added, else why
-- not; v_added the units added, v_quantity the line's quantity after (null: no line), v_line its id.
CREATE OR REPLACE FUNCTION "cart_line_add"(p_cart_id text, p_store_id text, p_product_id text, p_qty integer,
  p_whole boolean, p_new_line_id text, p_unit_price_paise integer, p_created_at timestamptz,
  p_max_qty integer, p_max_lines integer,
  OUT v_reason text, OUT v_limit integer, OUT v_line text, OUT v_quantity integer, OUT v_added integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_publish boolean;
  v_price numeric;
  v_stock integer;
  v_held integer;
  v_line_count integer;
  v_newest timestamptz;
  v_cap integer;
  v_new integer;
BEGIN
  v_added := 0;
  SELECT p."publish", p."selling_price", coalesce(i."stock", 0)::int, l."id", l."quantity",
      (SELECT count(*)::int FROM "cart_lines" c WHERE c."cart_id" = p_cart_id),
      (SELECT max(c."created_at") FROM "cart_lines" c WHERE c."cart_id" = p_cart_id)
    INTO v_publish, v_price, v_stock, v_line, v_quantity, v_line_count, v_newest
    FROM "products" p
    LEFT JOIN "inventory" i ON i."product_id" = p."id" AND i."store_id" = p_store_id
    LEFT JOIN "cart_lines" l ON l."cart_id" = p_cart_id AND l."product_id" = p."id"
    WHERE p."id" = p_product_id;
  IF NOT FOUND OR NOT v_publish THEN
    v_reason := 'unavailable';
    RETURN;
  END IF;
  v_held := coalesce(v_quantity, 0);
  SELECT l.v_reason, l.v_limit, l.v_cap INTO v_reason, v_limit, v_cap FROM "cart_limit"(v_held + p_qty, v_stock, p_max_qty) l;
  IF v_reason = 'out_of_stock' OR (v_reason <> 'ok' AND p_whole) THEN RETURN; END IF;
  v_new := least(v_cap, v_held + p_qty);
  IF v_line IS NULL THEN
    IF v_line_count >= p_max_lines THEN
      v_reason := 'cart_full';
      v_limit := p_max_lines;
      RETURN;
    END IF;
    v_line := p_new_line_id;
    INSERT INTO "cart_lines" ("id", "cart_id", "product_id", "quantity", "unit_price_paise", "created_at")
      VALUES (v_line, p_cart_id, p_product_id, v_new, coalesce(p_unit_price_paise, (v_price * 100)::int),
        coalesce(p_created_at, greatest(clock_timestamp(), v_newest + interval '1 microsecond')));
  ELSIF p_whole THEN
    UPDATE "cart_lines" SET "quantity" = v_new, "unit_price_paise" = (v_price * 100)::int, "updated_at" = now()
      WHERE "id" = v_line;
  ELSIF v_new <> v_held THEN
    UPDATE "cart_lines" SET "quantity" = v_new, "updated_at" = now() WHERE "id" = v_line;
  END IF;
  v_quantity := v_new;
  v_added := greatest(0, v_new - v_held);
END $$;
