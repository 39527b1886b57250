-- A store's own rider speed (docs/stores.md, "Delivery time"): km/h, 5 to 60, one decimal; null is
-- the global DELIVERY_RIDER_KMPH. The delivery minutes of the store's location answers and orders
-- divide the distance by it.
ALTER TABLE "stores" ADD COLUMN IF NOT EXISTS "rider_kmph" numeric(3, 1);
--> statement-breakpoint
ALTER TABLE "stores" DROP CONSTRAINT IF EXISTS "stores_rider_kmph_range";
--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_rider_kmph_range" CHECK ("rider_kmph" IS NULL OR "rider_kmph" BETWEEN 5 AND 60);
