/**
 * Paging and search text of the list endpoints (docs/api-contract.md, "Paging").
 * Missing paging fields are defaults, not errors (the original crashed on them); a page size above
 * the cap is lowered to it, not refused.
 */
import { z } from 'zod'

/** Page used when the body gives none. */
export const DEFAULT_PAGE = 1
/** Page size used when the body gives none (docs/api-contract.md, "Paging"). */
export const DEFAULT_LIMIT = 10
/** Largest page size served; larger asks are lowered to it, not refused (docs/api-contract.md, "Paging"). */
export const MAX_LIMIT = 100
/** Largest page number accepted; keeps OFFSET within reason. */
export const MAX_PAGE = 100_000
/** Longest search text accepted, in characters (the admin list's search box uses it too). */
export const MAX_SEARCH_LENGTH = 200

const WHOLE_NUMBER = 'Expected a whole number'

/**
 * A positive whole number given as a JSON number or as digits in a string (form posts send
 * strings); `null` or absent means "use the default".
 */
function positiveInt(max: number) {
  // The document's digits stay below `max` (at most as many digits as `max` less one): stricter, never looser.
  const digits = `^[1-9][0-9]{0,${String(max).length - 2}}$`
  return z
    .union([z.number(), z.string().trim().regex(/^\d+$/, WHOLE_NUMBER).transform(Number)], { error: WHOLE_NUMBER })
    .pipe(z.number().int(WHOLE_NUMBER).min(1, 'Must be at least 1').max(max, `Must be at most ${max}`))
    .nullish()
    .meta({ anyOf: [{ type: 'integer', minimum: 1, maximum: max }, { type: 'string', pattern: digits }, { type: 'null' }] })
}

/** `page`: 1-based page number, default 1. */
export const PageSchema = positiveInt(MAX_PAGE).transform((v) => v ?? DEFAULT_PAGE)
/** `limit`: page size, default 10, capped at 100. */
export const LimitSchema = positiveInt(Number.MAX_SAFE_INTEGER).transform((v) => Math.min(v ?? DEFAULT_LIMIT, MAX_LIMIT))
/** `search`: free text, default '' (everything). */
export const SearchSchema = z
  .string({ error: 'Expected text' })
  .max(MAX_SEARCH_LENGTH, `At most ${MAX_SEARCH_LENGTH} characters`)
  .nullish()
  .transform((v) => v ?? '')

/**
 * The keys a paged list answers beside its `data` (docs/api-contract.md, "Paging"): `totalCount`, the
 * items all pages hold, and `totalNoPage`, the pages of `limit` items ({@link pageCount}).
 */
export const PagingExtraShape = { totalCount: z.number(), totalNoPage: z.number() }
export const PagingExtraSchema = z.object(PagingExtraShape)
export type PagingExtra = z.output<typeof PagingExtraSchema>

/** Number of pages of `limit` items needed for `totalCount` items (0 when there is none). */
export const pageCount = (totalCount: number, limit: number) => Math.ceil(totalCount / limit)
