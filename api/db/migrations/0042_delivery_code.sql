-- The delivery code (docs/delivery.md, "Delivery code"): an order whose grand total is at least
-- DELIVERY_CODE_ABOVE gets a 4-digit code when it goes out for delivery. The shopper sees it on the
-- order's page and tells the rider, whose "Delivered" needs it. Wrong codes are counted: after
-- DELIVERY_CODE_MAX_ATTEMPTS (contract/rider.ts) the rider must call the store (a code of 10,000
-- values cannot be tried through).
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivery_code" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivery_code_attempts" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_delivery_code_check";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_code_check" CHECK ("delivery_code" IS NULL OR "delivery_code" ~ '^[0-9]{4}$');
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_delivery_code_attempts_check";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_code_attempts_check" CHECK ("delivery_code_attempts" >= 0);
