/**
 * The category and sub category admin forms' rules (docs/product.md, "Category and sub category":
 * a name, an uploaded image and, for a sub category, at least one category), shared by the browser
 * (Conform checks as you type) and the BFF action (the same schema decides on the server, so the
 * dialogs work with JavaScript off). The API enforces the same fields
 * (docs/decisions/0008-catalogue-writes.md).
 *
 * Form shape: `name`, `image` (the url the upload answered, a hidden input) and, for a sub category,
 * `category` (ids; repeated once per chip, or a multiple select without JavaScript).
 */
import { z } from 'zod'
import { idList, ImageUrlSchema, requiredMessage, requiredText } from './fields.ts'

/** Longest category and sub category name, in characters. */
export const CATALOG_NAME_MAX_LENGTH = 80
/** Most categories one sub category is listed under. */
export const SUB_CATEGORY_CATEGORIES_MAX = 20

export const NAME_REQUIRED_MESSAGE = requiredMessage('Name')
export const IMAGE_REQUIRED_MESSAGE = 'Image is required'
export const CATEGORY_REQUIRED_MESSAGE = 'Select at least one category'

/** A required image url: missing or blank is "Image is required", a tampered one "Not an uploaded image". */
const RequiredImageSchema = z.string({ error: IMAGE_REQUIRED_MESSAGE }).trim().min(1, IMAGE_REQUIRED_MESSAGE).pipe(ImageUrlSchema)

/** Category add and edit: a name (1..80 characters) and the url of an uploaded image. */
export const CategoryFormSchema = z.object({
  name: requiredText('Name', CATALOG_NAME_MAX_LENGTH),
  image: RequiredImageSchema,
})

/** Sub category add and edit: name, image url and at least one category id (duplicates once). */
export const SubCategoryFormSchema = CategoryFormSchema.extend({
  category: idList('Category', SUB_CATEGORY_CATEGORIES_MAX).pipe(z.array(z.string()).min(1, CATEGORY_REQUIRED_MESSAGE)),
})
