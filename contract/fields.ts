/**
 * Field rules every resource's schemas share (docs/api.md, "The folder contract/"): ids, one-line labels,
 * lists of category or sub category references, the read version of an edit, and the url of a stored
 * image. Every body is parsed by a zod schema built from these, so a wrong type (an object where text
 * belongs, `{"$ne": null}`) is a 400 with field issues and never reaches a query (docs/api-contract.md,
 * "Differences from the original contract"; OWASP Input Validation Cheat Sheet). Unknown keys are dropped, so the original client's
 * extra fields do no harm.
 */
import { z } from 'zod'
import { isStoredImagePath } from './images.ts'
import { ID_MAX_LENGTH } from './ids.ts'

// C0/C1 control characters (line breaks, NUL, escape…) have no place in a one-line label.
export const CONTROL_CHARACTERS = /\p{Cc}/u

/*
 * The rules below that zod checks with code (a refine, a trim before a length) are also written into
 * the OpenAPI document as JSON Schema `pattern`s, so that everything the document calls valid the
 * server accepts (docs/api.md, "How the API uses it"). A pattern is checked against the value as sent,
 * before any trim: it may be stricter than the server (refusing padding), never looser. Character
 * classes are spelt with `\u` escapes, which ECMA-262 and the other usual regex dialects read alike.
 */
/** What String.prototype.trim removes (ECMA-262 WhiteSpace and LineTerminator). */
const TRIMMED = '\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'
/** The C0 and C1 control characters with DEL (Unicode general category Cc). */
const CC = '\\u0000-\\u001f\\u007f-\\u009f'
/** The characters no stored text may hold: Cc less tab, line feed and carriage return (api/lib/safe-text.ts). */
const UNSAFE = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f'
/** JSON Schema pattern of any text a body may hold (api/lib/safe-text.ts: no control character but tab and line breaks). */
export const SAFE_TEXT_PATTERN = `^[^${UNSAFE}]*$`
/** JSON Schema pattern: safe text that is not blank (the server trims it and requires something left). */
export const NOT_BLANK_PATTERN = `^[^${UNSAFE}]*[^${UNSAFE}${TRIMMED}][^${UNSAFE}]*$`
/** JSON Schema pattern: text without any control character, possibly empty. */
export const ONE_LINE_OR_EMPTY_PATTERN = `^[^${CC}]*$`
/** JSON Schema pattern: text without any control character and not blank (a one-line label). */
export const ONE_LINE_PATTERN = `^[^${CC}]*[^${CC}${TRIMMED}][^${CC}]*$`

/** An opaque id as text; its format is not checked here (an unknown id is simply not found). */
export const IdSchema = z
  .string({ error: 'Expected an id (text)' })
  .trim()
  .min(1, 'Expected an id')
  .max(ID_MAX_LENGTH, 'Not an id')
  .meta({ pattern: NOT_BLANK_PATTERN })

/** `_id` of the entity an update or delete names (required; an unknown one is a 404 later). */
export const TargetIdSchema = z
  .string({ error: (iss) => (iss.input === undefined ? '_id is required' : 'Expected an id (text)') })
  .trim()
  .min(1, '_id is required')
  .max(ID_MAX_LENGTH, 'Not an id')
  .meta({ pattern: NOT_BLANK_PATTERN })

/**
 * A required one-line text (a name, a unit): trimmed, 1..max characters, no control characters.
 * Messages use the form's label ("Name is required"; docs/product.md, "Validation rules").
 */
export function lineText(label: string, max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), `${label} must be one line of text`)
    .meta({ pattern: ONE_LINE_PATTERN })
}

/**
 * A list of `item`s with `min`..`max` entries. The length checks run on lists only: zod runs them on
 * any input with a `length`, so a 24-character id sent instead of a list would also be told "at most
 * 20 entries". Being a `z.array`, the document shows its items; the bounds are written in.
 * @param messages.required when the field is absent (and `min` > 0); `notAList` for any other non-list
 */
export function listOf<T extends z.ZodType>(
  item: T,
  { min, max, messages }: { min: number; max: number; messages: { required: string; notAList: string; tooFew: string; tooMany: string } },
) {
  const isList = (payload: { value: unknown }) => Array.isArray(payload.value)
  return z
    .array(item, { error: (iss) => (iss.input === undefined && min > 0 ? messages.required : messages.notAList) })
    .refine((list) => list.length >= min, { error: messages.tooFew, when: isList })
    .refine((list) => list.length <= max, { error: messages.tooMany, when: isList })
    .meta({ minItems: min, maxItems: max })
}

/**
 * A list of references to categories or sub categories, each an id or an object with an `_id` (the
 * original client sends `{ _id, name }` objects; docs/api-contract.md, "Catalogue"). Output: the ids,
 * in the order given, duplicates kept (the services drop them and report unknown ids by their index here).
 * @param label the entity's word ("category", "sub category") for messages
 */
export function refList(label: string, { min, max }: { min: number; max: number }) {
  const ref = z
    .union([IdSchema, z.object({ _id: IdSchema }).loose()], { error: `Expected a ${label} id or a { _id } object` })
    .transform((r) => (typeof r === 'string' ? r : r._id))
  const tooFew = `Choose at least ${min} ${label}`
  return listOf(ref, {
    min,
    max,
    messages: { required: tooFew, notAList: `Expected a list of ${label} ids`, tooFew, tooMany: `At most ${max} ${label} entries` },
  })
}

/**
 * The version an admin read: the entity's `updatedAt` as answered (ISO 8601). Optional: the original
 * client sends none and its update is applied as before; when given, a row changed since answers 409
 * (optimistic concurrency, docs/decisions/0008-catalogue-writes.md).
 */
export const ReadVersionSchema = z.iso
  .datetime({ offset: true, error: 'updatedAt must be the ISO 8601 time the item was read' })
  // The document gives the exact shape zod accepts: `format: date-time` (RFC 3339) alone also allows a
  // lower-case `t` or `z` and a leap second.
  .meta({ format: 'date-time', pattern: z.regexes.datetime({ offset: true }).source })
  .optional()

/** Issue message of an image url that is not one of the store's stored images. */
export const NOT_OUR_IMAGE = 'Not an uploaded image: upload it with /api/file/upload first'
/** Longest image url accepted, in characters. */
export const IMAGE_URL_MAX_LENGTH = 2048
/** A site-relative path (not `//host`, which is another site) or an https/http url. */
const SAFE_URL_START = /^(?:\/(?!\/)|https?:\/\/)/i

/** True when `url` may name a stored image: a safe start and the stored-image name at its end (contract/images.ts). */
export function isStoredImageUrlShape(url: string): boolean {
  return SAFE_URL_START.test(url) && isStoredImagePath(url)
}

/**
 * An image url in a request body: text of the stored-image shape (a path or an http(s) url ending in
 * `<hash>.webp`, docs/decisions/0004-images.md). `javascript:`, `data:` and anything else is refused
 * here; whether the storage really holds it is checked by the API (api/modules/file/service.ts
 * `assertStoredImages`), which needs the storage.
 */
export const ImageUrlSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'Image is required' : 'Expected an image url (text)') })
  .trim()
  .min(1, 'Image is required')
  .max(IMAGE_URL_MAX_LENGTH, 'Image url is too long')
  // An empty url is already reported as required: one issue per problem.
  .refine((url) => url === '' || isStoredImageUrlShape(url), NOT_OUR_IMAGE)
  .meta({ pattern: `^(?:/(?!/)|[Hh][Tt][Tt][Pp][Ss]?://)[^${CC}${TRIMMED}]*/[0-9a-f]{24}(?:-sq)?\\.webp$` })

/** `updatedAt`/`createdAt` of an answer: ISO 8601 text. */
export const TimestampSchema = z.string().meta({ format: 'date-time' })

/**
 * Plain decimal notation: digits with an optional fraction and sign. No exponent, hex, `Infinity`,
 * nor empty text: `Number()` reads `"0x10"` as 16, `"1e1"` as 10 and `""` or `" "` as 0, so text
 * goes through this pattern before it becomes a number (OWASP Input Validation Cheat Sheet: allow
 * lists of what is expected).
 */
export const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/

/**
 * A number given as a JSON number or as its plain decimal text (form posts and query strings send
 * text), as a number; anything else is refused with `notANumber` (`missing` when absent). Bounds
 * and wholeness are the caller's `.pipe(z.number()…)`.
 */
export function decimalNumber(notANumber: string, missing = notANumber) {
  return z.union([z.number(), z.string().trim().regex(DECIMAL_TEXT, notANumber).transform(Number)], {
    error: (iss) => (iss.input === undefined ? missing : notANumber),
  })
}
