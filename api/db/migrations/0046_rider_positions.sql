-- Live tracking (docs/delivery.md, "Live tracking"; docs/decisions/0074-live-tracking.md): where the
-- rider of an order out for delivery was, as its page reported it (at most one row per order every
-- 5 s, POSITION_MIN_INTERVAL_MS in contract/tracking.ts). Personal data: kept for the order's life
-- and deleted 24 h after it was delivered, cancelled or failed by the `tracking.purge` job.
-- `recorded_at` is the server's clock at the report, never the device's.
CREATE TABLE IF NOT EXISTS "rider_positions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"order_id" text NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"rider_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"accuracy_m" integer NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rider_positions_range" CHECK ("lat" BETWEEN -90 AND 90 AND "lng" BETWEEN -180 AND 180 AND "accuracy_m" >= 0)
);
--> statement-breakpoint
-- An order's newest position (the shopper's view, the 5 s window) and the purge by order.
CREATE INDEX IF NOT EXISTS "rider_positions_order_idx" ON "rider_positions" ("order_id", "recorded_at" DESC);
