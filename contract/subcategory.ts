/**
 * The sub category endpoints' bodies and answers (docs/api-contract.md, "Endpoints"). The original
 * app asked name, image and at least one category only for the active look of the submit button,
 * with no enforced rule (docs/product.md, "Differences from the original app"); the server enforces
 * them (docs/product.md, "Validation rules"): a sub category without a category is
 * on no listing, and one without an image shows a blank tile.
 */
import { z } from 'zod'
import { ImageUrlSchema, lineText, ReadVersionSchema, refList, TargetIdSchema, TimestampSchema } from './fields.ts'
import { CatalogRefSchema } from './product.ts'

/** Longest sub category name, in characters (the catalogue's longest is 33). */
export const SUB_CATEGORY_NAME_MAX_LENGTH = 80
/** Most categories one sub category is listed under. */
export const SUB_CATEGORY_CATEGORIES_MAX = 20

/**
 * POST /api/subcategory/create: `{ name, image, category }`; `category` is a list of category ids or
 * `{ _id, name }` objects (the original client's form), at least one.
 */
export const CreateSubCategorySchema = z.object({
  name: lineText('Name', SUB_CATEGORY_NAME_MAX_LENGTH),
  image: ImageUrlSchema,
  category: refList('category', { min: 1, max: SUB_CATEGORY_CATEGORIES_MAX }),
})
export type CreateSubCategoryInput = z.output<typeof CreateSubCategorySchema>

/** PUT /api/subcategory/update: `{ _id, name, image, category }`, all required; `category` replaces the links. */
export const UpdateSubCategorySchema = CreateSubCategorySchema.extend({ _id: TargetIdSchema, updatedAt: ReadVersionSchema })
export type UpdateSubCategoryInput = z.output<typeof UpdateSubCategorySchema>

/** A sub category as the API answers it, its categories expanded to `{ _id, name, image }`. */
export const SubCategorySchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    image: z.string(),
    category: z.array(CatalogRefSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'SubCategory' })
export type SubCategory = z.output<typeof SubCategorySchema>
