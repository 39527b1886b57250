-- Coupons at checkout (docs/offers.md, "Applying a code"; docs/decisions/0067-coupons-at-checkout.md):
-- the code a shopper applied lives with the cart; an order keeps the coupon it used, its code and the
-- discount in paise, and each order line its share of that discount (largest remainder, so the shares
-- add up exactly to the discount; lines outside a category scope get none). Uses of a coupon are the
-- orders naming it that are not cancelled (an expired payment hold is a cancelled order).
ALTER TABLE "carts" ADD COLUMN IF NOT EXISTS "coupon_code" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "coupon_id" text REFERENCES "coupons"("id") ON DELETE restrict;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "coupon_code" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "coupon_discount_paise" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_discount_check" CHECK ("coupon_discount_paise" >= 0 AND ("coupon_id" IS NOT NULL OR "coupon_discount_paise" = 0));
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN IF NOT EXISTS "coupon_share_paise" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_coupon_share_check" CHECK ("coupon_share_paise" >= 0 AND "coupon_share_paise" <= "line_total_paise");
--> statement-breakpoint
-- Counting a coupon's uses (all shoppers, and one shopper's) reads the orders naming it.
CREATE INDEX IF NOT EXISTS "orders_coupon_user_idx" ON "orders" USING btree ("coupon_id", "user_id") WHERE "coupon_id" IS NOT NULL;
--> statement-breakpoint
-- A cart kept in memory by the BFF (docs/decisions/0038-cart-summaries-in-memory.md) carries its
-- coupon: applying or removing a code is a change of that cart (migration 0022_cart_change_notices).
DROP TRIGGER IF EXISTS "carts_notify" ON "carts";
--> statement-breakpoint
CREATE TRIGGER "carts_notify" AFTER DELETE OR UPDATE OF "user_id", "guest_token_hash", "coupon_code" ON "carts"
  FOR EACH ROW EXECUTE FUNCTION "notify_cart_owner_changed"();
