-- An address's label (Home, Work, Other), floor and landmark (docs/commerce-api.md, "Addresses").
-- Existing rows become "Home" with no floor or landmark; the original client never sends them.
ALTER TABLE "addresses" ADD COLUMN IF NOT EXISTS "label" text DEFAULT 'Home' NOT NULL;
--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN IF NOT EXISTS "floor" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN IF NOT EXISTS "landmark" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "addresses" DROP CONSTRAINT IF EXISTS "addresses_label_check";
--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_label_check" CHECK ("label" IN ('Home', 'Work', 'Other'));
