-- Order numbers: "OD" + the day (yymmdd) + a number from this sequence (api/modules/order/service.ts).
-- A sequence never hands one number to two transactions, and is not rolled back, so numbers are
-- unique without a lock (PostgreSQL docs, "Sequence Manipulation Functions").
CREATE SEQUENCE IF NOT EXISTS "order_number_seq" AS bigint START WITH 1;
--> statement-breakpoint
-- Order lines keep the image url of the product as sold; the unused-image check looks it up.
CREATE INDEX IF NOT EXISTS "order_lines_image_idx" ON "order_lines" ("image");
--> statement-breakpoint
-- A guest cart's age decides when it is removed (30 days idle).
CREATE INDEX IF NOT EXISTS "carts_guest_updated_idx" ON "carts" ("updated_at") WHERE "guest_token_hash" IS NOT NULL;
