-- Drawn product pictures (docs/decisions/0030-drawn-product-pictures.md; api/lib/illustrations.ts).
-- One row per picture: its stored name (`<24 hex>-il`, the files `<id>.webp`, `<id>-w128.webp`, …)
-- and what it is drawn from (brand, name, unit, form, seed). The import writes the rows; the files
-- are drawn on their first request and stored (api/lib/illustration-store.ts).
CREATE TABLE IF NOT EXISTS "illustrations" (
	"id" text PRIMARY KEY NOT NULL,
	"subject" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
