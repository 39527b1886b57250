-- Cart writes in one call (docs/decisions/0039-cart-writes-in-one-call.md). The add-to-cart and
-- set-quantity endpoints each made five round trips (BEGIN, lock the cart, read, write, COMMIT);
-- these functions do the same statements in one, inside the call's own transaction. A VOLATILE
-- PL/pgSQL function takes a new snapshot for each statement under READ COMMITTED (PostgreSQL docs,
-- "Function Volatility Categories"), so the read after the cart row's lock sees every write committed
-- before it, exactly as the separate statements did: one writer per cart, checks that stay true.

-- The owner's cart row, locked until the caller's transaction ends and marked used at p_now: a user's
-- by user id (made with id p_new_cart_id when p_new_cart_id is given and there is none), a guest's by
-- its row id when known, else by the SHA-256 of the guest cart id, idle since p_guest_cutoff at most.
-- Returns the cart id, or null when there is no such cart. A guest's row is made by the API itself
-- (api/modules/cart/service.ts `makeGuestCart`), which also keeps the number of guest rows bounded.
CREATE OR REPLACE FUNCTION "cart_lock"(p_user_id text, p_guest_hash text, p_cart_id text,
  p_guest_cutoff timestamptz, p_now timestamptz, p_new_cart_id text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_cart text;
BEGIN
  IF p_user_id IS NOT NULL THEN
    IF p_new_cart_id IS NULL THEN
      UPDATE "carts" SET "updated_at" = p_now WHERE "user_id" = p_user_id RETURNING "id" INTO v_cart;
    ELSE
      INSERT INTO "carts" ("id", "user_id") VALUES (p_new_cart_id, p_user_id)
        ON CONFLICT ("user_id") DO UPDATE SET "updated_at" = p_now RETURNING "id" INTO v_cart;
    END IF;
  ELSIF p_cart_id IS NOT NULL THEN
    UPDATE "carts" SET "updated_at" = p_now WHERE "id" = p_cart_id RETURNING "id" INTO v_cart;
  ELSE
    UPDATE "carts" SET "updated_at" = p_now
      WHERE "guest_token_hash" = p_guest_hash AND "updated_at" >= p_guest_cutoff RETURNING "id" INTO v_cart;
  END IF;
  RETURN v_cart;
END $$;
--> statement-breakpoint
-- One more unit of a product in the owner's cart (the owner as for cart_lock): a new line of 1 (id
-- p_new_line_id) or the line up by one, at today's selling price in paise (numeric(12,2) × 100,
-- exact). Written only when the product is published, in stock in p_store_id, the new quantity is at
-- most p_max_qty and the stock, and a new line leaves at most p_max_lines lines; otherwise nothing is
-- written and the facts answered let the API name the reason (api/modules/cart/service.ts).
CREATE OR REPLACE FUNCTION "cart_add_one"(p_user_id text, p_guest_hash text, p_cart_id text,
  p_guest_cutoff timestamptz, p_now timestamptz, p_new_cart_id text, p_store_id text, p_product_id text,
  p_new_line_id text, p_max_qty integer, p_max_lines integer,
  OUT v_cart text, OUT v_publish boolean, OUT v_stock integer, OUT v_line text, OUT v_quantity integer,
  OUT v_line_count integer, OUT v_written boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_price numeric;
  v_wanted integer;
BEGIN
  v_written := false;
  v_cart := "cart_lock"(p_user_id, p_guest_hash, p_cart_id, p_guest_cutoff, p_now, p_new_cart_id);
  IF v_cart IS NULL THEN RETURN; END IF;
  SELECT p."publish", p."selling_price", coalesce(i."stock", 0)::int, l."id", l."quantity",
      (SELECT count(*)::int FROM "cart_lines" c WHERE c."cart_id" = v_cart)
    INTO v_publish, v_price, v_stock, v_line, v_quantity, v_line_count
    FROM "products" p
    LEFT JOIN "inventory" i ON i."product_id" = p."id" AND i."store_id" = p_store_id
    LEFT JOIN "cart_lines" l ON l."cart_id" = v_cart AND l."product_id" = p."id"
    WHERE p."id" = p_product_id;
  IF NOT FOUND OR NOT v_publish THEN RETURN; END IF;
  v_wanted := coalesce(v_quantity, 0) + 1;
  IF v_stock <= 0 OR v_wanted > p_max_qty OR v_wanted > v_stock OR (v_line IS NULL AND v_line_count >= p_max_lines) THEN
    RETURN;
  END IF;
  IF v_line IS NOT NULL THEN
    UPDATE "cart_lines" SET "quantity" = v_wanted, "unit_price_paise" = (v_price * 100)::int, "updated_at" = now()
      WHERE "id" = v_line;
  ELSE
    v_line := p_new_line_id;
    INSERT INTO "cart_lines" ("id", "cart_id", "product_id", "quantity", "unit_price_paise")
      VALUES (v_line, v_cart, p_product_id, 1, (v_price * 100)::int);
  END IF;
  v_quantity := v_wanted;
  v_written := true;
END $$;
--> statement-breakpoint
-- A line's quantity set to p_qty in the owner's cart (the owner as for cart_lock; never made here):
-- 0 removes the line; another quantity is written only when it is at most p_max_qty and the stock in
-- p_store_id, at today's selling price in paise. v_found is false when the cart has no such line.
CREATE OR REPLACE FUNCTION "cart_set_qty"(p_user_id text, p_guest_hash text, p_cart_id text,
  p_guest_cutoff timestamptz, p_now timestamptz, p_store_id text, p_line_id text, p_qty integer, p_max_qty integer,
  OUT v_cart text, OUT v_found boolean, OUT v_stock integer, OUT v_written boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_price numeric;
BEGIN
  v_found := false;
  v_written := false;
  v_cart := "cart_lock"(p_user_id, p_guest_hash, p_cart_id, p_guest_cutoff, p_now, NULL);
  IF v_cart IS NULL THEN RETURN; END IF;
  SELECT p."selling_price", coalesce(i."stock", 0)::int INTO v_price, v_stock
    FROM "cart_lines" l
    JOIN "products" p ON p."id" = l."product_id"
    LEFT JOIN "inventory" i ON i."product_id" = p."id" AND i."store_id" = p_store_id
    WHERE l."id" = p_line_id AND l."cart_id" = v_cart;
  IF NOT FOUND THEN RETURN; END IF;
  v_found := true;
  IF p_qty = 0 THEN
    DELETE FROM "cart_lines" WHERE "id" = p_line_id;
  ELSIF v_stock <= 0 OR p_qty > p_max_qty OR p_qty > v_stock THEN
    RETURN;
  ELSE
    UPDATE "cart_lines" SET "quantity" = p_qty, "unit_price_paise" = (v_price * 100)::int, "updated_at" = now()
      WHERE "id" = p_line_id;
  END IF;
  v_written := true;
END $$;
