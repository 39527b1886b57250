-- A store's pause (docs/stores.md, "Pausing a store"): an admin's note such as "Closed for
-- stock-taking". While it is set the store takes no order whatever its hours, and every page shows
-- the note in place of the opening time. Null: not paused.
ALTER TABLE "stores" ADD COLUMN IF NOT EXISTS "paused_note" text;
