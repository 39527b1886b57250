-- Delivery partners and dispatch (docs/delivery.md; docs/decisions/0068-riders-and-dispatch.md).
-- A RIDER is a users row with role 'RIDER' and the store it rides for in users.store_id (as STAFF).
-- Its shift lives here: on_shift, and free_since, the moment it last became free (went on shift,
-- or handed over its last order), which orders the queue of riders: the one that has waited longest
-- gets the next packed order. The dispatcher locks these rows (FOR UPDATE SKIP LOCKED), so two
-- orders packed at once never both take one rider.
CREATE TABLE IF NOT EXISTS "rider_shifts" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"on_shift" boolean DEFAULT false NOT NULL,
	"free_since" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The rider holding the order (null: waiting for one), when it was given, the cash the rider said
-- was collected on a cash-on-delivery delivery (paise), and the reason of the last "Could not
-- deliver" (the order is back at the store, waiting for an admin; null once reassigned).
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "rider_id" text REFERENCES "users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "dispatched_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "cash_collected_paise" integer;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivery_issue" text;
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_cash_collected_range";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cash_collected_range" CHECK ("cash_collected_paise" IS NULL OR "cash_collected_paise" >= 0);
--> statement-breakpoint
-- A rider's orders in hand (the dispatcher counts them against the batch size).
CREATE INDEX IF NOT EXISTS "orders_rider_idx" ON "orders" ("rider_id") WHERE "rider_id" IS NOT NULL;
--> statement-breakpoint
-- The queue of each store: packed orders without a rider, oldest first.
CREATE INDEX IF NOT EXISTS "orders_dispatch_queue_idx" ON "orders" ("store_id", "created_at") WHERE "status" = 'packed' AND "rider_id" IS NULL;
