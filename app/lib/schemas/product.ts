/**
 * The product form's rules, shared by the browser (Conform validates as you type) and the BFF
 * actions of /dashboard/upload-product and /dashboard/product (the same schema decides on the server,
 * so the form works with JavaScript off). Fields, bounds and messages: docs/product.md, "Upload
 * Product" and "Product"; the API applies the same bounds (api/modules/product/schemas.ts,
 * docs/api-contract.md, "Catalogue"), so what the form accepts the API accepts.
 *
 * Why, where the original app (presence and "numeric" only) said nothing:
 * - an image and a category are required: without an image a product shows a blank card, without a
 *   category it appears on no home row or listing (docs/product.md, "Listings");
 * - the admin types the MRP and the Selling Price and the discount is derived: a typed discount made
 *   the API recompute the selling price from a rounded percentage, so saving a stock change moved
 *   the price (₹251 became ₹249.90) and MRP ₹289 at 10 % went live at ₹260.10 when ₹260 was meant
 *   (docs/commerce-api.md, "Products (addition)");
 * - two decimals at most: paise, and the `numeric(12,2)` columns of api/db/schema.ts; upper bounds
 *   keep a typo (an extra zero) from going live;
 * - an extra field's name must differ from the others' (without case and surrounding spaces), since
 *   two inputs with one name would overwrite each other in `more_details`, and may not be
 *   `__proto__`, `constructor` or `prototype`, which would set an object's prototype in a client that
 *   copies the map; the original app's dialog did not even refuse an empty name.
 *
 * Form shape: `name`, `description`, `image[i]` (urls of uploaded images), `category` and
 * `subCategory` (ids; several values), `unit`, `stock`, `price` (MRP), `sellingPrice`, and the extra fields as
 * `more_details[i].key` (a hidden input holding the field name) with `more_details[i].value` (the text
 * input labelled with that name). The output is the API's create payload, `more_details` as a map
 * (app/.server/api/admin.ts adds the `discount` the API requires, derived from the two prices).
 */
import { z } from 'zod'
import { asList, idList, ImageUrlSchema, requiredMessage, requiredText } from './fields.ts'
import { discountPercentOf, preciseDiscountLabel, sellingPrice, toPaise } from '../money.ts'
import {
  DETAIL_NAME_MAX_LENGTH,
  HsnSchema,
  DETAIL_VALUE_MAX_LENGTH,
  MORE_DETAILS_MAX,
  PRICE_MAX,
  PRODUCT_DESCRIPTION_MAX_LENGTH,
  PRODUCT_IMAGES_MAX,
  PRODUCT_NAME_MAX_LENGTH,
  PRODUCT_REFS_MAX,
  PRODUCT_UNIT_MAX_LENGTH,
  STOCK_MAX,
} from '../../../contract/product.ts'
import { DECIMAL_TEXT } from '../../../contract/fields.ts'

export const IMAGE_REQUIRED_MESSAGE = 'Upload at least one image'
export const CATEGORY_REQUIRED_MESSAGE = 'Select at least one category'
/** A selling price above the MRP (the API refuses it too: api/modules/product/writes.ts). */
export const SELLING_ABOVE_MRP_MESSAGE = 'Selling Price cannot be more than the MRP'
/** The Add Field dialog's messages (docs/product.md, "Upload Product"; the original app accepted an empty name). */
export const FIELD_NAME_REQUIRED_MESSAGE = 'Field name is required'
export const FIELD_NAME_DUPLICATE_MESSAGE = 'A field with this name already exists'
export const FIELD_NAME_TOO_LONG_MESSAGE = `Field name must be at most ${DETAIL_NAME_MAX_LENGTH} characters`
export const TOO_MANY_FIELDS_MESSAGE = `At most ${MORE_DETAILS_MAX} extra fields`
/** Names that would set an object's prototype when copied with `obj[name] = value` (the API refuses them too). */
const FORBIDDEN_FIELD_NAMES = new Set(['__proto__', 'constructor', 'prototype'])

/** The labels the page shows; messages use the same words. */
export const PRODUCT_FIELD_LABELS = {
  name: 'Name',
  description: 'Description',
  image: 'Image',
  category: 'Category',
  subCategory: 'Sub Category',
  unit: 'Unit',
  stock: 'Number of Stock',
  price: 'MRP',
  sellingPrice: 'Selling Price',
  /** Shown, not typed: derived from MRP and Selling Price. */
  discount: 'Discount',
  hsn: 'HSN code (optional)',
} as const

/**
 * A numeric form field (docs/product.md, "Validation rules": stock, price, discount are numeric and
 * required). Input is the text of the input; output a number in [0, max] with at most `decimals` decimals.
 */
function numberField(
  label: string,
  {
    max,
    decimals,
    tooHighMessage,
    isZeroAllowed = true,
  }: { max: number; decimals: number; tooHighMessage?: string; isZeroAllowed?: boolean },
) {
  const required = requiredMessage(label)
  // One message per problem: a price at or below zero is "must be more than 0", not also "negative".
  const lowest = isZeroAllowed ? z.number().min(0, `${label} cannot be negative`) : z.number().gt(0, `${label} must be more than 0`)
  return z
    .string({ error: required })
    .transform((text) => text.replace(/[\s,]/g, ''))
    .pipe(z.string({ error: required }).min(1, required).regex(DECIMAL_TEXT, `${label} must be a number`))
    .transform(Number)
    .pipe(
      lowest
        .max(max, tooHighMessage ?? `${label} cannot be more than ${max.toLocaleString('en-IN')}`)
        .refine(
          (value) => Number.isInteger(Math.round(value * 10 ** decimals * 1e6) / 1e6),
          decimals === 0 ? `${label} must be a whole number` : `${label} can have at most ${decimals} decimal places`,
        ),
    )
}

/**
 * Why `name` cannot be a new extra field, or null when it can: empty, too long, or (without case and
 * surrounding spaces) equal to one of `existing`. Used by the Add Field dialog (browser) and by the
 * BFF when the dialog is submitted without JavaScript.
 */
export function fieldNameError(name: string | null | undefined, existing: readonly string[]): string | null {
  return nameProblem(name, existing) ?? (existing.length >= MORE_DETAILS_MAX ? TOO_MANY_FIELDS_MESSAGE : null)
}

function nameProblem(name: string | null | undefined, existing: readonly string[]): string | null {
  const trimmed = (name ?? '').trim()
  if (!trimmed) return FIELD_NAME_REQUIRED_MESSAGE
  if (trimmed.length > DETAIL_NAME_MAX_LENGTH) return FIELD_NAME_TOO_LONG_MESSAGE
  if (FORBIDDEN_FIELD_NAMES.has(trimmed)) return `"${trimmed}" cannot be a field name`
  const key = trimmed.toLocaleLowerCase('en-IN')
  if (existing.some((other) => other.trim().toLocaleLowerCase('en-IN') === key)) return FIELD_NAME_DUPLICATE_MESSAGE
  return null
}

const ExtraFieldSchema = z.object({ key: z.string().optional(), value: z.string().optional() })

/**
 * The extra fields (`more_details`): every one required (docs/product.md, "Validation rules"), names
 * unique and non-empty. Name problems are reported on the list (`more_details`), a missing value on
 * that field's input.
 */
const MoreDetailsSchema = z.preprocess(
  asList,
  z
    .array(ExtraFieldSchema)
    .max(MORE_DETAILS_MAX, TOO_MANY_FIELDS_MESSAGE)
    .superRefine((fields, ctx) => {
      const seen: string[] = []
      const reported = new Set<string>()
      fields.forEach((field, index) => {
        const key = field.key?.trim() ?? ''
        const nameError = nameProblem(key, seen)
        if (nameError && !reported.has(nameError)) {
          reported.add(nameError)
          ctx.addIssue({ code: 'custom', message: nameError, path: [] })
        }
        seen.push(key)
        const value = field.value?.trim() ?? ''
        const label = key || 'This field'
        if (!value) ctx.addIssue({ code: 'custom', message: requiredMessage(label), path: [index, 'value'] })
        else if (value.length > DETAIL_VALUE_MAX_LENGTH)
          ctx.addIssue({
            code: 'custom',
            message: `${label} must be at most ${DETAIL_VALUE_MAX_LENGTH} characters`,
            path: [index, 'value'],
          })
      })
    })
    .transform((fields) => Object.fromEntries(fields.map((field) => [field.key!.trim(), field.value!.trim()])) as Record<string, string>),
)

/** The product form (create and edit); output = the API's create payload (docs/api-contract.md, "Endpoints"). */
export const ProductFormSchema = z
  .object({
    name: requiredText(PRODUCT_FIELD_LABELS.name, PRODUCT_NAME_MAX_LENGTH),
    description: requiredText(PRODUCT_FIELD_LABELS.description, PRODUCT_DESCRIPTION_MAX_LENGTH),
    image: z.preprocess(
      asList,
      z
        .array(ImageUrlSchema.optional())
        .transform((urls) => [...new Set(urls.filter((url): url is string => Boolean(url)))])
        .pipe(z.array(z.string()).min(1, IMAGE_REQUIRED_MESSAGE).max(PRODUCT_IMAGES_MAX, `At most ${PRODUCT_IMAGES_MAX} images`)),
    ),
    category: idList(PRODUCT_FIELD_LABELS.category, PRODUCT_REFS_MAX).pipe(z.array(z.string()).min(1, CATEGORY_REQUIRED_MESSAGE)),
    subCategory: idList(PRODUCT_FIELD_LABELS.subCategory, PRODUCT_REFS_MAX),
    unit: requiredText(PRODUCT_FIELD_LABELS.unit, PRODUCT_UNIT_MAX_LENGTH),
    stock: numberField(PRODUCT_FIELD_LABELS.stock, { max: STOCK_MAX, decimals: 0 }),
    price: numberField(PRODUCT_FIELD_LABELS.price, { max: PRICE_MAX, decimals: 2, isZeroAllowed: false }),
    sellingPrice: numberField(PRODUCT_FIELD_LABELS.sellingPrice, { max: PRICE_MAX, decimals: 2 }),
    more_details: MoreDetailsSchema,
    // Empty: null, so an edit clears it and the invoice prints the shelf's heading (contract/product.ts `HsnSchema`).
    hsn: z
      .string()
      .trim()
      .optional()
      .transform((text) => text || undefined)
      .pipe(HsnSchema.optional())
      .transform((hsn) => hsn ?? null),
  })
  // Compared in paise (both have at most two decimals), once both amounts are valid, whatever the
  // other fields hold, so the message shows beside the other errors.
  .refine((value) => toPaise(value.sellingPrice) <= toPaise(value.price), {
    message: SELLING_ABOVE_MRP_MESSAGE,
    path: ['sellingPrice'],
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'price' || issue.path?.[0] === 'sellingPrice'),
  })
export type ProductFormValue = z.output<typeof ProductFormSchema>

/**
 * The discount the form shows beside MRP and Selling Price, from the text of the two inputs:
 * "12.5% OFF" (floored to two decimals; the storefront's badge shows the whole percent), "No discount" when the selling
 * price is the MRP, or null while either is not a usable amount or the selling price is above the MRP.
 */
export function derivedDiscountText(mrpText: unknown, sellingText: unknown): string | null {
  const amount = (text: unknown) => {
    const clean = typeof text === 'string' ? text.replace(/[\s,]/g, '') : ''
    return DECIMAL_TEXT.test(clean) ? Number(clean) : Number.NaN
  }
  const mrp = amount(mrpText)
  const selling = amount(sellingText)
  if (!(mrp > 0) || !(selling >= 0) || toPaise(selling) > toPaise(mrp)) return null
  return preciseDiscountLabel(discountPercentOf(mrp, selling)) ?? 'No discount'
}

/** The form's default values for an existing product (edit): numbers as text, extra fields as a list. */
export function productFormDefaults(product: {
  name: string
  description: string
  image: string[]
  category: Array<{ _id: string } | string>
  subCategory: Array<{ _id: string } | string>
  unit: string
  stock: number
  price: number
  /** The stored selling price: shown as is, so a save that does not touch it sends it back unchanged. */
  sellingPrice?: number | null
  discount: number
  more_details: Record<string, string> | null | undefined
  /** The admin's HSN code, when the product has one. */
  hsn?: string | null
}) {
  const id = (ref: { _id: string } | string) => (typeof ref === 'string' ? ref : ref._id)
  return {
    name: product.name,
    description: product.description ?? '',
    image: product.image ?? [],
    category: (product.category ?? []).map(id),
    subCategory: (product.subCategory ?? []).map(id),
    unit: product.unit ?? '',
    stock: String(product.stock ?? ''),
    price: String(product.price ?? ''),
    // An older answer without `sellingPrice`: the MRP less the discount, as the API derives it.
    sellingPrice: String(product.sellingPrice ?? sellingPrice(product.price, product.discount)),
    more_details: Object.entries(product.more_details ?? {}).map(([key, value]) => ({ key, value: String(value) })),
    hsn: product.hsn ?? '',
  }
}

// The form's wire names, shared by the page (app/components/product-form.tsx) and the BFF actions
// (app/.server/product-form.ts).

/** The `intent` values of the product form's submit buttons and fetchers. */
export const PRODUCT_INTENT = {
  /** Create (upload-product) or update (edit) the product. */
  save: 'save',
  /** One image picked with JavaScript, uploaded at once through a fetcher (multipart field `image`). */
  upload: 'upload',
  /** Without JavaScript: the Add Field dialog's button (the new name is in FIELD_NAME_FIELD). */
  addField: 'add-field',
  /** Without JavaScript: remove extra field `i`, sent as `remove-field:<i>`. */
  removeField: 'remove-field',
  /** Without JavaScript: keep what was typed, upload the picked files, show the form again (opens Add Field). */
  refresh: 'refresh',
  /** Delete the product (list page's confirm dialog). */
  delete: 'delete',
} as const
/** The multiple file input of the form without JavaScript. */
export const IMAGE_FILES_FIELD = 'imageFile'
/** Without JavaScript: checkboxes naming uploaded image urls to drop on the next submit. */
export const REMOVE_IMAGE_FIELD = 'removeImage'
/** The Add Field dialog's text input. */
export const FIELD_NAME_FIELD = 'fieldName'
/** The search parameter that opens the Add Field dialog (`?add-field=1`). */
export const ADD_FIELD_PARAM = 'add-field'

/** A choice of the form's Category or Sub Category picker: the posted `value` (an id) and the `label` shown. */
export interface ProductChoice {
  value: string
  label: string
}

/** A sub category choice with the ids of its categories (to narrow the list to the picked categories). */
export interface SubCategoryChoice extends ProductChoice {
  categoryIds: string[]
}

/** The Category and Sub Category choices of the form, from the catalogue lists (in their order). */
export function productFormOptions(
  categories: ReadonlyArray<{ _id: string; name: string }>,
  subCategories: ReadonlyArray<{ _id: string; name: string; category: ReadonlyArray<{ _id: string } | string> }>,
): { categories: ProductChoice[]; subCategories: SubCategoryChoice[] } {
  return {
    categories: categories.map((category) => ({ value: category._id, label: category.name })),
    subCategories: subCategories.map((sub) => ({
      value: sub._id,
      label: sub.name,
      categoryIds: (sub.category ?? []).map((ref) => (typeof ref === 'string' ? ref : ref._id)),
    })),
  }
}
