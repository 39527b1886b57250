-- The test payment provider's own state (docs/payments.md, "The test provider";
-- docs/decisions/0044-test-provider-state-in-the-database.md): what Razorpay keeps on its side, kept
-- here so that any instance serves its hosted page, verifies its callback and answers the payment
-- sweeps. Never read by the shop's own payment code, which knows only the provider's answers.
-- Amounts are integer paise. Unused (empty) with PAYMENT_PROVIDER=razorpay.
CREATE TABLE IF NOT EXISTS "test_payment_orders" (
  "id" text PRIMARY KEY NOT NULL,
  "amount_paise" integer NOT NULL CHECK ("amount_paise" >= 100),
  "currency" text NOT NULL,
  "receipt" text NOT NULL,
  -- created, paid
  "status" text DEFAULT 'created' NOT NULL,
  -- Where the hosted page returns, paths of this site only, and the method it offers.
  "method" text DEFAULT 'upi' NOT NULL,
  "callback_url" text DEFAULT '/' NOT NULL,
  "cancel_url" text DEFAULT '/' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- status: captured, failed (as the hosted page answered).
CREATE TABLE IF NOT EXISTS "test_payment_payments" (
  "id" text PRIMARY KEY NOT NULL,
  "order_id" text NOT NULL REFERENCES "test_payment_orders"("id") ON DELETE cascade,
  "amount_paise" integer NOT NULL,
  "currency" text NOT NULL,
  "status" text NOT NULL,
  "method" text NOT NULL,
  "error_description" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "test_payment_payments_order_idx" ON "test_payment_payments" ("order_id", "created_at");
--> statement-breakpoint
-- status: pending, processed.
CREATE TABLE IF NOT EXISTS "test_payment_refunds" (
  "id" text PRIMARY KEY NOT NULL,
  "payment_id" text NOT NULL REFERENCES "test_payment_payments"("id") ON DELETE cascade,
  "amount_paise" integer NOT NULL CHECK ("amount_paise" > 0),
  "currency" text DEFAULT 'INR' NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "receipt" text,
  "notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "test_payment_refunds_payment_idx" ON "test_payment_refunds" ("payment_id", "created_at" DESC);
--> statement-breakpoint
-- Every email the job runner sent, by its Message-ID (RFC 5322 §3.6.4; docs/jobs.md, "Order
-- emails"): recorded before the job is acknowledged, so a job run again after a failure of the
-- database skips a mail already sent.
CREATE TABLE IF NOT EXISTS "sent_mails" (
  "message_id" text PRIMARY KEY NOT NULL,
  "sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sent_mails_sent_at_idx" ON "sent_mails" ("sent_at");
