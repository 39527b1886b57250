-- First defined in api/db/migrations/0026_tax_invoices.sql; this file is its source from now on.
-- The Indian financial year (1 April to 31 March) of a moment in India Standard Time (UTC+05:30,
-- no daylight saving), as "26-27".
CREATE OR REPLACE FUNCTION "gst_financial_year"(p_at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lpad((y % 100)::text, 2, '0') || '-' || lpad(((y + 1) % 100)::text, 2, '0')
  FROM (SELECT CASE WHEN extract(month FROM d) >= 4 THEN extract(year FROM d)::int ELSE extract(year FROM d)::int - 1 END AS y
        FROM (SELECT (p_at AT TIME ZONE 'UTC') + interval '330 minutes' AS d) AS ist) AS fy
$$;
