/**
 * Product reads (docs/product.md, "Product"; docs/api-contract.md, "Catalogue"): lists with paging,
 * the home page's rows per category, the listing per category and sub category, details, and the answer
 * shape every product read shares (`productColumns`, `toProductAnswer`). Search is
 * api/modules/search/, writes are ./writes.ts.
 *
 * - Only published products (`publish = true`) are ever answered.
 * - Every list has a total order (ties broken by id) so that paging never repeats or skips a product.
 * - Every answer is built by a constant number of queries (category and sub category objects come
 *   from correlated `json_agg`s, the rows per category from one `row_number()` window), then
 *   cached through `deps.cache` under a key holding every input. Writes call
 *   `deps.cache.invalidate()` after they commit, so every listing shows them on its next request.
 * - `price` is the MRP and `sellingPrice` the selling price in rupees, JSON numbers; `discount` a
 *   percentage derived from the two for the original client (`toProductAnswer`). Inside the API
 *   the MRP is `mrp` (rows, variables); `toProductAnswer` and `toPackSize` name it `price`.
 * - `stock` is the stock of one dark store (`deps.storeId`; docs/stores.md), and every list shows
 *   that store's products in stock before those out of stock. Cache keys end with the store, and
 *   each entry is scoped to it (api/lib/cache.ts), so a sale in one store refreshes only its answers.
 */
import {
  SIMILAR_PRODUCTS_MAX,
  type CategoryProducts,
  type PackSize,
  type Product,
  type SimilarProducts,
} from '../../../contract/product.ts'
import { and, eq, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { products } from '../../db/schema.ts'
import type { Db } from '../../db/client.ts'
import { NotFound } from '../../lib/errors.ts'
import { toPaise, wireDiscount } from '../../lib/money.ts'
import { expandedCategories, expandedSubCategories, isoTimestamp } from '../../lib/catalog-sql.ts'
import { queryRows } from '../../db/query.ts'
import { storeInStock } from '../inventory/stock-bits.ts'
import { imageKindOf } from '../../../contract/images.ts'
import type { CatalogDeps } from '../category/service.ts'
import type { CacheEntryOptions } from '../../lib/cache.ts'
import type { ProductsByCategoryAndSubCategoryInput } from '../../../contract/product.ts'
import { PLAUSIBLE_ID } from '../../../contract/ids.ts'

/** Products shown per category by get-product-by-category (the home page rows). */
export const PRODUCTS_PER_CATEGORY = 15

/** One page of products and the number of products matching in all. */
export interface ProductPage {
  data: Product[]
  totalCount: number
}

/** One pack size as the statement answers it (`packSizesColumn`): prices (MRP, selling price) may arrive as text. */
export interface PackSizeRow {
  _id: string
  unit: string
  stock: number
  mrp: string | number
  sellingPrice: string | number
}

/** A product as `productColumns` reads it: the MRP as `mrp`, prices and the stored discount possibly text. */
export type ProductRow = Omit<Product, 'price' | 'discount' | 'sellingPrice' | 'imageKind' | 'packSizes' | 'hsn'> & {
  hsn?: string | null
  mrp: string | number
  discount: string | number
  sellingPrice: string | number
  /** Present when the statement read `packSizesColumn`; null for a product without a group. */
  packSizes?: PackSizeRow[] | null
}

/** What the product reads need: the catalogue's, and the dark store whose stock they show. */
export type ProductReadDeps = CatalogDeps & { storeId: string }

/** A product's brand as compared (`p` aliased): trimmed, lower case, '' when it has none. */
const brandKey = sql`lower(trim(coalesce(p.more_details->>'brand', '')))`

/** The stock of the product aliased `p` (or `alias`) in store `storeId` (no inventory row: 0). */
export const storeStock = (storeId: string, alias: SQL = sql`p`) =>
  sql`coalesce((select i.stock from inventory i where i.store_id = ${storeId} and i.product_id = ${alias}.id), 0)`

/**
 * Every published size of the pack group of the product aliased `p` (docs/product.md, "Pack sizes";
 * ./pack-groups.ts), as a JSON array of `{ _id, unit, stock, mrp, sellingPrice }` (PackSizeRow) with the stock of
 * `storeId`, the product itself included, in the order of `byPackSize` (kind of unit, total,
 * price, id); null when the product has no group. One index probe (`products_pack_group_idx`) per
 * product it is read for: read it in the select list of the rows answered, after the page is cut.
 */
export const packSizesColumn = (storeId: string) =>
  sql`case when p.pack_group is null then null else (
    select json_agg(json_build_object('_id', q.id, 'unit', q.unit, 'stock', ${storeStock(storeId, sql`q`)},
             'mrp', q.price, 'sellingPrice', q.selling_price)
           order by q.search_pack[1], q.search_pack[2], q.selling_price, q.id)
    from products q where q.pack_group = p.pack_group and q.publish) end`

/**
 * `deps.cache.get` for an answer showing the stock of `deps.storeId`: the key gets the store, the
 * entry is scoped to it.
 */
export function storeCached<T>(deps: ProductReadDeps, key: string, compute: () => Promise<T>, options: CacheEntryOptions = {}): Promise<T> {
  return deps.cache.get(`${key}@${deps.storeId}`, compute, { ...options, store: deps.storeId })
}

/** The answer columns of a product aliased `p`, with its categories, sub categories and stock in `storeId`. */
export const productColumns = (storeId: string) => sql`p.id as "_id", p.name, p.image,
  ${expandedCategories('product_categories', 'product_id', sql`p.id`)} as category,
  ${expandedSubCategories(sql`p.id`)} as "subCategory",
  p.unit, ${storeStock(storeId)}::int as stock, p.price as mrp, p.selling_price as "sellingPrice", p.discount, p.description, p.more_details, p.publish, p.hsn,
  ${isoTimestamp(sql`p.created_at`)} as "createdAt", ${isoTimestamp(sql`p.updated_at`)} as "updatedAt"`

/** Newest first, ties by id (the index `products_created_idx`). */
export const newestFirst = sql`p.created_at desc nulls last, p.id`

/** In stock in `storeId` first, then newest first: the order of every product list. */
export const availableNewestFirst = (storeId: string) => sql`${storeInStock(storeId)} desc, ${newestFirst}`

/**
 * A product row as the wire's product: the MRP answered as `price`, JSON numbers for the numeric
 * columns (they arrive as text from both drivers), the keys in the order answered so far. `discount`
 * is not the stored column (a whole percent for imported products, kept for the search's discount
 * filter and sort) but `wireDiscount` of the two prices, so the original client's price arithmetic
 * lands on the selling price (docs/commerce-api.md, "The discount on the wire").
 */
export function toProductAnswer(row: ProductRow): Product {
  const mrp = Number(row.mrp)
  const sellingPrice = Number(row.sellingPrice)
  const answer: Product = {
    _id: row._id,
    name: row.name,
    image: row.image,
    category: row.category,
    subCategory: row.subCategory,
    unit: row.unit,
    stock: row.stock,
    price: mrp,
    sellingPrice,
    discount: wireDiscount(toPaise(mrp), toPaise(sellingPrice)),
    description: row.description,
    more_details: row.more_details,
    publish: row.publish,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    imageKind: imageKindOf(row.image),
  }
  // Only when an admin gave one (docs/decisions/0042-invoice-and-credit-note-numbering.md, "HSN").
  if (row.hsn) answer.hsn = row.hsn
  // A group of one size is no choice: the key is answered only when there are others.
  if (row.packSizes && row.packSizes.length > 1) answer.packSizes = row.packSizes.map(toPackSize)
  return answer
}

/** A pack size as answered: the MRP as `price`, JSON numbers, and the wire discount of its two prices (as `toProductAnswer`). */
function toPackSize(row: PackSizeRow): PackSize {
  const mrp = Number(row.mrp)
  const sellingPrice = Number(row.sellingPrice)
  return {
    _id: row._id,
    unit: row.unit,
    stock: Number(row.stock),
    price: mrp,
    sellingPrice,
    discount: wireDiscount(toPaise(mrp), toPaise(sellingPrice)),
  }
}

/**
 * A list of ids as a SQL `text[]`, each a bound parameter; `array[]::text[]` when empty (an empty
 * `in ()` list would be a syntax error).
 */
export function textArray(ids: string[]): SQL {
  return sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`
}

export const offsetOf = (page: number, limit: number) => (page - 1) * limit

/**
 * One page, in stock first then newest first, of the products (aliased `p`) satisfying `where`, and their count. The
 * page's ids are chosen first and only then expanded: PostgreSQL computes the select list of the
 * rows an OFFSET skips too, so expanding before paging made page 80 of 100 cost 80 pages of
 * category lookups.
 */
export async function newestPage(deps: ProductReadDeps, where: SQL, page: number, limit: number): Promise<ProductPage> {
  const [rows, [count]] = await Promise.all([
    // raw SQL: the page query newestPage: ids paged first, then expanded (productColumns, stock bit); measured, docs/search.md "Performance"
    queryRows<ProductRow>(
      deps.db,
      // The page's order is applied again outside on its own columns, not kept as a row_number():
      // a window over the whole list would sort all of it, where ORDER BY … LIMIT keeps only the
      // first rows (a bounded top-N sort).
      sql`select ${productColumns(deps.storeId)}
          from (select p.id, ${storeInStock(deps.storeId)} as in_stock, p.created_at
                from products p where ${where}
                order by ${availableNewestFirst(deps.storeId)} limit ${limit} offset ${offsetOf(page, limit)}) page
          join products p on p.id = page.id
          order by page.in_stock desc, page.created_at desc nulls last, page.id`,
    ),
    // raw SQL: the count of newestPage's WHERE, an SQL fragment on alias p built by its callers
    queryRows<{ total: number }>(deps.db, sql`select count(*)::int as total from products p where ${where}`),
  ])
  return { data: rows.map(toProductAnswer), totalCount: count?.total ?? 0 }
}

/**
 * At most 15 published products of each category in `categoryIds`, in the order of the ids; unknown
 * ids give an empty row. Within a row: in stock in the store first, and brands taken in turn (each
 * brand's newest, then each brand's second newest...), so a row is not 15 cards of one brand
 * (docs/product.md, "Home"). One query: `row_number()` per brand, then per category, keeps the
 * first 15, and only those are expanded. (Measured on the 8,208-product catalogue, this
 * beat a LATERAL join with LIMIT 15, which walks the newest-first index probing each product's
 * categories.) With `groupSizes` a pack group is one card, as in a listing (docs/product.md, "Pack
 * sizes"): its in-stock, newest size stands for it, carrying every size (`packSizes`), before the
 * brands are taken in turn. Cached under `product:by-category:[ids]` (`:sizes` when grouped).
 */
export function productsByCategoryGrouped(
  deps: ProductReadDeps,
  categoryIds: string[],
  options: { groupSizes?: boolean } = {},
): Promise<CategoryProducts[]> {
  const groupSizes = options.groupSizes ?? false
  const key = `product:by-category:${JSON.stringify(categoryIds)}${groupSizes ? ':sizes' : ''}`
  // Ordered by availability: a product crossing 0 in this store may enter or leave a row.
  return storeCached(
    deps,
    key,
    async () => {
      if (categoryIds.length === 0) return []
      const ids = textArray(categoryIds)
      // raw SQL: a window (row_number per category, brands in turn) over the in-stock bit of the store
      const rows = await queryRows<ProductRow & { rowCategoryId: string }>(
        deps.db,
        sql`select top.category_id as "rowCategoryId", ${productColumns(deps.storeId)}${
          groupSizes ? sql`, ${packSizesColumn(deps.storeId)} as "packSizes"` : sql``
        }
          from (
            select b.category_id, b.id,
              row_number() over (partition by b.category_id order by b.in_stock desc, b.brand_rank, b.created_at desc nulls last, b.id) as rank
            from (
              select s.category_id, s.id, s.created_at, s.in_stock,
                row_number() over (
                  partition by s.category_id, s.brand
                  order by s.in_stock desc, s.created_at desc nulls last, s.id
                ) as brand_rank
              from (
                select pc.category_id, p.id, p.created_at, ${storeInStock(deps.storeId)} as in_stock, ${brandKey} as brand,
                  ${
                    groupSizes
                      ? sql`row_number() over (
                          partition by pc.category_id, coalesce(p.pack_group, p.id)
                          order by ${availableNewestFirst(deps.storeId)}
                        )`
                      : sql`1`
                  } as size_rank
                from product_categories pc join products p on p.id = pc.product_id
                where pc.category_id = any(${ids}) and p.publish
              ) s
              where s.size_rank = 1
            ) b
          ) top
          join products p on p.id = top.id
          where top.rank <= ${PRODUCTS_PER_CATEGORY}
          order by array_position(${ids}, top.category_id), top.rank`,
      )
      const groups = new Map(categoryIds.map((id) => [id, [] as Product[]]))
      for (const { rowCategoryId, ...row } of rows) groups.get(rowCategoryId)?.push(toProductAnswer(row))
      return categoryIds.map((categoryId) => ({ categoryId, products: groups.get(categoryId) ?? [] }))
    },
    { availabilityOrdered: true },
  )
}

/**
 * The flat form of `productsByCategoryGrouped`: the rows one after another, each product once (a
 * product in two of the categories appears in the first one's place). The original client's form.
 */
export async function productsByCategory(deps: ProductReadDeps, categoryIds: string[]): Promise<Product[]> {
  const groups = await productsByCategoryGrouped(deps, categoryIds)
  const seen = new Set<string>()
  const flat: Product[] = []
  for (const group of groups) {
    for (const product of group.products) {
      if (seen.has(product._id)) continue
      seen.add(product._id)
      flat.push(product)
    }
  }
  return flat
}

/**
 * One page of published products of any of `categoryId`, and (when given) of any of
 * `subCategoryId`, newest first. Without a sub category every product of the category is listed
 * (a category that has no sub category still has a listing). Cached under
 * `product:by-category-and-sub:[categoryIds, subCategoryIds, page, limit]`.
 */
export function productsByCategoryAndSubCategory(
  deps: ProductReadDeps,
  input: ProductsByCategoryAndSubCategoryInput,
): Promise<ProductPage> {
  const { categoryId, subCategoryId, page, limit } = input
  const key = `product:by-category-and-sub:${JSON.stringify([categoryId, subCategoryId, page, limit])}`
  return storeCached(
    deps,
    key,
    async () => {
      const where = sql`p.publish
      and exists (select 1 from product_categories pc
                  where pc.product_id = p.id and pc.category_id = any(${textArray(categoryId)}))
      ${
        subCategoryId
          ? sql`and exists (select 1 from product_sub_categories psc
                where psc.product_id = p.id and psc.sub_category_id = any(${textArray(subCategoryId)}))`
          : sql``
      }`
      return newestPage(deps, where, page, limit)
    },
    { availabilityOrdered: true },
  )
}

/**
 * The products to show beside `productId` (docs/product.md, "Product page"): `sameShelf`, the
 * published products sharing one of its sub categories, those of its own kind first (the same head
 * noun, `search_head`: other paneers before the tofu of the paneer shelf), then nearest in selling price (by ratio, so ₹40
 * is as near ₹50 as ₹400 is near ₹500); `sameBrand`, the newest of its brand not already in
 * `sameShelf`; neither lists its other pack sizes (`packSizes` of its details, docs/product.md, "Pack
 * sizes"). In stock in the store first in each; at most `SIMILAR_PRODUCTS_MAX` each. Two queries
 * after the product's own row; cached under `product:similar:<id>` with the store.
 * @throws NotFound "Product not found" when the id is unknown, unpublished or not an id at all
 */
export function similarProducts(deps: ProductReadDeps, productId: string): Promise<SimilarProducts> {
  if (!PLAUSIBLE_ID.test(productId)) return Promise.reject(NotFound('Product not found'))
  return storeCached(
    deps,
    `product:similar:${productId}`,
    async () => {
      // The brand key (brandKey, on alias p) and search columns the two similar-product queries below compare.
      const p = alias(products, 'p')
      const [self] = await deps.db
        .select({
          brand: sql<string>`${brandKey}`,
          selling: sql<number>`${p.sellingPrice}::float8`,
          subs: p.searchSubCategoryIds,
          packGroup: p.packGroup,
          head: p.searchHead,
        })
        .from(p)
        .where(and(eq(p.id, productId), eq(p.publish, true)))
      if (!self) throw NotFound('Product not found')
      const inStock = storeInStock(deps.storeId)
      // Its other pack sizes are listed apart on its page ("Other pack sizes"), not as similar products.
      const otherGroup = self.packGroup === null ? sql`true` : sql`p.pack_group is distinct from ${self.packGroup}`
      // The same kind of product first: a name whose head noun is the product's ("Paneer - Premium
      // Fresh" beside "Malai Paneer"), before what merely shares the shelf (tempeh beside paneer), as
      // search ranks it (docs/search.md, "Ranking": the head noun).
      const sameKind = self.head?.length ? sql`coalesce(p.search_head && ${textArray(self.head)}, false)` : sql`false`
      // raw SQL: ranked by price distance (ln) over an array overlap, then expanded through productColumns
      const shelf = await queryRows<ProductRow>(
        deps.db,
        sql`select ${productColumns(deps.storeId)}
            from (select p.id, ${inStock} as in_stock, ${sameKind} as same_kind,
                    abs(ln(greatest(p.selling_price::float8, 0.01) / ${Math.max(self.selling, 0.01)})) as gap
                  from products p
                  where p.publish and p.id <> ${productId} and ${otherGroup} and p.search_sub_category_ids && ${textArray(self.subs ?? [])}
                  order by same_kind desc, in_stock desc, gap, p.id limit ${SIMILAR_PRODUCTS_MAX}) s
            join products p on p.id = s.id
            order by s.same_kind desc, s.in_stock desc, s.gap, p.id`,
      )
      const taken = [productId, ...shelf.map((p) => p._id)]
      const brand = self.brand
        ? // raw SQL: top-N by stock bit and age, then expanded through productColumns
          await queryRows<ProductRow>(
            deps.db,
            sql`select ${productColumns(deps.storeId)}
                from (select p.id, ${inStock} as in_stock, p.created_at from products p
                      where p.publish and ${brandKey} = ${self.brand} and ${otherGroup} and p.id <> all(${textArray(taken)})
                      order by in_stock desc, ${newestFirst} limit ${SIMILAR_PRODUCTS_MAX}) s
                join products p on p.id = s.id
                order by s.in_stock desc, ${newestFirst}`,
          )
        : []
      return { sameShelf: shelf.map(toProductAnswer), sameBrand: brand.map(toProductAnswer) }
    },
    { availabilityOrdered: true },
  )
}

/**
 * One published product by id, with its other pack sizes (`packSizes`, when it has any; docs/product.md,
 * "Pack sizes"). Cached under `product:details:<id>` (a miss is not cached); the sizes' stock makes
 * the entry stale when one of them crosses 0 (api/lib/cache.ts reads every `_id` and `stock` in it).
 * @throws NotFound "Product not found" when the id is unknown, unpublished or not an id at all
 */
export async function productDetails(deps: ProductReadDeps, productId: string): Promise<Product> {
  if (!PLAUSIBLE_ID.test(productId)) throw NotFound('Product not found')
  return storeCached(deps, `product:details:${productId}`, async () => {
    // raw SQL: the answered product projection (productColumns) with its pack sizes column
    const [row] = await queryRows<ProductRow>(
      deps.db,
      sql`select ${productColumns(deps.storeId)}, ${packSizesColumn(deps.storeId)} as "packSizes" from products p where p.id = ${productId} and p.publish`,
    )
    if (!row) throw NotFound('Product not found')
    return toProductAnswer(row)
  })
}

/**
 * Products by id as answered (stock of `storeId`), published or not, fresh from the database (never the cache: a cart
 * must show the stock and price of now). Unknown ids are absent from the map. One query.
 */
export async function productAnswersByIds(db: Pick<Db, 'execute'>, storeId: string, ids: string[]): Promise<Map<string, Product>> {
  if (ids.length === 0) return new Map()
  // raw SQL: the answered product projection (productColumns: stock bit, expanded categories)
  const rows = await queryRows<ProductRow>(db, sql`select ${productColumns(storeId)} from products p where p.id = any(${textArray(ids)})`)
  return new Map(rows.map((row) => [row._id, toProductAnswer(row)]))
}
