-- Help after delivery (docs/help-after-delivery.md; docs/decisions/0073-help-after-delivery.md).
-- A shopper's report of a problem with units of one line of a delivered order, within
-- HELP_WINDOW_HOURS of delivery: the kind, the units, an optional note and photo (an uploaded image's
-- url), and its value in paise (what the shopper paid for those units: the line's total less its
-- coupon share, pro rata). It is refunded at once when under the caps (`auto`), or waits
-- (`pending`) for an admin, who approves it (refunded) or rejects it with a reason.
-- `refund_id` names the refunds row of an online order's refund (unique: one refund per report);
-- a cash-on-delivery order's refund is a note (`refund_method` 'cod_note'): the store pays it back.
CREATE TABLE IF NOT EXISTS "order_issues" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"order_line_id" text NOT NULL REFERENCES "order_lines"("id") ON DELETE CASCADE,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE RESTRICT,
	"kind" text NOT NULL,
	"units" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"photo" text,
	"value_paise" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"auto" boolean DEFAULT false NOT NULL,
	"refund_method" text,
	"refund_id" text REFERENCES "refunds"("id") ON DELETE SET NULL,
	"decided_by" text REFERENCES "users"("id") ON DELETE SET NULL,
	"decided_at" timestamp with time zone,
	"reject_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_issues_kind_check" CHECK ("kind" IN ('missing', 'damaged', 'wrong_item', 'expired')),
	CONSTRAINT "order_issues_status_check" CHECK ("status" IN ('pending', 'refunded', 'rejected')),
	CONSTRAINT "order_issues_units_check" CHECK ("units" >= 1),
	CONSTRAINT "order_issues_value_check" CHECK ("value_paise" >= 0),
	CONSTRAINT "order_issues_refund_method_check" CHECK ("refund_method" IS NULL OR "refund_method" IN ('online', 'cod_note'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_issues_order_idx" ON "order_issues" ("order_id", "created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_issues_line_idx" ON "order_issues" ("order_line_id");
--> statement-breakpoint
-- The admin's queue: pending reports, oldest first.
CREATE INDEX IF NOT EXISTS "order_issues_pending_idx" ON "order_issues" ("created_at") WHERE "status" = 'pending';
--> statement-breakpoint
-- The shopper's automatic refunds of a month (the per-month cap).
CREATE INDEX IF NOT EXISTS "order_issues_user_auto_idx" ON "order_issues" ("user_id", "created_at") WHERE "auto";
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "order_issues_refund_key" ON "order_issues" ("refund_id");
