-- First defined in api/db/migrations/0026_tax_invoices.sql; this file is its source from now on.
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
