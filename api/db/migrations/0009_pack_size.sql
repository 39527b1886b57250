-- Pack sizes for the search (docs/search.md, "Pack sizes"): a product's unit as the catalogue stores
-- it ("500 g", "2x200 g", "1 kg", "200 g Pouch", "6 pcs", "Combo") read as
-- {kind, total, count, each}: kind 1 grams, 2 millilitres, 3 pieces; total = count x each in that
-- base unit (kg and mg to grams, l/ltr/litre to millilitres); null for a combo or a unit without a
-- size. The same rules as `packSize` in api/modules/product/sizes.ts, which a test holds it to over
-- the whole bundled catalogue. Stored on the row (`search_pack`), computed when the unit is
-- written: read per match of a search, the function cost half a millisecond a match on PGlite
-- ("oil 1 l": 1.6 s), the stored array a comparison. PL/pgSQL, not SQL: a SQL function with a
-- FROM clause is not inlined and re-runs its subqueries per call (measured 15 times slower).
CREATE OR REPLACE FUNCTION pack_size(unit text) RETURNS numeric[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
  DECLARE
    t text := lower(coalesce(unit, ''));
    m text[];
    c numeric;
    a numeric;
    f numeric;
    k integer;
  BEGIN
    IF position('combo' IN t) > 0 THEN
      RETURN NULL;
    END IF;
    m := regexp_match(t,
      '(?<![[:alnum:].])(\d+(?:\.\d+)?)\s*(?:[x×*]\s*(\d+(?:\.\d+)?)\s*)?(liters|litres|pieces|grams|kilos|liter|litre|piece|kilo|ltrs|gram|kgs|gms|grm|ltr|pcs|nos|mg|gm|gr|kg|ml|lt|pc|g|l|tablets|capsules|softgels|wipes|teabags|pulls|sachets|sachet)(?![[:alnum:]])');
    IF m IS NOT NULL THEN
      IF m[2] IS NULL THEN
        c := 1;
        a := m[1]::numeric;
      ELSE
        c := m[1]::numeric;
        a := m[2]::numeric;
      END IF;
      IF a <= 0 OR c <= 0 THEN
        RETURN NULL;
      END IF;
      k := CASE
        WHEN m[3] IN ('mg', 'g', 'gm', 'gms', 'gr', 'grm', 'gram', 'grams', 'kg', 'kgs', 'kilo', 'kilos') THEN 1
        WHEN m[3] IN ('ml', 'l', 'lt', 'ltr', 'ltrs', 'litre', 'litres', 'liter', 'liters') THEN 2
        ELSE 3 END;
      f := CASE
        WHEN m[3] = 'mg' THEN 0.001
        WHEN m[3] IN ('kg', 'kgs', 'kilo', 'kilos', 'l', 'lt', 'ltr', 'ltrs', 'litre', 'litres', 'liter', 'liters') THEN 1000
        ELSE 1 END;
      a := round(a * f, 3);
      RETURN array[k, round(c * a, 3), c, a];
    END IF;
    m := regexp_match(t, '(?:set|pack) of (\d+)|(\d+)''s pack');
    IF m IS NOT NULL THEN
      RETURN array[3, coalesce(m[1], m[2])::numeric, 1, coalesce(m[1], m[2])::numeric];
    END IF;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_pack" numeric[] GENERATED ALWAYS AS (pack_size("unit")) STORED;
