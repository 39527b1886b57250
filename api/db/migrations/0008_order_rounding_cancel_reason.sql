-- A cash-on-delivery order's grand total is rounded to the nearest rupee (docs/commerce-api.md,
-- "Money"): the rounding is stored beside the other amounts, so an order always answers the bill it
-- was placed with. Orders placed before this migration were not rounded: 0.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "rounding_paise" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The optional reason given when an order is cancelled (by the shopper or an admin); null otherwise.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "cancel_reason" text;
