-- First defined in api/db/migrations/0023_cart_writes_in_one_call.sql; this file is its source from now on.
-- Cart writes in one call (docs/decisions/0039-cart-writes-in-one-call.md). A VOLATILE PL/pgSQL
-- function takes a new snapshot for each statement under READ COMMITTED (PostgreSQL docs, "Function
-- Volatility Categories"), so the read after the cart row's lock sees every write committed
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
