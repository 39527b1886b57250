-- First defined in api/db/migrations/0019_pack_groups.sql; this file is its source from now on.
-- Pack sizes as one card (docs/product.md, "Pack sizes"; docs/decisions/0029-pack-sizes-as-one-card.md).
-- A product's pack group: its brand and name, lower case, letters and digits only, with every size
-- the name mentions taken out ("Paneer - Premium Fresh" of Milky Mist, 200 g / 500 g / 1 kg / 2x200 g:
-- 'milky mist|paneer premium fresh'). Null, a group of its own, when the unit has no size
-- (`pack_size` is null: a combo) or the name is only a size. The same rule as `packGroupKey` in
-- api/modules/product/pack-groups.ts, which a test holds it to over the whole bundled catalogue; the
-- sizes removed from the name are those `pack_size` (migration 0009_pack_size) reads. PL/pgSQL, as
-- `pack_size`, so the generated column's expression calls one function.
CREATE OR REPLACE FUNCTION pack_group_key(name text, brand text, unit text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
  DECLARE
    n text;
  BEGIN
    IF pack_size(unit) IS NULL THEN
      RETURN NULL;
    END IF;
    n := regexp_replace(lower(coalesce(name, '')),
      '(?<![[:alnum:].])(\d+(?:\.\d+)?)\s*(?:[x×*]\s*(\d+(?:\.\d+)?)\s*)?(liters|litres|pieces|grams|kilos|liter|litre|piece|kilo|ltrs|gram|kgs|gms|grm|ltr|pcs|nos|mg|gm|gr|kg|ml|lt|pc|g|l|tablets|capsules|softgels|wipes|teabags|pulls|sachets|sachet)(?![[:alnum:]])',
      ' ', 'g');
    n := btrim(regexp_replace(n, '[^a-z0-9]+', ' ', 'g'));
    IF n = '' THEN
      RETURN NULL;
    END IF;
    RETURN btrim(regexp_replace(lower(coalesce(brand, '')), '[^a-z0-9]+', ' ', 'g')) || '|' || n;
  END
  $$;
