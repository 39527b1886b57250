-- Which stores hold a product, on the product row itself, so that a search or a listing orders
-- thousands of matches "in stock in this store first" without reading the inventory once per match
-- (docs/stores.md, "Availability on the product row"; docs/decisions/0020-dark-stores.md).
--
-- 1. Every store gets a slot: a small number, never reused, that names its bit.
ALTER TABLE "stores" ADD COLUMN IF NOT EXISTS "slot" integer;
--> statement-breakpoint
UPDATE "stores" s SET "slot" = n.rn - 1
  FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS rn FROM "stores") n
  WHERE n."id" = s."id" AND s."slot" IS NULL;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "stores_slot_seq" AS integer MINVALUE 0 START WITH 0;
--> statement-breakpoint
SELECT setval('stores_slot_seq', (SELECT coalesce(max("slot") + 1, 0) FROM "stores"), false);
--> statement-breakpoint
ALTER TABLE "stores" ALTER COLUMN "slot" SET DEFAULT nextval('stores_slot_seq');
--> statement-breakpoint
ALTER TABLE "stores" ALTER COLUMN "slot" SET NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "stores_slot_key" ON "stores" ("slot");
--> statement-breakpoint
-- 2. The product's bits: bit `slot` is 1 when that store's stock of it is above 0 (a missing bit, as a
--    missing inventory row, is 0).
ALTER TABLE "products" ADD COLUMN IF NOT EXISTS "in_stock_slots" bit varying NOT NULL DEFAULT B'';
--> statement-breakpoint
-- True when `bits` has bit `slot` set (false past its end, or for no slot). Each argument is named
-- once, so the planner inlines it even when `slot` is a sub-select (read once per statement): one
-- comparison per row instead of a function call.
CREATE OR REPLACE FUNCTION store_in_stock(bits bit varying, slot integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(substring(bits FROM slot + 1 FOR 1) = B'1', false)
$$;
--> statement-breakpoint
-- The bits of one product, read from the inventory: one character per slot up to the highest.
CREATE OR REPLACE FUNCTION product_in_stock_slots(product_key text) RETURNS bit varying
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT string_agg(CASE WHEN i."stock" > 0 THEN '1' ELSE '0' END, '' ORDER BY g.n)
       FROM generate_series(0, (SELECT max("slot") FROM "stores")) AS g(n)
       LEFT JOIN "stores" s ON s."slot" = g.n
       LEFT JOIN "inventory" i ON i."store_id" = s."id" AND i."product_id" = product_key),
    '')::bit varying
$$;
--> statement-breakpoint
UPDATE "products" SET "in_stock_slots" = product_in_stock_slots("id");
--> statement-breakpoint
-- 3. Kept by statement-level triggers on the inventory (transition tables: one set-based update per
--    write statement). Only products whose stock crossed 0 in some store are written, in id order so
--    that two writers lock them alike. Every writer of the inventory locks the product rows first
--    (api/modules/inventory/service.ts), so this update never waits on a row another writer holds
--    while holding an inventory row that writer wants.
CREATE OR REPLACE FUNCTION inventory_in_stock_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  DECLARE
    changed text[];
  BEGIN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT product_id) INTO changed FROM new_rows WHERE stock > 0;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT product_id) INTO changed FROM old_rows WHERE stock > 0;
    ELSE
      SELECT array_agg(DISTINCT n.product_id) INTO changed
        FROM new_rows n JOIN old_rows o ON o.store_id = n.store_id AND o.product_id = n.product_id
        WHERE (o.stock > 0) IS DISTINCT FROM (n.stock > 0);
    END IF;
    IF changed IS NULL THEN
      RETURN NULL;
    END IF;
    UPDATE products p SET in_stock_slots = s.bits
      FROM (SELECT c.id, product_in_stock_slots(c.id) AS bits FROM unnest(changed) AS c(id) ORDER BY c.id) s
      WHERE p.id = s.id AND p.in_stock_slots IS DISTINCT FROM s.bits;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER "inventory_in_stock_insert" AFTER INSERT ON "inventory"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_in_stock_sync();
--> statement-breakpoint
CREATE TRIGGER "inventory_in_stock_update" AFTER UPDATE ON "inventory"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_in_stock_sync();
--> statement-breakpoint
CREATE TRIGGER "inventory_in_stock_delete" AFTER DELETE ON "inventory"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_in_stock_sync();
