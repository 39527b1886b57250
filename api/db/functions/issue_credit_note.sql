-- First defined in api/db/migrations/0026_tax_invoices.sql; this file is its source from now on.
-- A credit note of an invoiced order (CGST Rules 2017, rule 53): once per refunded line and once per cancel, numbered in the store's credit-note series for the year; nothing for an order with no invoice.
CREATE OR REPLACE FUNCTION "issue_credit_note"(p_order_id text, p_line_id text, p_reason text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_invoice text;
  v_invoiced_at timestamptz;
BEGIN
  SELECT "invoice_number", "invoice_issued_at" INTO v_invoice, v_invoiced_at FROM "orders" WHERE "id" = p_order_id;
  IF v_invoice IS NULL THEN RETURN; END IF;
  -- Once per line and once per cancel (a refund retried after a failure is a new refunds row); a
  -- problem report's note of the line (migration 0048) is not a whole-line note: the line's note then
  -- credits what is left of it (api/modules/invoice/credit-notes.ts).
  IF p_line_id IS NOT NULL AND EXISTS (SELECT 1 FROM "credit_notes" WHERE "order_line_id" = p_line_id AND "order_issue_id" IS NULL) THEN RETURN; END IF;
  IF p_line_id IS NULL AND EXISTS (SELECT 1 FROM "credit_notes" WHERE "order_id" = p_order_id AND "order_line_id" IS NULL) THEN RETURN; END IF;
  INSERT INTO "credit_notes" ("number", "order_id", "order_line_id", "reason", "invoice_number", "invoice_issued_at", "issued_at")
  VALUES (next_gst_document_number(split_part(v_invoice, '/', 1), 'credit_note', p_at), p_order_id, p_line_id, p_reason,
    v_invoice, v_invoiced_at, p_at);
END
$$;
