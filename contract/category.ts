/**
 * The category endpoints' bodies and answers (docs/api-contract.md, "Endpoints"). Both fields
 * are required on add and update (docs/product.md, "Validation rules": submit looks active only when
 * name and image are present; the server enforces what the page only suggested).
 */
import { z } from 'zod'
import { ImageUrlSchema, lineText, ReadVersionSchema, TargetIdSchema, TimestampSchema } from './fields.ts'

/** Longest category name, in characters (the catalogue's longest is 24). */
export const CATEGORY_NAME_MAX_LENGTH = 80

/** POST /api/category/add-category: `{ name, image }` (image: a url answered by file/upload). */
export const AddCategorySchema = z.object({
  name: lineText('Name', CATEGORY_NAME_MAX_LENGTH),
  image: ImageUrlSchema,
})
export type AddCategoryInput = z.output<typeof AddCategorySchema>

/** PUT /api/category/update: `{ _id, name, image }`, all required; `updatedAt` as read, optional (409 when stale). */
export const UpdateCategorySchema = AddCategorySchema.extend({ _id: TargetIdSchema, updatedAt: ReadVersionSchema })
export type UpdateCategoryInput = z.output<typeof UpdateCategorySchema>

/** DELETE /api/category/delete (and the sub category and product deletes): `{ _id }`. */
export const DeleteByIdSchema = z.object({ _id: TargetIdSchema })
export type DeleteByIdInput = z.output<typeof DeleteByIdSchema>

/** A category as the API answers it: `_id`, name, image url, and its times. */
export const CategorySchema = z
  .object({ _id: z.string(), name: z.string(), image: z.string(), createdAt: TimestampSchema, updatedAt: TimestampSchema })
  .meta({ id: 'Category' })
export type Category = z.output<typeof CategorySchema>
