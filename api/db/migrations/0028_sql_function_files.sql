-- SQL functions live in files of their own (docs/decisions/0047-cart-rule-and-sql-function-files.md):
-- api/db/functions/<name>.sql, applied after the migrations by api/db/function-files.ts whenever a
-- file's SHA-256 differs from the one recorded here (a repeatable step, as Flyway's repeatable
-- migrations). The migrations before this one keep their function definitions as history.
CREATE TABLE IF NOT EXISTS "sql_function_files" (
  "name" text PRIMARY KEY NOT NULL,
  "checksum" text NOT NULL,
  "applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The cart's writes answer a reason code now (api/db/functions/cart_line_add.sql): their OUT
-- columns changed, which CREATE OR REPLACE cannot do (PostgreSQL docs, "CREATE FUNCTION": "the
-- return type of an existing function cannot be changed"). The files make them again.
DROP FUNCTION IF EXISTS "cart_add_one"(text, text, text, timestamptz, timestamptz, text, text, text, text, integer, integer);
--> statement-breakpoint
DROP FUNCTION IF EXISTS "cart_set_qty"(text, text, text, timestamptz, timestamptz, text, text, integer, integer);
