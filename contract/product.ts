/**
 * The product endpoints' bodies and answers (docs/api-contract.md, "Endpoints", "Paging" and
 * "Catalogue"): the reads first, then create and update-product-details (docs/product.md, "Entities"
 * and "Validation rules"), then the Product as every read answers it. The product limits live here
 * once: the API applies them and the admin form (app/lib/schemas/product.ts) reuses them.
 *
 * Missing paging fields are defaults, not errors (docs/api-contract.md, "Differences from the
 * original contract": missing paging fields crashed the original). Wrong types are a 400: an object
 * where a string or number belongs is never passed on to a query (docs/api-contract.md, "Differences
 * from the original contract": `{"$ne": null}` query objects; OWASP Input Validation Cheat Sheet).
 * Unknown keys are dropped, so the original client's extra fields do no harm.
 */
import { z } from 'zod'
import {
  decimalNumber,
  IdSchema,
  ImageUrlSchema,
  lineText,
  listOf,
  NOT_BLANK_PATTERN,
  ReadVersionSchema,
  refList,
  TargetIdSchema,
  TimestampSchema,
} from './fields.ts'
import { LimitSchema, PageSchema, SearchSchema } from './paging.ts'

/** Most category ids one by-category call may name (the catalogue has 11 categories). */
export const MAX_CATEGORY_IDS = 100

export { IdSchema, LimitSchema, PageSchema, SearchSchema }

/** One id or a list of ids, normalised to a list without duplicates (order kept). */
const IdListSchema = z
  .union([IdSchema.transform((id) => [id]), z.array(IdSchema).max(MAX_CATEGORY_IDS, `At most ${MAX_CATEGORY_IDS} ids`)], {
    error: 'Expected an id or a list of ids',
  })
  .transform((ids) => [...new Set(ids)])

/** POST /api/product/get and /api/product/search-product: `{ page, limit, search }`. */
export const ProductSearchSchema = z.object({ page: PageSchema, limit: LimitSchema, search: SearchSchema })
export type ProductSearchInput = z.output<typeof ProductSearchSchema>

/**
 * POST /api/product/get-product-by-category: `{ id, grouped?, groupSizes? }`. `id` is one category id
 * or a list; `grouped: true` answers one `{ categoryId, products }` entry per id (the BFF home page's
 * rows); `groupSizes: true` shows each pack group once, carrying its sizes (docs/product.md, "Pack
 * sizes"), as a listing asked for it does. Both default to false (the original client's answer).
 */
export const ProductsByCategorySchema = z.object({
  id: IdListSchema,
  grouped: z
    .boolean({ error: 'Expected true or false' })
    .nullish()
    .transform((v) => v ?? false),
  groupSizes: z
    .boolean({ error: 'Expected true or false' })
    .nullish()
    .transform((v) => v ?? false),
})
export type ProductsByCategoryInput = z.output<typeof ProductsByCategorySchema>

/** Optional variant of the id list: absent, null, '' or [] means "not filtered". */
const OptionalIdListSchema = z
  .union([z.literal(''), IdListSchema], { error: 'Expected an id or a list of ids' })
  .nullish()
  .transform((v) => (v === '' || v == null || v.length === 0 ? null : v))

/**
 * POST /api/product/get-product-by-category-and-subcategory: `{ categoryId, subCategoryId?, page,
 * limit }`. Each id may be one id or a list (any of them matches: the original client sent either).
 * Without `subCategoryId` every product of the category is listed (a category with no sub category).
 */
export const ProductsByCategoryAndSubCategorySchema = z.object({
  categoryId: IdListSchema,
  subCategoryId: OptionalIdListSchema,
  page: PageSchema,
  limit: LimitSchema,
})
export type ProductsByCategoryAndSubCategoryInput = z.output<typeof ProductsByCategoryAndSubCategorySchema>

/**
 * POST /api/product/get-product-details: `{ productId }`. Any text is accepted here: an id of the
 * wrong shape is a 404 like any unknown id, not a 400 or a 500.
 */
export const ProductDetailsSchema = z.object({
  productId: z.string({ error: 'Expected a product id (text)' }).max(1000, 'Not an id'),
})
export type ProductDetailsInput = z.output<typeof ProductDetailsSchema>

// ---------------------------------------------------------------------------------------------
// Writes (ADMIN): create and update-product-details. The BFF's product form
// (app/lib/schemas/product.ts) takes its bounds from here, so what the form accepts the API accepts
// too. Decision: docs/decisions/0008-catalogue-writes.md.
// ---------------------------------------------------------------------------------------------

export const PRODUCT_NAME_MAX_LENGTH = 200
export const PRODUCT_UNIT_MAX_LENGTH = 50
export const PRODUCT_DESCRIPTION_MAX_LENGTH = 5000
/** Most images one product keeps. */
export const PRODUCT_IMAGES_MAX = 10
/** Most categories, and most sub categories, one product lists. */
export const PRODUCT_REFS_MAX = 20
/** Largest stock: one million units. */
export const STOCK_MAX = 1_000_000
/** Largest price (MRP) in rupees: one crore. */
export const PRICE_MAX = 10_000_000
/** The discount is a percentage of the MRP. */
export const DISCOUNT_MAX = 100
/**
 * Most decimals of a discount, in a write and in an answer: a product answers the discount that
 * makes the original client's arithmetic land on the selling price (docs/commerce-api.md, "The
 * discount on the wire"), which for a large MRP takes more than two decimals, and that client's edit
 * form sends it back as it read it.
 */
export const DISCOUNT_DECIMALS_MAX = 10
/** Most extra fields (`more_details` entries) of one product. */
export const MORE_DETAILS_MAX = 20
export const DETAIL_NAME_MAX_LENGTH = 50
export const DETAIL_VALUE_MAX_LENGTH = 1000

/**
 * Decimal places of a finite number as written in its shortest round-trip form (ECMAScript
 * Number::toString): `2.5` → 1, `1e-7` → 7, `99.9999999999` → 10, `1e21` → 0. Counting on the text
 * rather than scaling and rounding means nothing is rounded before the check (`1e-9` is not "0").
 */
export function decimalPlaces(value: number): number {
  const [mantissa, exponent = '0'] = String(Math.abs(value)).split('e')
  const fraction = mantissa.split('.')[1]?.length ?? 0
  return Math.max(0, fraction - Number(exponent))
}

/**
 * A numeric field (docs/product.md, "Validation rules": stock, price and discount are numeric): a
 * JSON number, or its plain decimal text (the original client and HTML forms send strings); `"abc"`,
 * `""`, `"1e3"`, objects and booleans are refused. Checked exactly: a whole number must be whole
 * (`1e-7` is not), a price has at most two decimals, and the bounds apply to the value as given.
 * @param opts.min smallest value; `minExclusive` when the value must be above it
 * @param opts.decimals most decimal places (0: a whole number)
 */
function numberField(label: string, opts: { min: number; minExclusive?: boolean; max: number; decimals: number }) {
  const notANumber = `${label} must be a number`
  let check = z.number()
  check = opts.minExclusive
    ? check.gt(opts.min, `${label} must be more than ${opts.min}`)
    : check.min(opts.min, opts.min === 0 ? `${label} cannot be negative` : `${label} must be at least ${opts.min}`)
  // The document: a number within the bounds (whole, or in steps of 0.01), or its plain digits below
  // the largest value, with at most `decimals` places (no sign, no padding; stricter, never looser).
  const places = opts.decimals > 0 ? `(?:\\.[0-9]{1,${opts.decimals}})?` : ''
  const text = `^${opts.minExclusive ? '(?=[0-9.]*[1-9])' : ''}[0-9]{1,${String(opts.max).length - 1}}${places}$`
  const number = {
    type: opts.decimals === 0 ? 'integer' : 'number',
    ...(opts.minExclusive ? { exclusiveMinimum: opts.min } : { minimum: opts.min }),
    maximum: opts.max,
    ...(opts.decimals > 0 ? { multipleOf: 10 ** -opts.decimals } : {}),
  }
  return decimalNumber(notANumber, `${label} is required`)
    .meta({ anyOf: [number, { type: 'string', pattern: text }] })
    .pipe(
      check
        .max(opts.max, `${label} cannot be more than ${opts.max.toLocaleString('en-IN')}`)
        .refine(
          (v) => decimalPlaces(v) <= opts.decimals,
          opts.decimals === 0 ? `${label} must be a whole number` : `${label} can have at most ${opts.decimals} decimal places`,
        ),
    )
}

// Names that would set an object's prototype when a client copies the map with `obj[key] = value`.
const FORBIDDEN_DETAIL_NAMES = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * `more_details`: the extra fields, an object of field name → text (docs/product.md, "Entities":
 * a free map of extra field name to text value). Every value is required (docs/product.md,
 * "Validation rules"); names are trimmed, non-empty, unique without regard to case, at most 50
 * characters; values are text (a number is taken as its text), trimmed, 1..1000 characters. At most
 * 20 fields. Output: the trimmed map.
 */
export const MoreDetailsSchema = z
  .custom<Record<string, unknown>>(
    (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
    'more_details must be an object of field name → text',
  )
  .meta({
    type: 'object',
    description: 'Extra fields: name → text; names are unique without regard to case',
    maxProperties: MORE_DETAILS_MAX,
    // Names: not blank, at most 50 characters, not one that sets a prototype; unique without regard to
    // case (which JSON Schema cannot say). Values: text that is not blank, at most 1000 characters.
    propertyNames: { pattern: NOT_BLANK_PATTERN, maxLength: DETAIL_NAME_MAX_LENGTH, not: { enum: [...FORBIDDEN_DETAIL_NAMES] } },
    additionalProperties: { type: 'string', pattern: NOT_BLANK_PATTERN, maxLength: DETAIL_VALUE_MAX_LENGTH },
  })
  .superRefine((details, ctx) => {
    const entries = Object.entries(details)
    if (entries.length > MORE_DETAILS_MAX) {
      ctx.addIssue({ code: 'custom', message: `At most ${MORE_DETAILS_MAX} extra fields`, path: [] })
    }
    const seen = new Set<string>()
    for (const [rawName, value] of entries) {
      const name = rawName.trim()
      const folded = name.toLowerCase()
      const nameProblem = !name
        ? 'Extra field names cannot be empty'
        : name.length > DETAIL_NAME_MAX_LENGTH
          ? `Extra field names must be at most ${DETAIL_NAME_MAX_LENGTH} characters`
          : FORBIDDEN_DETAIL_NAMES.has(name)
            ? `"${name}" cannot be a field name`
            : seen.has(folded)
              ? `Two extra fields are named "${name}"`
              : null
      seen.add(folded)
      if (nameProblem) ctx.addIssue({ code: 'custom', message: nameProblem, path: [rawName] })
      const label = name || 'Extra field'
      if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string') {
        ctx.addIssue({ code: 'custom', message: `${label} must be text`, path: [rawName] })
      } else if (String(value).trim() === '') {
        ctx.addIssue({ code: 'custom', message: `${label} is required`, path: [rawName] })
      } else if (String(value).trim().length > DETAIL_VALUE_MAX_LENGTH) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at most ${DETAIL_VALUE_MAX_LENGTH} characters`, path: [rawName] })
      }
    }
  })
  .transform(
    (details) =>
      Object.fromEntries(Object.entries(details).map(([name, value]) => [name.trim(), String(value).trim()])) as Record<string, string>,
  )

/** `description`: required, multi-line text (docs/product.md, "Upload Product"). */
const DescriptionSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'Description is required' : 'Description must be text') })
  .trim()
  .min(1, 'Description is required')
  .max(PRODUCT_DESCRIPTION_MAX_LENGTH, `Description must be at most ${PRODUCT_DESCRIPTION_MAX_LENGTH} characters`)
  .meta({ pattern: NOT_BLANK_PATTERN })

/**
 * POST /api/product/create (docs/api-contract.md, "Catalogue"; docs/product.md, "Validation rules"):
 * `{ name, image[], category[], subCategory[], unit, stock, price, discount, description, more_details }`.
 * - image: 1..10 urls answered by file/upload (order kept; the first is the card's picture);
 * - category: at least one (a product without one is on no row or listing), ids or `{ _id }` objects;
 * - subCategory: ids or objects, may be empty or absent (a category may have no sub category); each
 *   must be under one of the chosen categories (checked by the service);
 * - unit text; stock a whole number 0..1,000,000; price the MRP in rupees, above 0, at most
 *   1,00,00,000, two decimals; discount a percentage 0..100, at most DISCOUNT_DECIMALS_MAX decimals
 *   (ignored when `sellingPrice` is given);
 * - more_details: see MoreDetailsSchema; absent or null means no extra field.
 */
/**
 * A product's HSN code (Customs Tariff heading, 4 digits, or sub-heading, 6 or 8 digits; CGST Rules
 * 2017, rule 46(g)): printed on its invoice lines instead of its shelf's heading
 * (api/modules/invoice/gst-rates.ts). Null or absent: the shelf's.
 */
export const HsnSchema = z
  .string({ error: 'HSN code must be text' })
  .trim()
  .regex(/^[0-9]{4}([0-9]{2}){0,2}$/, 'HSN code must be 4, 6 or 8 digits (e.g. 0401 or 04012000)')

export const CreateProductSchema = z.object({
  name: lineText('Name', PRODUCT_NAME_MAX_LENGTH),
  image: listOf(ImageUrlSchema, {
    min: 1,
    max: PRODUCT_IMAGES_MAX,
    messages: {
      required: 'Upload at least one image',
      notAList: 'Expected a list of image urls',
      tooFew: 'Upload at least one image',
      tooMany: `At most ${PRODUCT_IMAGES_MAX} images`,
    },
  }),
  category: refList('category', { min: 1, max: PRODUCT_REFS_MAX }),
  subCategory: refList('sub category', { min: 0, max: PRODUCT_REFS_MAX })
    .nullish()
    .transform((ids) => ids ?? []),
  unit: lineText('Unit', PRODUCT_UNIT_MAX_LENGTH),
  stock: numberField('Stock', { min: 0, max: STOCK_MAX, decimals: 0 }),
  price: numberField('Price', { min: 0, minExclusive: true, max: PRICE_MAX, decimals: 2 }),
  discount: numberField('Discount', { min: 0, max: DISCOUNT_MAX, decimals: DISCOUNT_DECIMALS_MAX }),
  /**
   * Selling price in rupees (docs/commerce-api.md, "Products (addition)"): optional; when given it is stored as
   * is and the discount is derived from it; when omitted it is derived from price and discount.
   */
  sellingPrice: numberField('Selling price', { min: 0, max: PRICE_MAX, decimals: 2 }).optional(),
  description: DescriptionSchema,
  more_details: MoreDetailsSchema.nullish().transform((details) => details ?? {}),
  /** The product's own HSN code; null clears it (the shelf's heading is printed). */
  hsn: HsnSchema.nullish(),
})
export type CreateProductInput = z.output<typeof CreateProductSchema>

/**
 * PUT /api/product/update-product-details: `_id` and any of the create fields (docs/api-contract.md,
 * "Catalogue"). Each field given is validated as on create and replaces the stored value
 * (`category` and `subCategory` replace the links); a field left out keeps its value. At least one
 * field must be given.
 */
export const UpdateProductSchema = CreateProductSchema.partial()
  .extend({ _id: TargetIdSchema, updatedAt: ReadVersionSchema })
  .refine((input) => Object.entries(input).some(([key, value]) => key !== '_id' && key !== 'updatedAt' && value !== undefined), {
    message: 'Give at least one field to change',
    path: [],
  })
export type UpdateProductInput = z.output<typeof UpdateProductSchema>

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A category or sub category as a product or sub category names it, expanded: `{ _id, name, image }`. */
export const CatalogRefSchema = z.object({ _id: z.string(), name: z.string(), image: z.string() }).meta({ id: 'CatalogRef' })
export type CatalogRef = z.output<typeof CatalogRefSchema>

/**
 * One pack size of a product's pack group (docs/product.md, "Pack sizes"): another product of the
 * same brand and name in another size, with what a size picker shows and needs to add it to a cart.
 * Prices in rupees as on `ProductSchema`; `stock` in the shopper's dark store.
 */
export const PackSizeSchema = z
  .object({
    _id: z.string(),
    unit: z.string(),
    stock: z.number(),
    price: z.number(),
    sellingPrice: z.number(),
    discount: z.number(),
  })
  .meta({ id: 'PackSize' })
export type PackSize = z.output<typeof PackSizeSchema>

/**
 * A product as every read and write answers it (docs/api-contract.md, "Endpoints"; docs/commerce-api.md,
 * "Products (addition)"): `category` and `subCategory` expanded; `price` is the MRP in rupees, `sellingPrice`
 * the price charged in rupees, `discount` the percentage off the MRP (0-100); only published products
 * reach a shopper.
 */
export const ProductSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    image: z.array(z.string()),
    /**
     * What the first picture is: `illustration` when drawn from the product's data at import (brand
     * colours, pack shape, name and size; docs/product.md, "Pictures"), `photo` when uploaded. An
     * upload replaces a drawn picture.
     */
    imageKind: z.enum(['photo', 'illustration']),
    category: z.array(CatalogRefSchema),
    subCategory: z.array(CatalogRefSchema),
    unit: z.string(),
    stock: z.number(),
    price: z.number(),
    sellingPrice: z.number(),
    discount: z.number(),
    description: z.string(),
    more_details: z.record(z.string(), z.string()),
    publish: z.boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    /** The HSN code an admin gave it (HsnSchema), only when one was given: its invoice lines print it. */
    hsn: z.string().optional(),
    /**
     * Only when the product has other pack sizes (docs/product.md, "Pack sizes"): every size of its
     * group, this one included, smallest first; answered by the product's details, and by a search
     * or listing asked for `groupSizes`.
     */
    packSizes: z.array(PackSizeSchema).optional(),
  })
  .meta({ id: 'Product' })
export type Product = z.output<typeof ProductSchema>

/** How many products each "similar products" row of the product page holds (docs/product.md, "Product page"). */
export const SIMILAR_PRODUCTS_MAX = 8

/**
 * POST /api/product/similar: the products to show beside one (docs/product.md, "Product page"):
 * `sameShelf` from its sub categories, nearest in selling price first; `sameBrand` more of its brand
 * not already in `sameShelf`. Each row: in stock in the store first, at most `SIMILAR_PRODUCTS_MAX`.
 */
export const SimilarProductsSchema = z
  .object({ sameShelf: z.array(ProductSchema), sameBrand: z.array(ProductSchema) })
  .meta({ id: 'SimilarProducts' })
export type SimilarProducts = z.output<typeof SimilarProductsSchema>

/** One home page row: the category id asked for and at most 15 of its products. */
export const CategoryProductsSchema = z
  .object({ categoryId: z.string(), products: z.array(ProductSchema) })
  .meta({ id: 'CategoryProducts' })
export type CategoryProducts = z.output<typeof CategoryProductsSchema>
