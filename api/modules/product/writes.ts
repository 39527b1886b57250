/**
 * Product writes (ADMIN; docs/product.md, "Entities" and "Validation rules"; rules:
 * docs/decisions/0008-catalogue-writes.md): create, update-product-details and delete, each in one
 * transaction, then `deps.cache.invalidate()` (api/lib/cache.ts) so every listing and search shows
 * the change on its next request. The search vocabulary follows every write by itself (triggers of
 * migration 0006_search, docs/search.md).
 */
import { and, asc, eq, inArray, notExists, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { productCategories, products, productSubCategories, subCategories, subCategoryCategories } from '../../db/schema.ts'
import { BadRequest, NotFound } from '../../lib/errors.ts'
import type { FieldIssue } from '../../../contract/envelope.ts'
import { assertReadVersion, distinctIds } from '../category/catalog-schemas.ts'
import { isForeignKeyViolation, unknownRefIssues } from '../../lib/catalog-sql.ts'
import { queryRows } from '../../db/query.ts'
import { discountFromPrices, fromPaise, sellingPaiseFromDiscount, toPaise, wireDiscount } from '../../lib/money.ts'
import type { CatalogWriteDeps } from '../category/service.ts'
import { assertStoredImages, releaseImages } from '../file/service.ts'
import { withoutIllustrationsBesidePhotos } from '../../../contract/images.ts'
import { runOnce, type IdempotencyClaim } from '../../lib/idempotency.ts'
import { productColumns, toProductAnswer, type ProductRow } from './reads.ts'
import type { CreateProductInput, Product, UpdateProductInput } from '../../../contract/product.ts'
import { setStock } from '../inventory/service.ts'
import { recordAudit, type ActorDeps } from '../../lib/audit.ts'
import { productAuditEntries, productAuditValues } from './audit.ts'

export const PRODUCT_CREATED = 'Product Created Successfully'
export const PRODUCT_UPDATED = 'Product updated successfully'
export const PRODUCT_DELETED = 'Product deleted successfully'
export const PRODUCT_NOT_FOUND = 'Product not found'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** One product as answered (stock of `storeId`) whether published or not, or undefined. `db` may be a transaction. */
async function productById(db: Pick<Db, 'execute'>, storeId: string, id: string): Promise<Product | undefined> {
  // raw SQL: the answered product's projection (productColumns, ./reads.ts), shared with every product read
  const [row] = await queryRows<ProductRow>(db, sql`select ${productColumns(storeId)} from products p where p.id = ${id}`)
  return row ? toProductAnswer(row) : undefined
}

/** The ids a product is linked to through `table` (its categories or sub categories), in the admin's order. */
async function linkedIds(tx: Tx, table: 'product_categories' | 'product_sub_categories', productId: string): Promise<string[]> {
  const rows =
    table === 'product_categories'
      ? await tx
          .select({ id: productCategories.categoryId })
          .from(productCategories)
          .where(eq(productCategories.productId, productId))
          .orderBy(asc(productCategories.position))
      : await tx
          .select({ id: productSubCategories.subCategoryId })
          .from(productSubCategories)
          .where(eq(productSubCategories.productId, productId))
          .orderBy(asc(productSubCategories.position))
  return rows.map((r) => r.id)
}

/**
 * Checks the category and sub category ids a product will have: every id exists, and every sub
 * category is listed under at least one of the categories (the storefront lists a product under
 * /{category}/{subCategory}, docs/product.md, "Listings", so a sub category of another category would
 * hide it).
 * @param given which of the lists came in the body; issues are reported on those (`category.1`,
 *   `subCategory.0`), a sub category that no longer fits new categories on `subCategory`
 * @throws 400 with one issue per problem
 */
async function assertLinksValid(
  tx: Tx,
  categoryIds: string[],
  subCategoryIds: string[],
  given: { category: boolean; subCategory: boolean },
): Promise<void> {
  const issues: FieldIssue[] = [
    ...(given.category ? await unknownRefIssues(tx, 'categories', categoryIds, 'category', 'category') : []),
    ...(given.subCategory ? await unknownRefIssues(tx, 'sub_categories', subCategoryIds, 'subCategory', 'sub category') : []),
  ]
  if (issues.length === 0 && subCategoryIds.length > 0) {
    const distinct = distinctIds(subCategoryIds)
    const under = tx
      .select({ one: sql`1` })
      .from(subCategoryCategories)
      .where(and(eq(subCategoryCategories.subCategoryId, subCategories.id), inArray(subCategoryCategories.categoryId, categoryIds)))
    const outside = await tx
      .select({ id: subCategories.id, name: subCategories.name })
      .from(subCategories)
      .where(
        and(
          inArray(
            subCategories.id,
            distinct.map((d) => d.id),
          ),
          notExists(under),
        ),
      )
    const names = new Map(outside.map((o) => [o.id, o.name]))
    for (const { id, index } of distinct) {
      if (!names.has(id)) continue
      issues.push({
        path: given.subCategory ? `subCategory.${index}` : 'subCategory',
        message: `Sub category "${names.get(id)}" is not under any of the chosen categories`,
      })
    }
  }
  if (issues.length > 0) throw BadRequest(issues[0]!.message, issues)
}

/** Replaces the links of `productId` in `table` by `ids` (each once, in the order given). */
async function replaceLinks(tx: Tx, productId: string, table: 'categories' | 'subCategories', ids: string[]): Promise<void> {
  const distinct = distinctIds(ids)
  if (table === 'categories') {
    await tx.delete(productCategories).where(eq(productCategories.productId, productId))
    if (distinct.length > 0) {
      await tx.insert(productCategories).values(distinct.map(({ id }, position) => ({ productId, categoryId: id, position })))
    }
  } else {
    await tx.delete(productSubCategories).where(eq(productSubCategories.productId, productId))
    if (distinct.length > 0) {
      await tx.insert(productSubCategories).values(distinct.map(({ id }, position) => ({ productId, subCategoryId: id, position })))
    }
  }
}

/**
 * The image list a product write saves: each url once, in the order given (the first is the card's
 * picture), with drawn pictures dropped when any uploaded image is given (an upload replaces the
 * illustration; docs/product.md, "Pictures").
 */
const savedImages = (urls: string[]) => withoutIllustrationsBesidePhotos([...new Set(urls)])

/** A category or sub category deleted by a concurrent write between the check and the link. */
function asUnknownReference(err: unknown): unknown {
  if (!isForeignKeyViolation(err)) return err
  const message = 'A chosen category or sub category no longer exists'
  return BadRequest(message, [{ path: 'category', message }])
}

/**
 * MRP, selling price and discount kept consistent (docs/commerce-api.md, "Products (addition)"): a given
 * selling price wins; without one, the selling price is derived from MRP and discount, rounded to the
 * paisa. The stored discount is always derived from the two prices (two decimals; the search's
 * discount filter and sort read it). Amounts in rupees.
 * @returns the product's price columns (`products.price` is the MRP)
 * @throws 400 when the selling price is above the MRP (issue on the wire's `sellingPrice`)
 */
export function consistentPrices(input: { mrp: number; discount: number; sellingPrice?: number }) {
  const mrpPaise = toPaise(input.mrp)
  const sellingPaise = input.sellingPrice !== undefined ? toPaise(input.sellingPrice) : sellingPaiseFromDiscount(mrpPaise, input.discount)
  if (sellingPaise > mrpPaise) {
    const message = 'Selling price cannot be above the price (MRP)'
    throw BadRequest(message, [{ path: 'sellingPrice', message }])
  }
  return { price: input.mrp, sellingPrice: fromPaise(sellingPaise), discount: discountFromPrices(mrpPaise, sellingPaise) }
}

/**
 * Whether an update's price fields leave the prices as they are: no selling price, the MRP absent or
 * the stored one, and the discount absent or one this product answers or stores. The original
 * client's edit form sends every field back as it read it, so a stock-only edit there must not
 * recompute the selling price from a discount that was derived from it (docs/commerce-api.md, "The
 * discount on the wire"). Prices in rupees as read from the row.
 */
export function pricesUntouched(
  input: { mrp?: number; discount?: number; sellingPrice?: number },
  current: { mrp: number | string; sellingPrice: number | string; discount: number | string },
): boolean {
  if (input.sellingPrice !== undefined) return false
  const mrpPaise = toPaise(current.mrp)
  if (input.mrp !== undefined && toPaise(input.mrp) !== mrpPaise) return false
  if (input.discount === undefined) return true
  return input.discount === wireDiscount(mrpPaise, toPaise(current.sellingPrice)) || input.discount === Number(current.discount)
}

/**
 * Creates a product with its category and sub category links in one transaction
 * (POST /api/product/create). Published at once.
 * @param input the create payload, already validated by CreateProductSchema (price in rupees,
 *   discount in percent)
 * @returns the new product, category and subCategory expanded
 * @param idempotency the request's idempotency key, if it sent one: a retry answers the first
 *   request's product (api/lib/idempotency.ts)
 * Images: an uploaded image beside drawn pictures replaces them (`savedImages`).
 * @throws 400 with issues: an image that is not one of the store's, an unknown category or sub
 *   category id, a sub category outside the chosen categories; 422 idempotency key reused for
 *   another body
 */
export async function createProduct(
  deps: CatalogWriteDeps & ActorDeps & { storeId: string },
  input: CreateProductInput,
  idempotency?: IdempotencyClaim,
): Promise<Product> {
  await assertStoredImages(
    deps.storage,
    input.image.map((url, i) => ({ path: `image.${i}`, url })),
    deps.db,
  )
  const answer = await deps.db
    .transaction((tx) =>
      runOnce(tx, idempotency, async () => {
        await assertLinksValid(tx, input.category, input.subCategory, { category: true, subCategory: true })
        const [row] = await tx
          .insert(products)
          .values({
            name: input.name,
            image: savedImages(input.image),
            unit: input.unit,
            ...consistentPrices({ mrp: input.price, discount: input.discount, sellingPrice: input.sellingPrice }),
            description: input.description,
            moreDetails: input.more_details,
            hsn: input.hsn ?? null,
            publish: true,
            // Made by a person: no data fix may change it (api/db/seed/data-fixes.ts).
            editedAt: new Date(),
            editedBy: deps.actor,
          })
          .returning({ id: products.id })
        await replaceLinks(tx, row!.id, 'categories', input.category)
        await replaceLinks(tx, row!.id, 'subCategories', input.subCategory)
        await setStock(tx, deps.storeId, row!.id, input.stock)
        const after = await productAuditValues(tx, [row!.id], deps.storeId)
        await recordAudit(tx, productAuditEntries(deps.actor, 'create', [row!.id], new Map(), after))
        return (await productById(tx, deps.storeId, row!.id))!
      }),
    )
    .catch((err) => {
      throw asUnknownReference(err)
    })
  deps.cache.invalidate()
  return answer
}

/**
 * Changes the fields given of a product (PUT /api/product/update-product-details); `category` and
 * `subCategory` replace the links, all in one transaction. Images the product no longer shows are
 * removed from storage when nothing else uses them.
 * @returns the updated product, category and subCategory expanded
 * @throws 400 as createProduct (the sub categories kept must fit new categories, and the other way
 *   round); 404 PRODUCT_NOT_FOUND
 */
export async function updateProduct(deps: CatalogWriteDeps & ActorDeps & { storeId: string }, input: UpdateProductInput): Promise<Product> {
  if (input.image)
    await assertStoredImages(
      deps.storage,
      input.image.map((url, i) => ({ path: `image.${i}`, url })),
      deps.db,
    )
  const { answer, droppedImages } = await deps.db
    .transaction(async (tx) => {
      const [current] = await tx
        .select({
          image: products.image,
          mrp: products.price,
          sellingPrice: products.sellingPrice,
          discount: products.discount,
          updatedAt: products.updatedAt,
        })
        .from(products)
        .where(eq(products.id, input._id))
        .for('update')
      if (!current) throw NotFound(PRODUCT_NOT_FOUND)
      assertReadVersion(current.updatedAt, input.updatedAt, 'product')
      const before = await productAuditValues(tx, [input._id], deps.storeId)
      // A save that does not touch the prices keeps them to the paisa (docs/product.md, "Upload
      // Product"). A new MRP alone keeps the discount (the original client's behaviour) and moves
      // the selling price.
      // The request's `price` is the MRP.
      const given = { mrp: input.price, discount: input.discount, sellingPrice: input.sellingPrice }
      const prices = pricesUntouched(given, current)
        ? {}
        : consistentPrices({
            mrp: given.mrp ?? Number(current.mrp),
            discount: given.discount ?? discountFromPrices(toPaise(current.mrp), toPaise(current.sellingPrice)),
            sellingPrice: given.sellingPrice,
          })
      const linksGiven = { category: input.category !== undefined, subCategory: input.subCategory !== undefined }
      if (linksGiven.category || linksGiven.subCategory) {
        const categoryIds = input.category ?? (await linkedIds(tx, 'product_categories', input._id))
        const subCategoryIds = input.subCategory ?? (await linkedIds(tx, 'product_sub_categories', input._id))
        await assertLinksValid(tx, categoryIds, subCategoryIds, linksGiven)
      }
      const image = input.image ? savedImages(input.image) : undefined
      await tx
        .update(products)
        .set({
          name: input.name,
          image,
          unit: input.unit,
          ...prices,
          description: input.description,
          moreDetails: input.more_details,
          hsn: input.hsn,
          // Also when only the links change: the product did change.
          updatedAt: new Date(),
          // Changed by a person: no data fix may change it again (api/db/seed/data-fixes.ts).
          editedAt: new Date(),
          editedBy: deps.actor,
        })
        .where(eq(products.id, input._id))
      if (input.category) await replaceLinks(tx, input._id, 'categories', input.category)
      if (input.subCategory) await replaceLinks(tx, input._id, 'subCategories', input.subCategory)
      if (input.stock !== undefined) await setStock(tx, deps.storeId, input._id, input.stock)
      const after = await productAuditValues(tx, [input._id], deps.storeId)
      await recordAudit(tx, productAuditEntries(deps.actor, 'update', [input._id], before, after))
      const dropped = image ? current.image.filter((url) => !image.includes(url)) : []
      return { answer: (await productById(tx, deps.storeId, input._id))!, droppedImages: dropped }
    })
    .catch((err) => {
      throw asUnknownReference(err)
    })
  deps.cache.invalidate()
  await releaseImages(deps, droppedImages)
  return answer
}

/**
 * Deletes a product (DELETE /api/product/delete-product): its category and sub category links go
 * with it (cascade), it is gone from every listing on the next request, and its images' files are
 * removed when no other product, category, sub category or avatar uses them.
 * @throws 404 PRODUCT_NOT_FOUND
 */
export async function deleteProduct(deps: CatalogWriteDeps & ActorDeps, id: string): Promise<void> {
  const deleted = await deps.db.transaction(async (tx) => {
    const before = await productAuditValues(tx, [id])
    const [row] = await tx.delete(products).where(eq(products.id, id)).returning({ image: products.image })
    if (!row) throw NotFound(PRODUCT_NOT_FOUND)
    await recordAudit(tx, productAuditEntries(deps.actor, 'delete', [id], before, new Map()))
    return row
  })
  deps.cache.invalidate()
  await releaseImages(deps, deleted.image)
}
