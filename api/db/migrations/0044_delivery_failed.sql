-- A failed delivery (docs/delivery.md, "Could not deliver"; docs/decisions/0072-delivery-failed.md): an
-- order out for delivery that the rider could not hand over ends as `delivery_failed`, returned to its
-- store, with the reason from a fixed list (contract/delivery-failure.ts), a short note for `other`
-- and the moment it was marked. Its stock goes back, a paid order is refunded in full and an
-- invoiced one gets its credit note, as a cancellation does.
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_status_check";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check"
  CHECK ("status" IN ('payment_pending', 'placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled', 'delivery_failed'));
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivery_failure_reason" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivery_failure_note" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "delivery_failed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_delivery_failure_check";
--> statement-breakpoint
-- The reason is one of the list, the note at most 120 characters; both only on a failed delivery.
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_failure_check" CHECK (
  ("delivery_failure_reason" IS NULL OR "delivery_failure_reason" IN ('not_reachable', 'address_not_found', 'refused', 'other'))
  AND ("delivery_failure_note" IS NULL OR char_length("delivery_failure_note") <= 120)
  AND (("status" = 'delivery_failed') = ("delivery_failure_reason" IS NOT NULL AND "delivery_failed_at" IS NOT NULL)));
--> statement-breakpoint
-- An invoiced order whose delivery failed gets one credit note for what is left of it, as a
-- cancelled one does (the supply did not happen; reason `cancelled`, function orders_credit_on_cancel).
DROP TRIGGER IF EXISTS "orders_credit_on_cancel" ON "orders";
--> statement-breakpoint
CREATE TRIGGER "orders_credit_on_cancel" AFTER UPDATE OF "status" ON "orders"
  FOR EACH ROW WHEN (NEW."status" IN ('cancelled', 'delivery_failed') AND OLD."status" NOT IN ('cancelled', 'delivery_failed')
    AND NEW."invoice_number" IS NOT NULL)
  EXECUTE FUNCTION "orders_credit_on_cancel"();
