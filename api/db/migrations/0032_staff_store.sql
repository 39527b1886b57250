-- A staff member's store (docs/product.md, "Staff"): the dark store a STAFF account works in, set by
-- an admin at /dashboard/staff. Null for admins (they run every store) and shoppers; a deleted store
-- leaves its staff without one rather than blocking the delete.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "store_id" text REFERENCES "stores"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_store_idx" ON "users" ("store_id") WHERE "store_id" IS NOT NULL;
--> statement-breakpoint
-- The team list reads admins and staff only (a handful of rows among every shopper).
CREATE INDEX IF NOT EXISTS "users_team_idx" ON "users" ("role") WHERE "role" <> 'USER';
