-- A store's own rider speed (docs/stores.md, "Delivery time"): km/h, 5 to 60, one decimal; null is
-- the global DELIVERY_RIDER_KMPH. The delivery minutes of the store's location answers and orders
-- divide the distance by it.
ALTER TABLE "stores" ADD COLUMN IF NOT EXISTS "rider_kmph" numeric(3, 1);
--> statement-breakpoint
ALTER TABLE "stores" DROP CONSTRAINT IF EXISTS "stores_rider_kmph_range";
--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_rider_kmph_range" CHECK ("rider_kmph" IS NULL OR "rider_kmph" BETWEEN 5 AND 60);
--> statement-breakpoint
-- The order desk's address search (docs/commerce-api.md, "Admin orders at volume"): the delivery
-- address's line, landmark and city, lower-cased and joined by spaces, as a trigram GIN index
-- (pg_trgm docs, F.35.5: LIKE '%…%' with three characters or more). The expression is the one
-- api/modules/order/admin-filter.ts `ADDRESS_TEXT` searches, character for character.
CREATE INDEX IF NOT EXISTS "orders_address_trgm_idx" ON "orders" USING gin ((lower(coalesce("delivery_address"->>'address_line', '') || ' ' || coalesce("delivery_address"->>'landmark', '') || ' ' || coalesce("delivery_address"->>'city', ''))) gin_trgm_ops);
