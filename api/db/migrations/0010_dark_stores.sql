-- Dark stores and per-store stock (docs/stores.md). A store serves the PIN codes whose centre lies
-- within `radius_km` of it; `lat`/`lng` null means "the centre of the store's PIN code" (looked up in
-- the bundled India Post data at run time, api/lib/pincodes.ts). Opening hours are "HH:MM" in India
-- Standard Time; a closing time before the opening time runs past midnight.
CREATE TABLE IF NOT EXISTS "stores" (
  "id" text PRIMARY KEY NOT NULL,
  "name" text NOT NULL,
  "area" text NOT NULL,
  "city" text NOT NULL,
  "address_line" text NOT NULL DEFAULT '',
  "pincode" text NOT NULL,
  "lat" double precision,
  "lng" double precision,
  "radius_km" numeric(5, 2) NOT NULL DEFAULT 3,
  "opens_at" text NOT NULL DEFAULT '06:00',
  "closes_at" text NOT NULL DEFAULT '24:00',
  "pickers" integer NOT NULL DEFAULT 4,
  "active" boolean NOT NULL DEFAULT true,
  "position" integer NOT NULL DEFAULT 0,
  "version" integer NOT NULL DEFAULT 1,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "stores_radius_check" CHECK ("radius_km" > 0),
  CONSTRAINT "stores_pickers_check" CHECK ("pickers" > 0)
);
--> statement-breakpoint
-- The stores of the first start: real places in three cities. The first active store by position is
-- the default (shown to a visitor without a location, and to the original client).
INSERT INTO "stores" ("id", "name", "area", "city", "address_line", "pincode", "opens_at", "closes_at", "pickers", "position") VALUES
  ('storeBlrIndiranagar', 'Indiranagar', 'Indiranagar', 'Bengaluru', '100 Feet Road, HAL 2nd Stage, Indiranagar', '560038', '00:00', '24:00', 6, 1),
  ('storeBlrKoramangala', 'Koramangala', 'Koramangala', 'Bengaluru', '80 Feet Road, Koramangala 4th Block', '560034', '06:00', '24:00', 5, 2),
  ('storeBlrHsrLayout', 'HSR Layout', 'HSR Layout', 'Bengaluru', '27th Main Road, HSR Layout Sector 1', '560102', '06:00', '24:00', 4, 3),
  ('storeDelConnaughtPlace', 'Connaught Place', 'Connaught Place', 'New Delhi', 'Block E, Connaught Place', '110001', '06:00', '24:00', 5, 4),
  ('storeDelHauzKhas', 'Hauz Khas', 'Hauz Khas', 'New Delhi', 'Aurobindo Marg, Hauz Khas', '110016', '06:00', '02:00', 4, 5),
  ('storeMumBandraWest', 'Bandra West', 'Bandra West', 'Mumbai', 'Hill Road, Bandra West', '400050', '06:00', '24:00', 5, 6),
  ('storeMumAndheriEast', 'Andheri East', 'Andheri East', 'Mumbai', 'Andheri-Kurla Road, Andheri East', '400069', '06:00', '01:00', 4, 7)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stores_active_position_idx" ON "stores" ("active", "position");
--> statement-breakpoint
-- One product's stock in one store. A missing row is stock 0.
CREATE TABLE IF NOT EXISTS "inventory" (
  "store_id" text NOT NULL REFERENCES "stores"("id") ON DELETE CASCADE,
  "product_id" text NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
  "stock" integer NOT NULL DEFAULT 0,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "inventory_pk" PRIMARY KEY ("store_id", "product_id"),
  CONSTRAINT "inventory_stock_check" CHECK ("stock" >= 0)
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inventory_product_idx" ON "inventory" ("product_id");
--> statement-breakpoint
-- A demo store's stock of a product, derived from the catalogue's stock `base` and a hash of the
-- store and the product, so every import gives the same numbers: 12 in 100 products are out of stock
-- in a store, 8 in 100 are low (1-5 units), the rest keep `base`. Each store draws differently, so a
-- product out of stock in one store is in stock in others.
CREATE OR REPLACE FUNCTION demo_store_stock(base integer, store_key text, product_key text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN h % 100 < 12 THEN 0
    WHEN h % 100 < 20 THEN 1 + (h / 100) % 5
    ELSE base
  END
  FROM (SELECT ('x' || substr(md5(store_key || ':' || product_key), 1, 7))::bit(28)::int AS h) AS hashed
$$;
--> statement-breakpoint
-- The stock of a database from before stores becomes every seeded store's, drawn as above.
INSERT INTO "inventory" ("store_id", "product_id", "stock")
SELECT s."id", p."id", demo_store_stock(p."stock", s."id", coalesce(p."sku", p."id"))
FROM "products" p CROSS JOIN "stores" s
ON CONFLICT DO NOTHING;
--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN IF EXISTS "stock";
--> statement-breakpoint
-- Every order belongs to a store and keeps the delivery time promised when it was placed; orders from
-- before stores belong to the default store and promised nothing.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "store_id" text REFERENCES "stores"("id") ON DELETE RESTRICT;
--> statement-breakpoint
UPDATE "orders" SET "store_id" = 'storeBlrIndiranagar' WHERE "store_id" IS NULL;
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "store_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "promised_minutes" integer;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "promised_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivered_at" timestamp with time zone;
--> statement-breakpoint
-- The delivery time's queue term counts a store's orders not yet out for delivery.
CREATE INDEX IF NOT EXISTS "orders_store_status_idx" ON "orders" ("store_id", "status");
--> statement-breakpoint
-- The signed-in shopper's chosen delivery PIN code (null: none chosen yet).
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "location_pincode" text;
