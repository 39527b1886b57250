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
--> statement-breakpoint
CREATE TRIGGER "cart_lines_notify" AFTER INSERT OR UPDATE OR DELETE ON "cart_lines"
  FOR EACH ROW EXECUTE FUNCTION "notify_cart_line_changed"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "notify_cart_owner_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."user_id" IS NOT NULL THEN PERFORM pg_notify('cart_changed', 'user:' || OLD."user_id"); END IF;
  IF OLD."guest_token_hash" IS NOT NULL THEN PERFORM pg_notify('cart_changed', 'guest:' || OLD."guest_token_hash"); END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW."user_id" IS NOT NULL THEN PERFORM pg_notify('cart_changed', 'user:' || NEW."user_id"); END IF;
    IF NEW."guest_token_hash" IS NOT NULL THEN PERFORM pg_notify('cart_changed', 'guest:' || NEW."guest_token_hash"); END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "carts_notify" AFTER DELETE OR UPDATE OF "user_id", "guest_token_hash" ON "carts"
  FOR EACH ROW EXECUTE FUNCTION "notify_cart_owner_changed"();
--> statement-breakpoint
-- A user's sessions ending (signing out, a password reset, a reused refresh token) or the user's
-- role, status or password changing: a summary kept for one of their sessions must not outlive that
-- session. The trigger's argument names the row's user id column.
CREATE OR REPLACE FUNCTION "notify_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cart_changed', 'user:' || (to_jsonb(OLD) ->> TG_ARGV[0]));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "refresh_tokens_notify" AFTER UPDATE OF "revoked_at" OR DELETE ON "refresh_tokens"
  FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('user_id');
--> statement-breakpoint
CREATE TRIGGER "users_notify" AFTER UPDATE OF "role", "status", "password_hash" OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('id');
