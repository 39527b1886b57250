-- First defined in api/db/migrations/0026_tax_invoices.sql; this file is its source from now on.
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
