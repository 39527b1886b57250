-- Payment events exactly once (docs/decisions/0041-payment-events-exactly-once.md; docs/payments.md,
-- "Exactly once").
-- A line's refund that the provider failed is recorded again as a new pending refund of that line
-- (api/modules/payment/refunds.ts, REFUND_MAX_FAILURES): a line may have many failed refunds but at
-- most one live one (pending or processed), so the unique index covers the live rows only.
DROP INDEX IF EXISTS "refunds_order_line_key";
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "refunds_order_line_live_key" ON "refunds" ("order_line_id") WHERE "status" <> 'failed';
--> statement-breakpoint
-- A provider order may be captured more than once (a mismatched capture, then a correct one; a
-- capture the order no longer needs): each capture is a payment row of its own, found by its
-- provider payment id (payments_provider_payment_key), so its refund names it. Only the one row still
-- waiting for a capture (no provider payment id yet) is unique per provider order.
DROP INDEX IF EXISTS "payments_provider_order_key";
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "payments_provider_order_open_key" ON "payments" ("provider", "provider_order_id") WHERE "provider_payment_id" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_provider_order_idx" ON "payments" ("provider", "provider_order_id");
