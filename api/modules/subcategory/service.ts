/**
 * Sub category rules and queries (docs/product.md, "Sub category": _id, name, image, category[]).
 *
 * Reads go through `deps.cache` under keys starting with `subcategory:`. Writes (create, update,
 * delete) run in one transaction each (the row and its category links together) and call
 * `deps.cache.invalidate()` after it commits. Their rules are docs/decisions/0008-catalogue-writes.md,
 * "References", "Names", "Images are ours only" and "Deletes refuse while referenced": categories
 * existing and in the order given, names not unique (the import makes one sub category per
 * (category, name) pair), a sub category used by a product not deleted (409), and the files of a
 * replaced or deleted image removed once nothing else uses them.
 */
import type { SubCategory } from '../../../contract/subcategory.ts'
import { asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { productSubCategories, subCategories, subCategoryCategories } from '../../db/schema.ts'
import { BadRequest, Conflict, NotFound } from '../../lib/errors.ts'
import { assertReadVersion, distinctIds } from '../category/catalog-schemas.ts'
import { counted, expandedCategories, isForeignKeyViolation, isoTimestamp, unknownRefIssues } from '../../lib/catalog-sql.ts'
import type { CatalogDeps, CatalogWriteDeps } from '../category/service.ts'
import { assertStoredImages, releaseImages } from '../file/service.ts'
import type { CreateSubCategoryInput, UpdateSubCategoryInput } from '../../../contract/subcategory.ts'
import { runOnce, type IdempotencyClaim } from '../../lib/idempotency.ts'
import { changedFields, recordAudit, type ActorDeps } from '../../lib/audit.ts'

export const SUB_CATEGORY_CREATED = 'Sub Category Created'
export const SUB_CATEGORY_UPDATED = 'Sub Category updated successfully'
export const SUB_CATEGORY_DELETED = 'Sub Category deleted successfully'
export const SUB_CATEGORY_NOT_FOUND = 'Sub Category not found'
/** 409 message of a delete refused while products still list the sub category. */
export const subCategoryInUse = (products: number) =>
  `Sub category is still used by ${counted(products, 'product')}: remove it from them or delete them first`

/** A sub category as answered (contract/subcategory.ts). */
export type SubCategoryAnswer = SubCategory

/** The answer columns of a sub category, its categories expanded (timestamps as ISO 8601 text, UTC). */
const subCategoryColumns = {
  _id: subCategories.id,
  name: subCategories.name,
  image: subCategories.image,
  category: sql<
    SubCategoryAnswer['category']
  >`${expandedCategories('sub_category_categories', 'sub_category_id', sql`${subCategories.id}`)}`,
  createdAt: sql<string>`${isoTimestamp(sql`${subCategories.createdAt}`)}`,
  updatedAt: sql<string>`${isoTimestamp(sql`${subCategories.updatedAt}`)}`,
}

/**
 * Every sub category, sorted by name (ties by id), each with its categories in the admin's order.
 * One query: the categories come from a correlated `json_agg`, not one query per row.
 * Cached under `subcategory:list`.
 */
export function listSubCategories(deps: CatalogDeps): Promise<SubCategoryAnswer[]> {
  // Awaited inside: a builder query is a thenable that runs again on every await, so the cache must hold its rows.
  return deps.cache.get(
    'subcategory:list',
    async () => await deps.db.select(subCategoryColumns).from(subCategories).orderBy(asc(subCategories.name), asc(subCategories.id)),
  )
}

/** One sub category as answered, or undefined. `db` may be a transaction (it then sees its own writes). */
async function subCategoryById(db: Pick<Db, 'select'>, id: string): Promise<SubCategoryAnswer | undefined> {
  const [row] = await db.select(subCategoryColumns).from(subCategories).where(eq(subCategories.id, id))
  return row
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/**
 * Checks the category ids of a body and links `subCategoryId` to them, in the order given (each id
 * once, `position` 0, 1, …). Run inside the write's transaction.
 * @throws 400 with an issue per unknown category id (`category.<index>`)
 */
async function linkCategories(tx: Tx, subCategoryId: string, categoryIds: string[]): Promise<void> {
  const issues = await unknownRefIssues(tx, 'categories', categoryIds, 'category', 'category')
  if (issues.length > 0) throw BadRequest(issues[0]!.message, issues)
  await tx
    .insert(subCategoryCategories)
    .values(distinctIds(categoryIds).map(({ id }, position) => ({ subCategoryId, categoryId: id, position })))
}

/** The category ids a sub category is linked to, in their order (for the audit trail). */
async function linkedCategoryIds(tx: Tx, subCategoryId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: subCategoryCategories.categoryId })
    .from(subCategoryCategories)
    .where(eq(subCategoryCategories.subCategoryId, subCategoryId))
    .orderBy(subCategoryCategories.position)
  return rows.map((row) => row.id)
}

/** A category deleted by a concurrent write between the check and the link: the id is unknown now. */
function asUnknownCategory(err: unknown): unknown {
  return isForeignKeyViolation(err) ? BadRequest('Unknown category', [{ path: 'category', message: 'Unknown category' }]) : err
}

/**
 * Creates a sub category under one or more categories (POST /api/subcategory/create).
 * @param input name, image (a stored image url), category ids (at least one), already validated
 * @param idempotency the request's idempotency key, if it sent one: a retry answers the first
 *   request's sub category (api/lib/idempotency.ts)
 * @returns the new sub category with `category` expanded to `{ _id, name, image }`
 * @throws 400 image not stored or an unknown category id (with issues); 422 idempotency key reused
 *   for another body
 */
export async function createSubCategory(
  deps: CatalogWriteDeps & ActorDeps,
  input: CreateSubCategoryInput,
  idempotency?: IdempotencyClaim,
): Promise<SubCategoryAnswer> {
  await assertStoredImages(deps.storage, [{ path: 'image', url: input.image }])
  const answer = await deps.db
    .transaction((tx) =>
      runOnce(tx, idempotency, async () => {
        const [row] = await tx.insert(subCategories).values({ name: input.name, image: input.image }).returning({ id: subCategories.id })
        await linkCategories(tx, row!.id, input.category)
        const after = { name: input.name, image: input.image, category: distinctIds(input.category).map(({ id }) => id) }
        await recordAudit(tx, { actor: deps.actor, action: 'create', entity: 'sub_category', entityId: row!.id, before: null, after })
        return (await subCategoryById(tx, row!.id))!
      }),
    )
    .catch((err) => {
      throw asUnknownCategory(err)
    })
  deps.cache.invalidate()
  return answer
}

/**
 * Sets name, image and categories of a sub category (PUT /api/subcategory/update); the category
 * links are replaced in the same transaction. The previous image's files are removed when nothing
 * else uses them.
 * @returns the updated sub category, `category` expanded
 * @throws 400 image not stored or an unknown category id; 404 SUB_CATEGORY_NOT_FOUND
 */
export async function updateSubCategory(deps: CatalogWriteDeps & ActorDeps, input: UpdateSubCategoryInput): Promise<SubCategoryAnswer> {
  await assertStoredImages(deps.storage, [{ path: 'image', url: input.image }])
  const { answer, previousImage } = await deps.db
    .transaction(async (tx) => {
      const [current] = await tx
        .select({ name: subCategories.name, image: subCategories.image, updatedAt: subCategories.updatedAt })
        .from(subCategories)
        .where(eq(subCategories.id, input._id))
        .for('update')
      if (!current) throw NotFound(SUB_CATEGORY_NOT_FOUND)
      assertReadVersion(current.updatedAt, input.updatedAt, 'sub category')
      const before = { ...current, category: await linkedCategoryIds(tx, input._id) }
      await tx.update(subCategories).set({ name: input.name, image: input.image }).where(eq(subCategories.id, input._id))
      await tx.delete(subCategoryCategories).where(eq(subCategoryCategories.subCategoryId, input._id))
      await linkCategories(tx, input._id, input.category)
      const after = { name: input.name, image: input.image, category: distinctIds(input.category).map(({ id }) => id) }
      await recordAudit(tx, {
        actor: deps.actor,
        action: 'update',
        entity: 'sub_category',
        entityId: input._id,
        ...changedFields(before, after),
      })
      return { answer: (await subCategoryById(tx, input._id))!, previousImage: current.image }
    })
    .catch((err) => {
      throw asUnknownCategory(err)
    })
  deps.cache.invalidate()
  if (previousImage !== input.image) await releaseImages(deps, [previousImage])
  return answer
}

/**
 * Deletes a sub category no product uses (DELETE /api/subcategory/delete); its category links go
 * with it (cascade), then its image's files when nothing else uses them. The row is locked first,
 * so a product being linked to it concurrently waits and then fails its foreign key check.
 * @throws 404 SUB_CATEGORY_NOT_FOUND; 409 subCategoryInUse while products list it
 */
export async function deleteSubCategory(deps: CatalogWriteDeps & ActorDeps, id: string): Promise<void> {
  let image: string
  try {
    image = await deps.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ name: subCategories.name, image: subCategories.image })
        .from(subCategories)
        .where(eq(subCategories.id, id))
        .for('update')
      if (!current) throw NotFound(SUB_CATEGORY_NOT_FOUND)
      const products = await tx.$count(productSubCategories, eq(productSubCategories.subCategoryId, id))
      if (products > 0) throw Conflict(subCategoryInUse(products))
      const before = { ...current, category: await linkedCategoryIds(tx, id) }
      await tx.delete(subCategories).where(eq(subCategories.id, id))
      await recordAudit(tx, { actor: deps.actor, action: 'delete', entity: 'sub_category', entityId: id, before, after: null })
      return current.image
    })
  } catch (err) {
    if (isForeignKeyViolation(err)) throw Conflict('Sub category is still used: remove it from its products first')
    throw err
  }
  deps.cache.invalidate()
  await releaseImages(deps, [image])
}
