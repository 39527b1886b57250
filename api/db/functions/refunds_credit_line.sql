-- First defined in api/db/migrations/0026_tax_invoices.sql; this file is its source from now on.
-- A refund of one line of an invoiced order: one credit note for that line (issue_credit_note).
CREATE OR REPLACE FUNCTION "refunds_credit_line"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM issue_credit_note(NEW."order_id", NEW."order_line_id", 'line_refund', coalesce(NEW."created_at", now()));
  RETURN NULL;
END
$$;
