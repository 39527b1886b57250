-- Who last changed a product by hand (docs/decisions/0040-data-fixes-skip-edited-rows.md): an admin's
-- or staff member's edit, the grid's bulk edit and a product CSV import set `edited_at` (when) and
-- `edited_by` (the user id; null with edited_at set: the operator's command line). Null `edited_at`:
-- the row is as the catalogue import or a data fix left it, the only rows a one-off data fix
-- (api/db/seed/data-fixes.ts) may change. A data fix never sets it.
ALTER TABLE "products" ADD COLUMN IF NOT EXISTS "edited_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN IF NOT EXISTS "edited_by" text;
--> statement-breakpoint
-- Rows changed by hand before this column existed: the audit trail (migration 0014_audit_log) has
-- an entry for each; the latest one that changed more than stock (stock lives in `inventory`) marks
-- its product.
UPDATE "products" p SET "edited_at" = a."at", "edited_by" = a."actor_id"
  FROM (
    SELECT DISTINCT ON ("entity_id") "entity_id", "at", "actor_id" FROM "audit_log"
      WHERE "entity" = 'product' AND "action" IN ('create', 'update', 'bulk_update', 'import')
        AND coalesce("actor_email", '') <> 'system'
        AND coalesce("after", '{}'::jsonb) - 'stock' <> '{}'::jsonb
      ORDER BY "entity_id", "at" DESC
  ) a
  WHERE p."id" = a."entity_id";
