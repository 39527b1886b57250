/**
 * Product reads (spec section 3 "Product"; contract, "Endpoints"): lists with paging, the home
 * page's rows per category, the listing per category and sub category, details and search.
 *
 * - Only published products (`publish = true`) are ever answered.
 * - Every list has a total order (ties broken by id) so that paging never repeats or skips a product.
 * - Every answer is built by a constant number of queries (category and sub category objects come
 *   from correlated `json_agg`s, the rows per category from one `row_number()` window), then
 *   cached through `deps.cache` under a key holding every input. Writes (create, update, delete;
 *   issue 4, at the end of this file) run in one transaction each and call
 *   `deps.cache.invalidate()` after it commits, so every listing shows them on its next request.
 * - `price` is the MRP in rupees and `discount` a percentage, both JSON numbers; the selling price
 *   is derived by the pages (app/lib/money.ts).
 */
import type { Gate } from '../../lib/gate.ts'
import { eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { productCategories, products, productSubCategories } from '../../db/schema.ts'
import { BadRequest, NotFound, type FieldIssue } from '../../lib/errors.ts'
import { assertReadVersion, distinctIds } from '../category/catalog-schemas.ts'
import {
  expandedCategories,
  expandedSubCategories,
  isForeignKeyViolation,
  isoTimestamp,
  unknownRefIssues,
  type CatalogRef,
} from '../../lib/catalog-sql.ts'
import { queryRows } from '../../db/query.ts'
import { discountFromPrices, fromPaise, sellingPaiseFromDiscount, toPaise } from '../../lib/money.ts'
import type { CatalogDeps, CatalogWriteDeps } from '../category/service.ts'
import { assertStoredImages, releaseImages } from '../file/service.ts'
import { runOnce, type IdempotencyClaim } from '../../lib/idempotency.ts'
import type { CreateProductInput, ProductsByCategoryAndSubCategoryInput, ProductSearchInput, UpdateProductInput } from './schemas.ts'

/** Products shown per category by get-product-by-category (the home page rows). */
export const PRODUCTS_PER_CATEGORY = 15
/** Most words of a search used; the rest are ignored. */
export const MAX_SEARCH_TERMS = 8
/**
 * pg_trgm `strict_word_similarity` a word of the name must reach for a search word to match it by
 * spelling alone (4 shared trigrams out of 10 for a 6-letter word). "panner" → paneer scores 0.40,
 * "choclate" → chocolate 0.58, "biscut" → biscuits 0.45, while "panner" → pants scores 0.30 and
 * "panner" → pan 0.375. Strict (whole words) rather than plain `word_similarity`, which scores
 * "panner" against "pants" as high as against "paneer" (0.43) because it may cut a word short.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.4
/** Shortest search word tried by spelling; shorter words only match as word prefixes. */
const MIN_FUZZY_TERM_LENGTH = 3
/**
 * Most words of one search tried by spelling (the first ones long enough); the others match as whole
 * words or prefixes only. A trigram scan is the costly part of a search: eight uncommon words cost
 * about a second of database time, three a fraction of it.
 */
export const MAX_FUZZY_TERMS = 3
/**
 * Longest a search query may run (PostgreSQL `statement_timeout`, for its transaction only); past
 * it the search answers 503 (api/lib/faults.ts) instead of holding a connection the store needs.
 */
export const SEARCH_STATEMENT_TIMEOUT_MS = 2000

/** A product as answered (contract, "Endpoints": Product with category and subCategory expanded). */
export interface ProductAnswer {
  _id: string
  name: string
  image: string[]
  category: CatalogRef[]
  subCategory: CatalogRef[]
  unit: string
  stock: number
  /** MRP in rupees. */
  price: number
  /** Selling price in rupees, as the catalogue or an admin set it. */
  sellingPrice: number
  /** Percentage off the MRP, 0-100 (derived from price and sellingPrice when those are set). */
  discount: number
  description: string
  more_details: Record<string, string>
  publish: boolean
  createdAt: string
  updatedAt: string
}

/** One page of products and the number of products matching in all. */
export interface ProductPage {
  data: ProductAnswer[]
  totalCount: number
}

/** One home page row: the category id asked for and at most 15 of its products. */
export interface CategoryProducts {
  categoryId: string
  products: ProductAnswer[]
}

type ProductRow = Omit<ProductAnswer, 'price' | 'discount' | 'sellingPrice'> & {
  price: string | number
  discount: string | number
  sellingPrice: string | number
}

/** The answer columns of a product aliased `p`, with its categories and sub categories. */
const productColumns = sql`p.id as "_id", p.name, p.image,
  ${expandedCategories('product_categories', 'product_id', sql`p.id`)} as category,
  ${expandedSubCategories(sql`p.id`)} as "subCategory",
  p.unit, p.stock, p.price, p.selling_price as "sellingPrice", p.discount, p.description, p.more_details, p.publish,
  ${isoTimestamp(sql`p.created_at`)} as "createdAt", ${isoTimestamp(sql`p.updated_at`)} as "updatedAt"`

/**
 * Newest first, ties by id. Spelled exactly like the index `products_created_idx`
 * (`created_at DESC NULLS LAST, id`) so that a page is read from the index, not sorted.
 */
const newestFirst = sql`p.created_at desc nulls last, p.id`

/** Numeric columns arrive as text from both drivers; the answer carries JSON numbers. */
function toProductAnswer(row: ProductRow): ProductAnswer {
  return { ...row, price: Number(row.price), sellingPrice: Number(row.sellingPrice), discount: Number(row.discount) }
}

/**
 * A list of ids as a SQL `text[]`, each a bound parameter; `array[]::text[]` when empty (an empty
 * `in ()` list would be a syntax error).
 */
function textArray(ids: string[]): SQL {
  return sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`
}

const offsetOf = (page: number, limit: number) => (page - 1) * limit

/**
 * One page, newest first, of the products (aliased `p`) satisfying `where`, and their count. The
 * page's ids are chosen first and only then expanded: PostgreSQL computes the select list of the
 * rows an OFFSET skips too, so expanding before paging made page 80 of 100 cost 80 pages of
 * category lookups.
 */
async function newestPage(deps: CatalogDeps, where: SQL, page: number, limit: number): Promise<ProductPage> {
  const [rows, [count]] = await Promise.all([
    queryRows<ProductRow>(
      deps.db,
      sql`select ${productColumns}
          from (select p.id, p.created_at from products p where ${where}
                order by ${newestFirst} limit ${limit} offset ${offsetOf(page, limit)}) page
          join products p on p.id = page.id
          order by ${newestFirst}`,
    ),
    queryRows<{ total: number }>(deps.db, sql`select count(*)::int as total from products p where ${where}`),
  ])
  return { data: rows.map(toProductAnswer), totalCount: count?.total ?? 0 }
}

/**
 * The words of a search, lower-cased, split on anything that is not a letter, mark or digit (as the
 * full-text parser does; marks keep Devanagari words whole), at most `MAX_SEARCH_TERMS`. Only these
 * words reach the SQL, as bound parameters. `"  Amul  PANNER!"` → `["amul", "panner"]`.
 */
export function searchTerms(search: string): string[] {
  return (
    search
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  ).slice(0, MAX_SEARCH_TERMS)
}

/**
 * The full-text document of a product: name and brand. Written exactly like the expression of the
 * GIN index `products_search_idx` (api/db/schema.ts) so that PostgreSQL uses that index.
 */
const searchDocument = sql`to_tsvector('simple', p.name || ' ' || coalesce(p.more_details->>'brand', ''))`

/**
 * How well a search word matched a product, best first (the `quality` column below).
 * WORD: a whole word of the name or brand, or its plain English plural or singular ("egg" → eggs);
 * PREFIX: the start of one ("choc" → chocolate); SPELLING: close in spelling to a word of the name
 * ("panner" → paneer).
 */
const MatchQuality = { WORD: 0, PREFIX: 1, SPELLING: 2 } as const

/**
 * A tsquery (text, for `to_tsquery('simple', …)`) matching `term` as a whole word or as its plain
 * English plural or singular: `egg` → `egg | eggs | egges`, `eggs` → `eggs | eggss | eggses | egg`.
 * The 'simple' configuration (the one the index is built with) does no stemming, and product
 * names are English. `term` holds letters and digits only (`searchTerms`), so the text is safe.
 */
export function wordQuery(term: string): string {
  const forms = new Set([term, `${term}s`, `${term}es`])
  if (term.length > 3 && term.endsWith('s')) forms.add(term.slice(0, -1))
  if (term.length > 4 && term.endsWith('es')) forms.add(term.slice(0, -2))
  return [...forms].join(' | ')
}

/**
 * The CTEs `hits`, `per_term`, `word_counts` and `matched`: every published product where every
 * search word matches, with `quality` (the worst of its words' `MatchQuality`) and `popularity`.
 *
 * Whole words and word prefixes of the name or brand come from full-text search (GIN index
 * `products_search_idx`); words of 3 letters or more also match by spelling against a word of the
 * name (pg_trgm `<<%`, GIN index `products_name_trgm_idx`, threshold set for the transaction). One
 * index scan per branch, combined with UNION ALL rather than OR: an OR makes PostgreSQL recheck
 * every condition on every candidate row, and the tsvector of hundreds of rows is slow to compute.
 *
 * A misspelt word is often as close to a rare word as to the intended one ("panner" is one letter
 * from both "banner" and "paneer"). The intended word is usually the common one in a grocery
 * catalogue, so a spelling match remembers which word of the name it matched, and `popularity` is
 * the number of products that matched the same word (the least of these over the product's
 * misspelt words; 0 when nothing was misspelt).
 */
function matchedProducts(terms: string[]): SQL {
  const fuzzy = new Set(
    terms
      .map((term, i) => ({ term, i }))
      .filter(({ term }) => term.length >= MIN_FUZZY_TERM_LENGTH)
      .slice(0, MAX_FUZZY_TERMS)
      .map(({ i }) => i),
  )
  const hits = terms.flatMap((term, i) => {
    // Name and creation time ride along so that ranking needs no second visit to the table.
    const columns = (quality: number) => sql`p.id, p.name, p.created_at, ${i}::int as term, ${quality}::int as quality`
    const branches = [
      sql`select ${columns(MatchQuality.WORD)}, null::text as word from products p
        where p.publish and ${searchDocument} @@ to_tsquery('simple', ${wordQuery(term)})`,
      sql`select ${columns(MatchQuality.PREFIX)}, null::text as word from products p
        where p.publish and ${searchDocument} @@ to_tsquery('simple', ${`${term}:*`})`,
    ]
    if (fuzzy.has(i)) {
      const closestWord = sql`(select w from unnest(tsvector_to_array(to_tsvector('simple', p.name))) w
        order by similarity(${term}, w) desc, w limit 1)`
      branches.push(sql`select ${columns(MatchQuality.SPELLING)}, ${closestWord} as word from products p
        where p.publish and ${term} <<% lower(p.name)`)
    }
    return branches
  })
  return sql`hits as (${sql.join(hits, sql` union all `)}),
    per_term as (
      select id, name, created_at, term, min(quality) as quality, min(word) as word
      from hits group by id, name, created_at, term
    ),
    word_counts as (
      select term, word, count(*)::int as n from per_term where quality = ${MatchQuality.SPELLING} group by term, word
    ),
    matched as (
      select t.id, t.name, t.created_at, max(t.quality) as quality, coalesce(min(wc.n), 0) as popularity
      from per_term t
        left join word_counts wc on t.quality = ${MatchQuality.SPELLING} and wc.term = t.term and wc.word = t.word
      group by t.id, t.name, t.created_at
      having count(*) = ${terms.length}
    )`
}

/**
 * Best first: the name equals the search; then products whose every word matched as a whole word;
 * then as whole words or word prefixes; then by spelling, the more popular corrected word first and
 * then the closer spelling (strict word similarity). Within each: names starting with the search,
 * then shorter names (more of the name is what was asked for), then newest, then id. Columns of
 * the `ranked` select below, over `m` = matched. The similarity is computed for spelling matches
 * only: it is the costliest part of ranking (trigrams of both strings, per row), and a one-letter
 * search matches thousands of products.
 */
function rankColumns(terms: string[]): SQL {
  const query = terms.join(' ')
  return sql`case when lower(m.name) = ${query} then 0 else 1 + m.quality end as tier,
    starts_with(lower(m.name), ${query}) as starts,
    m.popularity,
    case when m.quality = ${MatchQuality.SPELLING} then strict_word_similarity(${query}, lower(m.name)) else 0 end
      as closeness,
    length(m.name) as length,
    m.created_at`
}
/** The order of `rankColumns`, on the output names of `ranked` (qualified by `table` outside it). */
function rankOrder(table?: 'r'): SQL {
  const t = sql.raw(table ? `${table}.` : '')
  return sql`${t}tier, ${t}starts desc, ${t}popularity desc, ${t}closeness desc, ${t}length,
    ${t}created_at desc nulls last, ${t}id`
}

/**
 * The query of one page of search results, each row a product answer plus `totalCount` (the number
 * of matches in all). Run it inside `searchProducts`' transaction (it relies on its settings);
 * exported so that its plan can be inspected with EXPLAIN.
 * @param terms the words of the search (`searchTerms`), at least one
 */
export function searchPageQuery(terms: string[], page: number, limit: number): SQL {
  return sql`with ${matchedProducts(terms)},
    ranked as (
      select m.id, ${rankColumns(terms)}, count(*) over () as total
      from matched m
      order by ${rankOrder()} limit ${limit} offset ${offsetOf(page, limit)}
    )
    select ${productColumns}, r.total::int as "totalCount"
    from ranked r join products p on p.id = r.id
    order by ${rankOrder('r')}`
}

/**
 * One page of published products matching `search` (typo tolerant, ranked: see `matchedProducts`
 * and `rankColumns`), or of all published products newest first when the search has no word.
 * Serves POST /api/product/get and /api/product/search-product. Cached under
 * `product:search:[words, page, limit]`; `opts.beforeSearch` runs before a search the cache could
 * not answer (the route's per-client rate limit), and may throw to refuse it; `opts.gate` bounds how
 * many such searches query the database at once (503 past its line, api/lib/gate.ts).
 * @param input.page 1-based page; input.limit page size (already capped by the schema)
 * @returns the page and the number of matches in all
 */
export function searchProducts(
  deps: CatalogDeps,
  input: ProductSearchInput,
  opts: { beforeSearch?: () => Promise<void>; gate?: Gate } = {},
): Promise<ProductPage> {
  const terms = searchTerms(input.search)
  const { page, limit } = input
  const key = `product:search:${JSON.stringify([terms.join(' '), page, limit])}`
  return deps.cache.get(key, async () => {
    if (terms.length === 0) return newestPage(deps, sql`p.publish`, page, limit)
    // Only a search the cache could not answer costs database time: that is what is rate-limited.
    await opts.beforeSearch?.()
    const query = () =>
      deps.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('statement_timeout', ${String(SEARCH_STATEMENT_TIMEOUT_MS)}, true)`)
        // `<<%` reads its threshold from a setting, not an argument: set it for this transaction only.
        await tx.execute(sql`select set_config('pg_trgm.strict_word_similarity_threshold', ${String(WORD_SIMILARITY_THRESHOLD)}, true)`)
        // The planner prices the trigram index above a sequential scan of the table, but the scan
        // computes the similarity of all 8,208 names where the index visits a few hundred candidates
        // (several times slower on PGlite, measured): keep it on the indexes, for this transaction only.
        await tx.execute(sql`set local enable_seqscan = off`)
        const rows = await queryRows<ProductRow & { totalCount: number }>(tx, searchPageQuery(terms, page, limit))
        if (rows.length > 0) {
          return { data: rows.map(({ totalCount: _, ...row }) => toProductAnswer(row)), totalCount: rows[0]!.totalCount }
        }
        // A page past the end has no row to carry the count.
        const [count] = await queryRows<{ total: number }>(
          tx,
          sql`with ${matchedProducts(terms)} select count(*)::int as total from matched`,
        )
        return { data: [], totalCount: count?.total ?? 0 }
      })
    return opts.gate ? opts.gate.run(query) : query()
  })
}

/**
 * At most 15 published products (newest first) of each category in `categoryIds`, in the order of
 * the ids; unknown ids give an empty row. One query: `row_number()` over each category's products
 * keeps the first 15, and only those are expanded. (Measured on the 8,208-product catalogue, this
 * beat a LATERAL join with LIMIT 15, which walks the newest-first index probing each product's
 * categories.) Cached under `product:by-category:[ids]`.
 */
export function productsByCategoryGrouped(deps: CatalogDeps, categoryIds: string[]): Promise<CategoryProducts[]> {
  const key = `product:by-category:${JSON.stringify(categoryIds)}`
  return deps.cache.get(key, async () => {
    if (categoryIds.length === 0) return []
    const ids = textArray(categoryIds)
    const rows = await queryRows<ProductRow & { rowCategoryId: string }>(
      deps.db,
      sql`select top.category_id as "rowCategoryId", ${productColumns}
          from (
            select pc.category_id, p.id,
              row_number() over (partition by pc.category_id order by ${newestFirst}) as rank
            from product_categories pc join products p on p.id = pc.product_id
            where pc.category_id = any(${ids}) and p.publish
          ) top
          join products p on p.id = top.id
          where top.rank <= ${PRODUCTS_PER_CATEGORY}
          order by array_position(${ids}, top.category_id), top.rank`,
    )
    const groups = new Map(categoryIds.map((id) => [id, [] as ProductAnswer[]]))
    for (const { rowCategoryId, ...row } of rows) groups.get(rowCategoryId)?.push(toProductAnswer(row))
    return categoryIds.map((categoryId) => ({ categoryId, products: groups.get(categoryId) ?? [] }))
  })
}

/**
 * The flat form of `productsByCategoryGrouped`: the rows one after another, each product once (a
 * product in two of the categories appears in the first one's place). The original client's form.
 */
export async function productsByCategory(deps: CatalogDeps, categoryIds: string[]): Promise<ProductAnswer[]> {
  const groups = await productsByCategoryGrouped(deps, categoryIds)
  const seen = new Set<string>()
  const flat: ProductAnswer[] = []
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
export function productsByCategoryAndSubCategory(deps: CatalogDeps, input: ProductsByCategoryAndSubCategoryInput): Promise<ProductPage> {
  const { categoryId, subCategoryId, page, limit } = input
  const key = `product:by-category-and-sub:${JSON.stringify([categoryId, subCategoryId, page, limit])}`
  return deps.cache.get(key, async () => {
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
  })
}

/** Ids are opaque, but ours are short runs of letters and digits; anything else cannot exist. */
const PLAUSIBLE_ID = /^[A-Za-z0-9]{1,64}$/

/**
 * One published product by id. Cached under `product:details:<id>` (a miss is not cached).
 * @throws NotFound "Product not found" when the id is unknown, unpublished or not an id at all
 */
export async function productDetails(deps: CatalogDeps, productId: string): Promise<ProductAnswer> {
  if (!PLAUSIBLE_ID.test(productId)) throw NotFound('Product not found')
  return deps.cache.get(`product:details:${productId}`, async () => {
    const [row] = await queryRows<ProductRow>(
      deps.db,
      sql`select ${productColumns} from products p where p.id = ${productId} and p.publish`,
    )
    if (!row) throw NotFound('Product not found')
    return toProductAnswer(row)
  })
}

/**
 * Products by id as answered, published or not, fresh from the database (never the cache: a cart
 * must show the stock and price of now). Unknown ids are absent from the map. One query.
 */
export async function productAnswersByIds(db: Pick<Db, 'execute'>, ids: string[]): Promise<Map<string, ProductAnswer>> {
  if (ids.length === 0) return new Map()
  const rows = await queryRows<ProductRow>(db, sql`select ${productColumns} from products p where p.id = any(${textArray(ids)})`)
  return new Map(rows.map((row) => [row._id, toProductAnswer(row)]))
}

// ---------------------------------------------------------------------------------------------
// Writes (ADMIN; issue 4). Rules: docs/decisions/0008-catalogue-writes.md.
// ---------------------------------------------------------------------------------------------

export const PRODUCT_CREATED = 'Product Created Successfully'
export const PRODUCT_UPDATED = 'Product updated successfully'
export const PRODUCT_DELETED = 'Product deleted successfully'
export const PRODUCT_NOT_FOUND = 'Product not found'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** One product as answered whether published or not, or undefined. `db` may be a transaction. */
async function productById(db: Pick<Db, 'execute'>, id: string): Promise<ProductAnswer | undefined> {
  const [row] = await queryRows<ProductRow>(db, sql`select ${productColumns} from products p where p.id = ${id}`)
  return row ? toProductAnswer(row) : undefined
}

/** The ids a product is linked to through `table` (its categories or sub categories), in the admin's order. */
async function linkedIds(tx: Tx, table: 'product_categories' | 'product_sub_categories', productId: string): Promise<string[]> {
  const column = table === 'product_categories' ? 'category_id' : 'sub_category_id'
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select ${sql.identifier(column)} as id from ${sql.identifier(table)} where product_id = ${productId} order by position`,
  )
  return rows.map((r) => r.id)
}

/**
 * Checks the category and sub category ids a product will have: every id exists, and every sub
 * category is listed under at least one of the categories (the storefront lists a product under
 * /{category}/{subCategory}, spec section 2, so a sub category of another category would hide it).
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
    const outside = await queryRows<{ id: string; name: string }>(
      tx,
      sql`select s.id, s.name from sub_categories s
          where s.id = any(${textArray(distinct.map((d) => d.id))})
            and not exists (select 1 from sub_category_categories l
                            where l.sub_category_id = s.id and l.category_id = any(${textArray(categoryIds)}))`,
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

/** Each image url once, in the order given (the first is the card's picture). */
const distinctUrls = (urls: string[]) => [...new Set(urls)]

/** A category or sub category deleted by a concurrent write between the check and the link. */
function asUnknownReference(err: unknown): unknown {
  if (!isForeignKeyViolation(err)) return err
  const message = 'A chosen category or sub category no longer exists'
  return BadRequest(message, [{ path: 'category', message }])
}

/**
 * MRP, selling price and discount kept consistent (docs/commerce-api.md, "Products"): a given
 * selling price wins and the discount is derived from it (two decimals); without one, the selling
 * price is derived from MRP and discount, rounded to the paisa. Amounts in rupees.
 * @throws 400 when the selling price is above the MRP
 */
export function consistentPrices(input: { price: number; discount: number; sellingPrice?: number }) {
  const mrpPaise = toPaise(input.price)
  if (input.sellingPrice !== undefined) {
    const sellingPaise = toPaise(input.sellingPrice)
    if (sellingPaise > mrpPaise) {
      const message = 'Selling price cannot be above the price (MRP)'
      throw BadRequest(message, [{ path: 'sellingPrice', message }])
    }
    return { price: input.price, sellingPrice: fromPaise(sellingPaise), discount: discountFromPrices(mrpPaise, sellingPaise) }
  }
  return { price: input.price, discount: input.discount, sellingPrice: fromPaise(sellingPaiseFromDiscount(mrpPaise, input.discount)) }
}

/**
 * Creates a product with its category and sub category links in one transaction
 * (POST /api/product/create). Published at once.
 * @param input the create payload, already validated by CreateProductSchema (price in rupees,
 *   discount in percent)
 * @param idempotency the request's idempotency key, if it sent one: a retry answers the first
 *   request's product (api/lib/idempotency.ts)
 * @returns the new product, category and subCategory expanded
 * @throws 400 with issues: an image that is not one of the store's, an unknown category or sub
 *   category id, a sub category outside the chosen categories; 422 idempotency key reused for
 *   another body
 */
export async function createProduct(
  deps: CatalogWriteDeps,
  input: CreateProductInput,
  idempotency?: IdempotencyClaim,
): Promise<ProductAnswer> {
  await assertStoredImages(
    deps.storage,
    input.image.map((url, i) => ({ path: `image.${i}`, url })),
  )
  const answer = await deps.db
    .transaction((tx) =>
      runOnce(tx, idempotency, async () => {
        await assertLinksValid(tx, input.category, input.subCategory, { category: true, subCategory: true })
        const [row] = await tx
          .insert(products)
          .values({
            name: input.name,
            image: distinctUrls(input.image),
            unit: input.unit,
            stock: input.stock,
            ...consistentPrices({ price: input.price, discount: input.discount, sellingPrice: input.sellingPrice }),
            description: input.description,
            moreDetails: input.more_details,
            publish: true,
          })
          .returning({ id: products.id })
        await replaceLinks(tx, row!.id, 'categories', input.category)
        await replaceLinks(tx, row!.id, 'subCategories', input.subCategory)
        return (await productById(tx, row!.id))!
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
export async function updateProduct(deps: CatalogWriteDeps, input: UpdateProductInput): Promise<ProductAnswer> {
  if (input.image)
    await assertStoredImages(
      deps.storage,
      input.image.map((url, i) => ({ path: `image.${i}`, url })),
    )
  const { answer, droppedImages } = await deps.db
    .transaction(async (tx) => {
      const [current] = await tx
        .select({ image: products.image, price: products.price, discount: products.discount, updatedAt: products.updatedAt })
        .from(products)
        .where(eq(products.id, input._id))
        .for('update')
      if (!current) throw NotFound(PRODUCT_NOT_FOUND)
      assertReadVersion(current.updatedAt, input.updatedAt, 'product')
      const pricesGiven = input.price !== undefined || input.discount !== undefined || input.sellingPrice !== undefined
      // A new MRP alone keeps the discount (the original client's behaviour) and moves the selling price.
      const prices = pricesGiven
        ? consistentPrices({
            price: input.price ?? Number(current.price),
            discount: input.discount ?? Number(current.discount),
            sellingPrice: input.sellingPrice,
          })
        : {}
      const given = { category: input.category !== undefined, subCategory: input.subCategory !== undefined }
      if (given.category || given.subCategory) {
        const categoryIds = input.category ?? (await linkedIds(tx, 'product_categories', input._id))
        const subCategoryIds = input.subCategory ?? (await linkedIds(tx, 'product_sub_categories', input._id))
        await assertLinksValid(tx, categoryIds, subCategoryIds, given)
      }
      const image = input.image ? distinctUrls(input.image) : undefined
      await tx
        .update(products)
        .set({
          name: input.name,
          image,
          unit: input.unit,
          stock: input.stock,
          ...prices,
          description: input.description,
          moreDetails: input.more_details,
          // Also when only the links change: the product did change.
          updatedAt: new Date(),
        })
        .where(eq(products.id, input._id))
      if (input.category) await replaceLinks(tx, input._id, 'categories', input.category)
      if (input.subCategory) await replaceLinks(tx, input._id, 'subCategories', input.subCategory)
      const dropped = image ? current.image.filter((url) => !image.includes(url)) : []
      return { answer: (await productById(tx, input._id))!, droppedImages: dropped }
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
export async function deleteProduct(deps: CatalogWriteDeps, id: string): Promise<void> {
  const [deleted] = await deps.db.delete(products).where(eq(products.id, id)).returning({ image: products.image })
  if (!deleted) throw NotFound(PRODUCT_NOT_FOUND)
  deps.cache.invalidate()
  await releaseImages(deps, deleted.image)
}
