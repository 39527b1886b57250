-- The credit note of a refunded problem report (CGST Rules 2017, rule 53; docs/help-after-delivery.md, "Credit notes"; docs/decisions/0075-credit-notes-for-problem-reports.md): called in the transaction that refunds the report (automatic or approved, online or a cash note), after the report row is locked or written. Once per report (credit_notes_issue_key), numbered in the store's credit-note series for the year; nothing for an order with no invoice. Records the report's line, units and value (paise, GST included); the taxable value and tax are computed from them as the invoice's are (api/modules/invoice/credit-notes.ts).
CREATE OR REPLACE FUNCTION "issue_report_credit_note"(p_issue_id text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_issue "order_issues"%ROWTYPE;
  v_invoice text;
  v_invoiced_at timestamptz;
BEGIN
  SELECT * INTO v_issue FROM "order_issues" WHERE "id" = p_issue_id;
  IF NOT FOUND THEN RAISE EXCEPTION 'No problem report %', p_issue_id; END IF;
  SELECT "invoice_number", "invoice_issued_at" INTO v_invoice, v_invoiced_at FROM "orders" WHERE "id" = v_issue."order_id";
  IF v_invoice IS NULL THEN RETURN; END IF;
  IF EXISTS (SELECT 1 FROM "credit_notes" WHERE "order_issue_id" = p_issue_id) THEN RETURN; END IF;
  INSERT INTO "credit_notes" ("number", "order_id", "order_line_id", "reason", "invoice_number", "invoice_issued_at", "issued_at",
    "order_issue_id", "units", "amount_paise")
  VALUES (next_gst_document_number(split_part(v_invoice, '/', 1), 'credit_note', p_at), v_issue."order_id", v_issue."order_line_id",
    'problem_report', v_invoice, v_invoiced_at, p_at, p_issue_id, v_issue."units", v_issue."value_paise");
END
$$;
