-- First defined in api/db/migrations/0026_tax_invoices.sql; this file is its source from now on.
-- An invoiced order cancelled: one credit note for what is left of it (issue_credit_note).
CREATE OR REPLACE FUNCTION "orders_credit_on_cancel"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM issue_credit_note(NEW."id", NULL, 'cancelled', coalesce(NEW."updated_at", now()));
  RETURN NULL;
END
$$;
