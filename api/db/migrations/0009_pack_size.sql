-- Pack sizes for the search (docs/search.md, "Pack sizes"): a product's unit as the catalogue stores
-- it ("500 g", "2x200 g", "1 kg", "200 g Pouch", "6 pcs", "Combo") read as
-- {kind, total, count, each}: kind 1 grams, 2 millilitres, 3 pieces; total = count x each in that
-- base unit (kg and mg to grams, l/ltr/litre to millilitres); null for a combo or a unit without a
-- size. The same rules as `packSize` in api/modules/search/sizes.ts, which a test holds it to over
-- the whole bundled catalogue. Read per match of a search that names a size (a few matches: the
-- search's words have already narrowed them), so no stored column.
CREATE OR REPLACE FUNCTION pack_size(unit text) RETURNS numeric[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE
      WHEN position('combo' IN t) > 0 THEN NULL
      WHEN m IS NOT NULL THEN (
        SELECT array[k.kind, round(c * round(a * k.factor, 3), 3), c, round(a * k.factor, 3)]
        FROM (SELECT CASE WHEN m[2] IS NULL THEN 1 ELSE m[1]::numeric END AS c,
                     coalesce(m[2], m[1])::numeric AS a) n,
             (SELECT CASE
                WHEN m[3] = 'mg' THEN 1 WHEN m[3] IN ('kg', 'kgs', 'kilo', 'kilos') THEN 1
                WHEN m[3] IN ('g', 'gm', 'gms', 'gr', 'grm', 'gram', 'grams') THEN 1
                WHEN m[3] IN ('ml', 'l', 'lt', 'ltr', 'ltrs', 'litre', 'litres', 'liter', 'liters') THEN 2
                ELSE 3 END AS kind,
                     CASE WHEN m[3] = 'mg' THEN 0.001 WHEN m[3] IN ('kg', 'kgs', 'kilo', 'kilos') THEN 1000
                          WHEN m[3] IN ('l', 'lt', 'ltr', 'ltrs', 'litre', 'litres', 'liter', 'liters') THEN 1000
                          ELSE 1 END AS factor) k
        WHERE a > 0 AND c > 0)
      WHEN p IS NOT NULL THEN array[3, coalesce(p[1], p[2])::numeric, 1, coalesce(p[1], p[2])::numeric]
    END
    FROM (SELECT lower(coalesce(unit, '')) AS t) s,
    LATERAL (SELECT regexp_match(t,
      '(?<![[:alnum:].])(\d+(?:\.\d+)?)\s*(?:[x×*]\s*(\d+(?:\.\d+)?)\s*)?(liters|litres|pieces|grams|kilos|liter|litre|piece|kilo|ltrs|gram|kgs|gms|grm|ltr|pcs|nos|mg|gm|gr|kg|ml|lt|pc|g|l|tablets|capsules|softgels|wipes|teabags|pulls|sachets|sachet)(?![[:alnum:]])') AS m) mm,
    LATERAL (SELECT regexp_match(t, '(?:set|pack) of (\d+)|(\d+)''s pack') AS p) pp
  $$;
