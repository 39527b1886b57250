ALTER TABLE "products" ADD COLUMN "selling_price" numeric(12, 2);
--> statement-breakpoint
UPDATE "products" SET "selling_price" = round("price" * (100 - "discount") / 100, 2);
--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "selling_price" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_selling_price_check" CHECK ("selling_price" >= 0 AND "selling_price" <= "price");
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_stock_check" CHECK ("stock" >= 0);
--> statement-breakpoint
CREATE TABLE "data_fixes" (
	"name" text PRIMARY KEY NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text REFERENCES "users"("id") ON DELETE cascade,
	"guest_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carts_owner_check" CHECK (("user_id" IS NULL) <> ("guest_token_hash" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "carts_user_key" ON "carts" ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "carts_guest_key" ON "carts" ("guest_token_hash");
--> statement-breakpoint
CREATE INDEX "carts_updated_idx" ON "carts" ("updated_at");
--> statement-breakpoint
CREATE TABLE "cart_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL REFERENCES "carts"("id") ON DELETE cascade,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"quantity" integer NOT NULL,
	"unit_price_paise" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_lines_quantity_check" CHECK ("quantity" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cart_lines_cart_product_key" ON "cart_lines" ("cart_id", "product_id");
--> statement-breakpoint
CREATE INDEX "cart_lines_product_idx" ON "cart_lines" ("product_id");
--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"address_line" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"pincode" text NOT NULL,
	"country" text DEFAULT 'India' NOT NULL,
	"mobile" text NOT NULL,
	"status" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "addresses_user_idx" ON "addresses" ("user_id", "created_at");
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"order_number" text NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE restrict,
	"status" text DEFAULT 'placed' NOT NULL,
	"payment_method" text DEFAULT 'CASH ON DELIVERY' NOT NULL,
	"delivery_address" jsonb NOT NULL,
	"address_id" text REFERENCES "addresses"("id") ON DELETE set null,
	"items_total_mrp_paise" integer NOT NULL,
	"items_total_paise" integer NOT NULL,
	"delivery_charge_paise" integer NOT NULL,
	"grand_total_paise" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_status_check" CHECK ("status" IN ('placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_key" ON "orders" ("order_number");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_key" ON "orders" ("user_id", "idempotency_key");
--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" ("user_id", "created_at" DESC);
--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" ("status", "created_at" DESC);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL REFERENCES "orders"("id") ON DELETE cascade,
	"position" integer NOT NULL,
	"product_id" text REFERENCES "products"("id") ON DELETE set null,
	"name" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_paise" integer NOT NULL,
	"mrp_paise" integer NOT NULL,
	"discount" numeric(5, 2) NOT NULL,
	"line_total_paise" integer NOT NULL,
	CONSTRAINT "order_lines_quantity_check" CHECK ("quantity" > 0)
);
--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" ("order_id", "position");
--> statement-breakpoint
CREATE INDEX "order_lines_product_idx" ON "order_lines" ("product_id");
--> statement-breakpoint
CREATE TABLE "order_status_history" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL REFERENCES "orders"("id") ON DELETE cascade,
	"status" text NOT NULL,
	"by_user_id" text REFERENCES "users"("id") ON DELETE set null,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_status_history_order_idx" ON "order_status_history" ("order_id", "at");
