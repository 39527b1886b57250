-- First defined in api/db/migrations/0020_store_stock_bits.sql; this file is its source from now on.
-- True when the product numbered `seq` is in stock according to `bits` (false past the end or on
-- null). Inlined by the planner, so a statement reading the bits once reads each bit in memory.
CREATE OR REPLACE FUNCTION stock_bit(bits bit varying, seq integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(seq < length(bits) AND get_bit(bits, seq) = 1, false)
$$;
