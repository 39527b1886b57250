-- Online payment (docs/decisions/0025-online-payment-and-stock-reservation.md; docs/payments.md).
-- An order's payment state beside its status: cod (cash on delivery), pending (an online payment is
-- awaited while the order's stock is held until reservation_expires_at), paid, expired (the hold
-- ran out unpaid: the order was cancelled, its stock returned), mismatch (a captured amount or
-- currency that is not the order's: recorded, never fulfilled), refund_pending, refunded,
-- partially_refunded. Amounts are integer paise.
-- An online order waits in payment_pending (its stock held) until its payment is verified.
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_status_check";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check"
  CHECK ("status" IN ('payment_pending', 'placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "payment_state" text DEFAULT 'cod' NOT NULL
  CONSTRAINT "orders_payment_state_check"
  CHECK ("payment_state" IN ('cod', 'pending', 'paid', 'expired', 'mismatch', 'refund_pending', 'refunded', 'partially_refunded'));
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "reservation_expires_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "paid_at" timestamp with time zone;
--> statement-breakpoint
-- The expiry sweep reads only the held reservations.
CREATE INDEX IF NOT EXISTS "orders_reservation_expiry_idx" ON "orders" ("reservation_expires_at") WHERE "status" = 'payment_pending';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_payment_state_created_idx" ON "orders" ("payment_state", "created_at" DESC);
--> statement-breakpoint
-- One provider order per attempt to pay one of our orders (the provider's receipt is our order
-- number). status: created, captured, failed, mismatch, refunded (whole or in part: see refunds).
CREATE TABLE IF NOT EXISTS "payments" (
  "id" text PRIMARY KEY NOT NULL,
  "order_id" text NOT NULL REFERENCES "orders"("id") ON DELETE restrict,
  "provider" text NOT NULL,
  "provider_order_id" text NOT NULL,
  "provider_payment_id" text,
  "method" text NOT NULL,
  "amount_paise" integer NOT NULL,
  "currency" text DEFAULT 'INR' NOT NULL,
  "status" text DEFAULT 'created' NOT NULL,
  "failure_reason" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "payments_provider_order_key" ON "payments" ("provider", "provider_order_id");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "payments_provider_payment_key" ON "payments" ("provider", "provider_payment_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_order_idx" ON "payments" ("order_id");
--> statement-breakpoint
-- Each provider event once (Razorpay's x-razorpay-event-id): a repeat is answered and ignored.
CREATE TABLE IF NOT EXISTS "payment_events" (
  "provider" text NOT NULL,
  "event_id" text NOT NULL,
  "type" text NOT NULL,
  "outcome" text NOT NULL,
  "received_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("provider", "event_id")
);
--> statement-breakpoint
-- Refunds: written in the transaction that decides them (status pending), sent to the provider after
-- the commit, retried until the provider has one; refund.processed / refund.failed webhooks settle them.
CREATE TABLE IF NOT EXISTS "refunds" (
  "id" text PRIMARY KEY NOT NULL,
  "order_id" text NOT NULL REFERENCES "orders"("id") ON DELETE restrict,
  "payment_id" text NOT NULL REFERENCES "payments"("id") ON DELETE restrict,
  -- The order line refunded when it could not be delivered (a partial refund); null: the rest of the order.
  "order_line_id" text REFERENCES "order_lines"("id") ON DELETE set null,
  "provider_refund_id" text,
  "amount_paise" integer NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "reason" text NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "refunds_provider_refund_key" ON "refunds" ("provider_refund_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "refunds_order_idx" ON "refunds" ("order_id");
--> statement-breakpoint
-- A line is refunded once.
CREATE UNIQUE INDEX IF NOT EXISTS "refunds_order_line_key" ON "refunds" ("order_line_id");
