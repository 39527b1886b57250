-- First defined in api/db/migrations/0022_cart_change_notices.sql; this file is its source from now on.
-- Every change to what a cart summary shows, and every end of a user's sessions, is announced on the
-- channel cart_changed after its transaction commits (PostgreSQL docs, "NOTIFY": delivered on
-- commit only, one per distinct payload per transaction). The payload names whose cart it is:
-- 'user:<user id>' or 'guest:<SHA-256 of the guest cart id>', the key the storefront keeps a
-- cart summary under (docs/decisions/0038-cart-summaries-in-memory.md). Triggers, not calls in the
-- services, so that no writer can be forgotten: the cart endpoints, an order emptying the cart, a
-- guest cart merged at sign-in, a product deleted, the idle-cart purge, an operator's SQL.
CREATE OR REPLACE FUNCTION "notify_cart_line_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner text;
BEGIN
  SELECT coalesce('user:' || c."user_id", 'guest:' || c."guest_token_hash") INTO owner
    FROM "carts" c WHERE c."id" = coalesce(NEW."cart_id", OLD."cart_id");
  -- A line deleted with its cart (ON DELETE CASCADE) finds no cart: the cart's own trigger told.
  IF owner IS NOT NULL THEN
    PERFORM pg_notify('cart_changed', owner);
  END IF;
  RETURN NULL;
END $$;
