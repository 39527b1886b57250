-- The bill's named fees (docs/commerce-api.md, "Fees"; docs/decisions/0071-named-fees.md): a
-- handling charge, a small cart fee and a late-night fee, in paise, stored on the order as they were
-- charged at placement, so a later change of the configuration never alters a placed order. Each is
-- 0 when not charged; orders placed before this migration had none.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "handling_charge_paise" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "small_cart_fee_paise" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "late_night_fee_paise" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fees_check" CHECK ("handling_charge_paise" >= 0 AND "small_cart_fee_paise" >= 0 AND "late_night_fee_paise" >= 0);
