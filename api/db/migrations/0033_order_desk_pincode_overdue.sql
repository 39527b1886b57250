-- The order desk (docs/commerce-api.md, "Admin orders at volume"): a search of six digits also
-- matches the delivery address's PIN code exactly, and `overdue` lists open orders whose promised
-- time has passed. A B-tree on the snapshot's pincode serves the first; a partial B-tree on
-- promised_at over open orders (a small share of all orders) the second.
CREATE INDEX IF NOT EXISTS "orders_pincode_idx" ON "orders" (("delivery_address"->>'pincode'));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_open_promised_idx" ON "orders" ("promised_at") WHERE "status" IN ('placed', 'packed', 'out_for_delivery');
