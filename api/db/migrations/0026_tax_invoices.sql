-- Tax invoices and credit notes per dark store (docs/decisions/0042-invoice-and-credit-note-numbering.md;
-- docs/commerce-api.md, "Tax invoice"). CGST Rules 2017, rule 46(b) and rule 53(1)(b): a consecutive
-- serial number of at most sixteen characters (letters, digits, "-" and "/"), unique for a financial
-- year, in one or more series.
--
-- 1. Each store is the supplier of the orders it delivers: its GSTIN (null: the seller's SELLER_GSTIN
--    from the environment, the fallback), its registered address (null: its address line, city and
--    PIN code) and its invoice series code (1-4 letters or digits, unique; the head of every number).
ALTER TABLE "stores" ADD COLUMN IF NOT EXISTS "gstin" text;
--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN IF NOT EXISTS "registered_address" text;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "store_invoice_code_seq";
--> statement-breakpoint
-- A store made without a code gets S1, S2, … (unique); an admin gives it a readable one.
ALTER TABLE "stores" ADD COLUMN IF NOT EXISTS "invoice_code" text DEFAULT ('S' || nextval('store_invoice_code_seq')::text) NOT NULL;
--> statement-breakpoint
ALTER TABLE "stores" DROP CONSTRAINT IF EXISTS "stores_invoice_code_check";
--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_invoice_code_check" CHECK ("invoice_code" ~ '^[A-Z0-9]{1,4}$');
--> statement-breakpoint
ALTER TABLE "stores" DROP CONSTRAINT IF EXISTS "stores_gstin_check";
--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_gstin_check" CHECK ("gstin" IS NULL OR "gstin" ~ '^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$');
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "stores_invoice_code_key" ON "stores" ("invoice_code");
--> statement-breakpoint
-- The seeded stores (migration 0010): one GSTIN per state (a registration per State, CGST Act s. 25),
-- test GSTINs of one PAN with valid check characters: Karnataka 29, Delhi 07, Maharashtra 27.
UPDATE "stores" SET "gstin" = v."gstin", "invoice_code" = v."code", "registered_address" = v."address"
FROM (VALUES
  ('storeBlrIndiranagar', '29AAAAA0000A1ZY', 'BLR1', '100 Feet Road, HAL 2nd Stage, Indiranagar' || chr(10) || 'Bengaluru, Karnataka 560038'),
  ('storeBlrKoramangala', '29AAAAA0000A1ZY', 'BLR2', '80 Feet Road, Koramangala 4th Block' || chr(10) || 'Bengaluru, Karnataka 560034'),
  ('storeBlrHsrLayout', '29AAAAA0000A1ZY', 'BLR3', '27th Main Road, HSR Layout Sector 1' || chr(10) || 'Bengaluru, Karnataka 560102'),
  ('storeDelConnaughtPlace', '07AAAAA0000A1Z4', 'DEL1', 'Block E, Connaught Place' || chr(10) || 'New Delhi, Delhi 110001'),
  ('storeDelHauzKhas', '07AAAAA0000A1Z4', 'DEL2', 'Aurobindo Marg, Hauz Khas' || chr(10) || 'New Delhi, Delhi 110016'),
  ('storeMumBandraWest', '27AAAAA0000A1Z2', 'MUM1', 'Hill Road, Bandra West' || chr(10) || 'Mumbai, Maharashtra 400050'),
  ('storeMumAndheriEast', '27AAAAA0000A1Z2', 'MUM2', 'Andheri-Kurla Road, Andheri East' || chr(10) || 'Mumbai, Maharashtra 400069')
) AS v("id", "gstin", "code", "address")
WHERE "stores"."id" = v."id";
--> statement-breakpoint
-- 2. A product's HSN code chosen by an admin (4, 6 or 8 digits); null: its shelf's heading
--    (api/modules/invoice/gst-rates.ts).
ALTER TABLE "products" ADD COLUMN IF NOT EXISTS "hsn" text;
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT IF EXISTS "products_hsn_check";
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_hsn_check" CHECK ("hsn" IS NULL OR "hsn" ~ '^[0-9]{4}([0-9]{2}){0,2}$');
--> statement-breakpoint
-- 3. An order's invoice: its number, the moment it was issued, and the supplier as it was then
--    (the store's id, name, GSTIN and registered address), so a later store edit never rewrites an
--    issued invoice.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "invoice_number" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "invoice_issued_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "invoice_supplier" jsonb;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "orders_invoice_number_key" ON "orders" ("invoice_number");
--> statement-breakpoint
-- The last number given in each series: (series code, financial year "26-27", kind invoice or
-- credit_note). The row is locked by the transaction that takes a number until it ends, so numbers
-- are consecutive and a rolled-back transaction gives its number back (no gap).
CREATE TABLE IF NOT EXISTS "gst_document_counters" (
  "series" text NOT NULL,
  "fy" text NOT NULL,
  "kind" text NOT NULL,
  "last" integer NOT NULL,
  PRIMARY KEY ("series", "fy", "kind"),
  CONSTRAINT "gst_document_counters_kind_check" CHECK ("kind" IN ('invoice', 'credit_note'))
);
--> statement-breakpoint
-- The Indian financial year (1 April to 31 March) of a moment in India Standard Time (UTC+05:30,
-- no daylight saving), as "26-27".
CREATE OR REPLACE FUNCTION "gst_financial_year"(p_at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lpad((y % 100)::text, 2, '0') || '-' || lpad(((y + 1) % 100)::text, 2, '0')
  FROM (SELECT CASE WHEN extract(month FROM d) >= 4 THEN extract(year FROM d)::int ELSE extract(year FROM d)::int - 1 END AS y
        FROM (SELECT (p_at AT TIME ZONE 'UTC') + interval '330 minutes' AS d) AS ist) AS fy
$$;
--> statement-breakpoint
-- The next number of a series: "BLR1/26-27/00001" for an invoice, "BLR1C/26-27/0001" for a credit
-- note (the sequence zero-padded to 5 or 4 digits, longer when it outgrows them). Raises when the
-- number would pass 16 characters (rule 46(b)): the store then needs a shorter series code.
CREATE OR REPLACE FUNCTION "next_gst_document_number"(p_series text, p_kind text, p_at timestamptz) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_fy text := gst_financial_year(p_at);
  v_n integer;
  v_seq text;
  v_number text;
BEGIN
  INSERT INTO "gst_document_counters" AS c ("series", "fy", "kind", "last") VALUES (p_series, v_fy, p_kind, 1)
    ON CONFLICT ("series", "fy", "kind") DO UPDATE SET "last" = c."last" + 1
    RETURNING c."last" INTO v_n;
  v_seq := v_n::text;
  IF p_kind = 'invoice' THEN
    IF length(v_seq) < 5 THEN v_seq := lpad(v_seq, 5, '0'); END IF;
    v_number := p_series || '/' || v_fy || '/' || v_seq;
  ELSE
    IF length(v_seq) < 4 THEN v_seq := lpad(v_seq, 4, '0'); END IF;
    v_number := p_series || 'C/' || v_fy || '/' || v_seq;
  END IF;
  IF length(v_number) > 16 THEN
    RAISE EXCEPTION 'GST document number % is longer than 16 characters: give store series % a shorter code', v_number, p_series;
  END IF;
  RETURN v_number;
END
$$;
--> statement-breakpoint
-- An order is invoiced once, when it becomes a placed cash-on-delivery order or a paid one: on the
-- insert of a placed COD order, or the update that marks an online order paid. The BEFORE trigger
-- writes the number into the very row, so it is given exactly once even when two requests race
-- (the second waits for the first's row lock and then sees the number). The issue moment is the
-- placement (COD) or the payment (paid), both written by the API's clock.
CREATE OR REPLACE FUNCTION "orders_issue_invoice"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_store "stores"%ROWTYPE;
  v_at timestamptz;
BEGIN
  IF NEW."invoice_number" IS NULL AND NEW."status" NOT IN ('payment_pending', 'cancelled')
     AND NEW."payment_state" IN ('cod', 'paid') THEN
    SELECT * INTO v_store FROM "stores" WHERE "id" = NEW."store_id";
    v_at := CASE WHEN NEW."payment_state" = 'paid' THEN coalesce(NEW."paid_at", now()) ELSE coalesce(NEW."created_at", now()) END;
    NEW."invoice_number" := next_gst_document_number(v_store."invoice_code", 'invoice', v_at);
    NEW."invoice_issued_at" := v_at;
    NEW."invoice_supplier" := jsonb_build_object(
      'storeId', v_store."id",
      'storeName', v_store."name",
      'gstin', v_store."gstin",
      'address', coalesce(v_store."registered_address",
        v_store."address_line" || chr(10) || v_store."city" || ' ' || v_store."pincode"));
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "orders_issue_invoice" ON "orders";
--> statement-breakpoint
CREATE TRIGGER "orders_issue_invoice" BEFORE INSERT OR UPDATE OF "status", "payment_state" ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "orders_issue_invoice"();
--> statement-breakpoint
-- 4. Credit notes (rule 53): one when an invoiced order is cancelled (the lines not credited yet and
--    the delivery charge), one per line refunded because it could not be delivered. Written by the
--    triggers below in the transaction of the cancel or of the refund row, in the series of the
--    invoice they reverse. Their lines and taxes are computed as the invoice's are
--    (api/modules/invoice/credit-notes.ts).
CREATE TABLE IF NOT EXISTS "credit_notes" (
  "number" text PRIMARY KEY NOT NULL,
  "order_id" text NOT NULL REFERENCES "orders"("id") ON DELETE restrict,
  -- The line refunded; null: the cancel of the order (every line not credited before).
  "order_line_id" text REFERENCES "order_lines"("id") ON DELETE restrict,
  "reason" text NOT NULL,
  "invoice_number" text NOT NULL,
  "invoice_issued_at" timestamp with time zone NOT NULL,
  "issued_at" timestamp with time zone NOT NULL,
  CONSTRAINT "credit_notes_reason_check" CHECK ("reason" IN ('cancelled', 'line_refund'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "credit_notes_order_idx" ON "credit_notes" ("order_id", "issued_at");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "credit_notes_line_key" ON "credit_notes" ("order_line_id") WHERE "order_line_id" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "credit_notes_cancel_key" ON "credit_notes" ("order_id") WHERE "order_line_id" IS NULL;
--> statement-breakpoint
-- A credit note of an invoiced order (CGST Rules 2017, rule 53): once per refunded line and once per cancel, numbered in the store's credit-note series for the year; nothing for an order with no invoice.
CREATE OR REPLACE FUNCTION "issue_credit_note"(p_order_id text, p_line_id text, p_reason text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_invoice text;
  v_invoiced_at timestamptz;
BEGIN
  SELECT "invoice_number", "invoice_issued_at" INTO v_invoice, v_invoiced_at FROM "orders" WHERE "id" = p_order_id;
  IF v_invoice IS NULL THEN RETURN; END IF;
  -- Once per line and once per cancel (a refund retried after a failure is a new refunds row).
  IF p_line_id IS NOT NULL AND EXISTS (SELECT 1 FROM "credit_notes" WHERE "order_line_id" = p_line_id) THEN RETURN; END IF;
  IF p_line_id IS NULL AND EXISTS (SELECT 1 FROM "credit_notes" WHERE "order_id" = p_order_id AND "order_line_id" IS NULL) THEN RETURN; END IF;
  INSERT INTO "credit_notes" ("number", "order_id", "order_line_id", "reason", "invoice_number", "invoice_issued_at", "issued_at")
  VALUES (next_gst_document_number(split_part(v_invoice, '/', 1), 'credit_note', p_at), p_order_id, p_line_id, p_reason,
    v_invoice, v_invoiced_at, p_at);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orders_credit_on_cancel"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM issue_credit_note(NEW."id", NULL, 'cancelled', coalesce(NEW."updated_at", now()));
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "orders_credit_on_cancel" ON "orders";
--> statement-breakpoint
CREATE TRIGGER "orders_credit_on_cancel" AFTER UPDATE OF "status" ON "orders"
  FOR EACH ROW WHEN (NEW."status" = 'cancelled' AND OLD."status" <> 'cancelled' AND NEW."invoice_number" IS NOT NULL)
  EXECUTE FUNCTION "orders_credit_on_cancel"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "refunds_credit_line"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM issue_credit_note(NEW."order_id", NEW."order_line_id", 'line_refund', coalesce(NEW."created_at", now()));
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "refunds_credit_line" ON "refunds";
--> statement-breakpoint
CREATE TRIGGER "refunds_credit_line" AFTER INSERT ON "refunds"
  FOR EACH ROW WHEN (NEW."order_line_id" IS NOT NULL)
  EXECUTE FUNCTION "refunds_credit_line"();
--> statement-breakpoint
-- Orders placed before this migration get their invoice numbers now, oldest first, as the trigger
-- would have given them (cancelled orders and orders never paid get none).
DO $$
DECLARE
  v_id text;
BEGIN
  FOR v_id IN SELECT "id" FROM "orders"
    WHERE "invoice_number" IS NULL AND "status" NOT IN ('payment_pending', 'cancelled') AND "payment_state" IN ('cod', 'paid')
    ORDER BY coalesce("paid_at", "created_at"), "id"
  LOOP
    UPDATE "orders" SET "status" = "status" WHERE "id" = v_id;
  END LOOP;
END
$$;
