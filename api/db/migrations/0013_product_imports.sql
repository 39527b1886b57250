-- Product CSVs uploaded for import and checked by a dry run, kept until applied or a day old
-- (docs/decisions/0023-catalogue-import.md). `id` is the SHA-256 (hex) of the content.
CREATE TABLE IF NOT EXISTS "product_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "product_imports_created_idx" ON "product_imports" USING btree ("created_at");
