-- Admin orders at volume (docs/commerce-api.md, "Admin orders at volume"): the admin list searches
-- by order number (exact or prefix), the shopper's phone (the delivery address's mobile, or the
-- account's), email and name (case-insensitive substrings), filters by status and IST day, and sorts
-- by date or grand total. Trigram GIN indexes serve the substring searches (pg_trgm docs, F.35.5:
-- LIKE and ILIKE with at least three characters); a text_pattern_ops B-tree the number prefix; the
-- (created_at, id) and (grand_total_paise, id) B-trees the sorts and the export's keyset paging.
CREATE INDEX IF NOT EXISTS "orders_number_prefix_idx" ON "orders" ("order_number" text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_created_id_idx" ON "orders" ("created_at", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_total_id_idx" ON "orders" ("grand_total_paise", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_mobile_trgm_idx" ON "orders" USING gin (("delivery_address"->>'mobile') gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin (lower("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_mobile_trgm_idx" ON "users" USING gin ("mobile" gin_trgm_ops);
