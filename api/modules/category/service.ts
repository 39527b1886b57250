/**
 * Category rules and queries (docs/product.md, "Category": _id, name, image).
 *
 * Reads go through `deps.cache` (api/lib/cache.ts) under keys starting with `category:`. Writes
 * (add-category, update, delete; docs/decisions/0008-catalogue-writes.md) run in one transaction
 * each and call `deps.cache.invalidate()` after it commits, because products and sub categories
 * embed category names and images (docs/decisions/0005-catalogue-cache.md: the storefront shows a
 * write on its next request).
 *
 * Rules of the writes (docs/decisions/0008-catalogue-writes.md):
 * - names are unique without regard to case ("Dairy" and "dairy" are one aisle to a shopper): 409;
 * - the image must be one of the store's stored images (file/service.ts `assertStoredImages`);
 * - a category still used by a sub category or a product is not deleted: 409 saying by how many;
 * - the files of a replaced or deleted image are removed once nothing else uses them.
 */
import type { Category } from '../../../contract/category.ts'
import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/client.ts'
import { categories, productCategories, subCategoryCategories } from '../../db/schema.ts'
import { Conflict, NotFound } from '../../lib/errors.ts'
import { assertStoredImages, releaseImages } from '../file/service.ts'
import { counted, isForeignKeyViolation, isoTimestamp } from '../../lib/catalog-sql.ts'
import type { AddCategoryInput, UpdateCategoryInput } from '../../../contract/category.ts'
import { assertReadVersion } from './catalog-schemas.ts'
import { runOnce, type IdempotencyClaim } from '../../lib/idempotency.ts'
import { changedFields, recordAudit, type ActorDeps } from '../../lib/audit.ts'

/** What the catalogue read services need from the app's dependencies. */
export type CatalogDeps = Pick<AppDeps, 'db' | 'cache'>
/** What the catalogue write services need: the database, the cache to drop, the image storage, a logger. */
export type CatalogWriteDeps = Pick<AppDeps, 'db' | 'cache' | 'storage' | 'logger'>

export const CATEGORY_ADDED = 'Category added successfully'
export const CATEGORY_UPDATED = 'Category updated successfully'
export const CATEGORY_DELETED = 'Category deleted successfully'
export const CATEGORY_NOT_FOUND = 'Category not found'
/** 409 message of a name another category already has (compared without case). */
export const categoryNameTaken = (name: string) => `A category named "${name}" already exists`
/** 409 message of a delete refused while sub categories or products still list the category. */
export function categoryInUse(subCategories: number, products: number): string {
  const users = [
    subCategories > 0 ? counted(subCategories, 'sub category', 'sub categories') : '',
    products > 0 ? counted(products, 'product') : '',
  ].filter(Boolean)
  return `Category is still used by ${users.join(' and ')}: remove it from them or delete them first`
}

/**
 * Serialises the name check and the write of category names: two admins adding "Dairy" at once
 * would otherwise both find the name free (no unique index on lower(name) in the schema).
 * Any 64-bit constant, the same in every process.
 */
const CATEGORY_NAME_LOCK_KEY = 7_264_110_301

/** A category as answered (contract/category.ts). */
export type CategoryAnswer = Category

/** The answer columns of a category (timestamps as ISO 8601 text, milliseconds, UTC). */
const categoryColumns = {
  _id: categories.id,
  name: categories.name,
  image: categories.image,
  createdAt: sql<string>`${isoTimestamp(sql`${categories.createdAt}`)}`,
  updatedAt: sql<string>`${isoTimestamp(sql`${categories.updatedAt}`)}`,
}

/**
 * Every category, sorted by name (ties by id so the order never changes between calls).
 * Cached under `category:list`.
 */
export function listCategories(deps: CatalogDeps): Promise<CategoryAnswer[]> {
  // Awaited inside: a builder query is a thenable that runs again on every await, so the cache must hold its rows.
  return deps.cache.get(
    'category:list',
    async () => await deps.db.select(categoryColumns).from(categories).orderBy(asc(categories.name), asc(categories.id)),
  )
}

/** One category as answered, or undefined. `db` may be a transaction (it then sees its own writes). */
async function categoryById(db: Pick<Db, 'select'>, id: string): Promise<CategoryAnswer | undefined> {
  const [row] = await db.select(categoryColumns).from(categories).where(eq(categories.id, id))
  return row
}

/**
 * Takes the name lock (CATEGORY_NAME_LOCK_KEY) and refuses `name` when a category other than
 * `exceptId` already has it, compared case-insensitively.
 * @throws 409 categoryNameTaken
 */
async function assertCategoryNameFree(tx: Pick<Db, 'execute' | 'select'>, name: string, exceptId?: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CATEGORY_NAME_LOCK_KEY})`)
  const [taken] = await tx
    .select({ name: categories.name })
    .from(categories)
    .where(and(sql`lower(${categories.name}) = lower(${name})`, exceptId ? ne(categories.id, exceptId) : undefined))
    .limit(1)
  if (taken) throw Conflict(categoryNameTaken(taken.name))
}

/**
 * Adds a category (POST /api/category/add-category).
 * @param input name (trimmed, 1-80 characters) and image (a stored image url), already validated
 * @param idempotency the request's idempotency key, if it sent one: a retry answers the first
 *   request's category (api/lib/idempotency.ts)
 * @returns the new category as answered
 * @throws 400 when the image is not one of the store's stored images; 409 when the name is taken;
 *   422 when the idempotency key was used for another body
 */
export async function addCategory(
  deps: CatalogWriteDeps & ActorDeps,
  input: AddCategoryInput,
  idempotency?: IdempotencyClaim,
): Promise<CategoryAnswer> {
  await assertStoredImages(deps.storage, [{ path: 'image', url: input.image }])
  const answer = await deps.db.transaction((tx) =>
    runOnce(tx, idempotency, async () => {
      await assertCategoryNameFree(tx, input.name)
      const [row] = await tx.insert(categories).values({ name: input.name, image: input.image }).returning({ id: categories.id })
      const after = { name: input.name, image: input.image }
      await recordAudit(tx, { actor: deps.actor, action: 'create', entity: 'category', entityId: row!.id, before: null, after })
      return (await categoryById(tx, row!.id))!
    }),
  )
  deps.cache.invalidate()
  return answer
}

/**
 * Renames a category and sets its image (PUT /api/category/update); the previous image's files are
 * removed when nothing else uses them.
 * @returns the updated category as answered
 * @throws 400 image not stored; 404 CATEGORY_NOT_FOUND; 409 name taken by another category
 */
export async function updateCategory(deps: CatalogWriteDeps & ActorDeps, input: UpdateCategoryInput): Promise<CategoryAnswer> {
  await assertStoredImages(deps.storage, [{ path: 'image', url: input.image }])
  const { answer, previousImage } = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ name: categories.name, image: categories.image, updatedAt: categories.updatedAt })
      .from(categories)
      .where(eq(categories.id, input._id))
      .for('update')
    if (!current) throw NotFound(CATEGORY_NOT_FOUND)
    assertReadVersion(current.updatedAt, input.updatedAt, 'category')
    await assertCategoryNameFree(tx, input.name, input._id)
    await tx.update(categories).set({ name: input.name, image: input.image }).where(eq(categories.id, input._id))
    const change = changedFields(current, { name: input.name, image: input.image })
    await recordAudit(tx, { actor: deps.actor, action: 'update', entity: 'category', entityId: input._id, ...change })
    return { answer: (await categoryById(tx, input._id))!, previousImage: current.image }
  })
  deps.cache.invalidate()
  if (previousImage !== input.image) await releaseImages(deps, [previousImage])
  return answer
}

/**
 * Deletes a category that nothing uses (DELETE /api/category/delete), then its image's files when
 * nothing else uses them. The row is locked first: a sub category or product being linked to it
 * concurrently waits for this transaction (its foreign key check locks the row) and then fails,
 * so a deleted category is never left referenced.
 * @throws 404 CATEGORY_NOT_FOUND; 409 categoryInUse while sub categories or products list it
 */
export async function deleteCategory(deps: CatalogWriteDeps & ActorDeps, id: string): Promise<void> {
  let image: string
  try {
    image = await deps.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ name: categories.name, image: categories.image })
        .from(categories)
        .where(eq(categories.id, id))
        .for('update')
      if (!current) throw NotFound(CATEGORY_NOT_FOUND)
      const uses = {
        subCategories: await tx.$count(subCategoryCategories, eq(subCategoryCategories.categoryId, id)),
        products: await tx.$count(productCategories, eq(productCategories.categoryId, id)),
      }
      if (uses.subCategories > 0 || uses.products > 0) throw Conflict(categoryInUse(uses.subCategories, uses.products))
      await tx.delete(categories).where(eq(categories.id, id))
      await recordAudit(tx, { actor: deps.actor, action: 'delete', entity: 'category', entityId: id, before: current, after: null })
      return current.image
    })
  } catch (err) {
    // A link that slipped in between the count and the delete: still referenced.
    if (isForeignKeyViolation(err)) throw Conflict('Category is still used: remove it from its sub categories and products first')
    throw err
  }
  deps.cache.invalidate()
  await releaseImages(deps, [image])
}
