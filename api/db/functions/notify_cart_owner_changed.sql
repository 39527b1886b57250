-- First defined in api/db/migrations/0022_cart_change_notices.sql; this file is its source from now on.
-- A cart row moved to another owner or removed: announced on cart_changed under its owner's
-- key, as notify_cart_line_changed does for its lines.
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
