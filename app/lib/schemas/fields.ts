/**
 * Field rules shared by the admin forms' schemas (app/lib/schemas/product.ts, catalog.ts): a required
 * labelled text, a list of ids posted as repeated fields, and the url of an uploaded image. Form values
 * arrive as strings; Conform turns an empty field into `undefined`, so "missing", "empty" and "only
 * spaces" all answer the same "<label> is required".
 */
import { z } from 'zod'
import { IMAGE_URL_MAX_LENGTH, isStoredImageUrlShape } from '../../../contract/fields.ts'

/** "X is required", the message of an empty required field. */
export const requiredMessage = (label: string) => `${label} is required`

/** A required text field: trimmed, 1..`max` characters; "<label> is required" when missing or blank. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: requiredMessage(label) })
    .trim()
    .min(1, requiredMessage(label))
    .max(max, `${label} must be at most ${max} characters`)

/** One value or several (a multi-select or repeated hidden inputs send the name once per choice), as a list. */
export const asList = (value: unknown) =>
  value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value]

/** A list of ids (categories, sub categories): trimmed, blanks and duplicates dropped, order kept, at most `max`. */
export const idList = (label: string, max: number) =>
  z.preprocess(
    asList,
    z
      .array(z.string().optional())
      .transform((ids) => [...new Set(ids.map((id) => id?.trim() ?? '').filter(Boolean))])
      .pipe(z.array(z.string().max(64, `Unknown ${label.toLowerCase()}`)).max(max, `At most ${max} in ${label}`)),
  )

/**
 * An image url kept by a form: one the upload answered, by the rule the API applies
 * (contract/fields.ts `isStoredImageUrlShape`: a site path or http(s) url ending in a stored image's
 * name). Anything else (`javascript:`, `data:`, another site's picture) is refused, so no tampered
 * hidden input reaches an `<img src>` or the API.
 */
export const ImageUrlSchema = z
  .string()
  .trim()
  .max(IMAGE_URL_MAX_LENGTH, 'Image address is too long')
  .refine((url) => url === '' || isStoredImageUrlShape(url), 'Not an uploaded image')
