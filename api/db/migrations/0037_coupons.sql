-- Coupons (docs/offers.md, "Coupons"): a code an admin manages at /dashboard/coupons, flat (paise) or
-- percent off with a cap, a minimum basket, a validity window, first order only, per-shopper and total
-- use limits, an optional store and category scope and an active switch. `code` is kept upper-case
-- (the shopper may type it in any case). Every change is audited (api/lib/audit.ts).
CREATE TABLE IF NOT EXISTS "coupons" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"amount_paise" integer,
	"percent" integer,
	"max_discount_paise" integer,
	"min_basket_paise" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"first_order_only" boolean DEFAULT false NOT NULL,
	"per_user_limit" integer,
	"total_limit" integer,
	"store_id" text REFERENCES "stores"("id") ON DELETE restrict,
	"category_id" text REFERENCES "categories"("id") ON DELETE restrict,
	"active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_upper" CHECK ("code" = upper("code") AND "code" ~ '^[A-Z0-9]{3,20}$'),
	CONSTRAINT "coupons_kind" CHECK (
		("kind" = 'flat' AND "amount_paise" > 0 AND "percent" IS NULL)
		OR ("kind" = 'percent' AND "percent" BETWEEN 1 AND 100 AND "amount_paise" IS NULL)
	),
	CONSTRAINT "coupons_limits" CHECK (
		"min_basket_paise" >= 0
		AND ("max_discount_paise" IS NULL OR "max_discount_paise" > 0)
		AND ("per_user_limit" IS NULL OR "per_user_limit" > 0)
		AND ("total_limit" IS NULL OR "total_limit" > 0)
		AND ("starts_at" IS NULL OR "ends_at" IS NULL OR "starts_at" < "ends_at")
	)
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "coupons_code_key" ON "coupons" USING btree ("code");
--> statement-breakpoint
-- The demo codes (README.md, "Try it: offers"), as the demo stores of 0010_dark_stores are seeded.
INSERT INTO "coupons" ("id", "code", "description", "kind", "amount_paise", "percent", "max_discount_paise", "min_basket_paise", "first_order_only", "per_user_limit")
VALUES
	('c0000000000000000000c001', 'WELCOME50', '₹50 off your first order above ₹199', 'flat', 5000, NULL, NULL, 19900, true, 1),
	('c0000000000000000000c002', 'SAVE10', '10% off up to ₹75 on orders above ₹499', 'percent', NULL, 10, 7500, 49900, false, NULL)
ON CONFLICT DO NOTHING;
