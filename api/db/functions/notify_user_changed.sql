-- First defined in api/db/migrations/0022_cart_change_notices.sql; this file is its source from now on.
-- A user's sessions ending (signing out, a password reset, a reused refresh token) or the user's
-- role, status or password changing: a summary kept for one of their sessions must not outlive that
-- session. The trigger's argument names the row's user id column.
CREATE OR REPLACE FUNCTION "notify_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cart_changed', 'user:' || (to_jsonb(OLD) ->> TG_ARGV[0]));
  RETURN NULL;
END $$;
