-- A tip for the delivery partner and delivery instructions (docs/commerce-api.md, "Tip and delivery
-- instructions"; docs/decisions/0070-tip-and-delivery-instructions.md). The tip is whole rupees up to
-- ₹200, kept in paise, a bill line outside the store's taxable supply (the tax invoice leaves it
-- out); the grand total includes it. The instructions are the chosen chips' keys and a free text of
-- at most 120 characters; null: none. The shopper's last tip is remembered on the user (null: never
-- chosen at our checkout) and preselected at the next checkout.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "tip_paise" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tip_check" CHECK ("tip_paise" BETWEEN 0 AND 20000 AND "tip_paise" % 100 = 0);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivery_instructions" jsonb;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "last_tip_paise" integer;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_last_tip_check" CHECK ("last_tip_paise" BETWEEN 0 AND 20000);
