-- A refund the provider reports as failed is sent again as a new refund, at most
-- REFUND_MAX_FAILURES times for one amount of one line (docs/payments.md, "Refunds"); when the last
-- allowed one fails too, nothing retries it and the order's payment state is refund_failed, so an
-- admin finds it with the payment-state filter and settles it by hand.
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_payment_state_check";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_state_check"
  CHECK ("payment_state" IN ('cod', 'pending', 'paid', 'expired', 'mismatch', 'refund_pending', 'refunded', 'partially_refunded', 'refund_failed'));
