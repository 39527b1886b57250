/**
 * One page of a product list with filters, a sort and facet counts, in one statement (docs/search.md):
 * the search's ranked matches, or a category listing, or every product. The statement finds the
 * list's products (a search: `where` alone, through the GIN indexes of migrations 0006_search and
 * 0007_search_shelves; a listing: its `candidates`, a shelf's links), keeps the published ones that
 * satisfy `where`, computes the ranking columns once for those only, and answers the page's
 * products (expanded after the page is chosen) with the count and (when asked) the facets as
 * one-time subqueries over the same rows, so nothing is computed twice.
 *
 * Facet counts follow the usual rule of faceted navigation: each facet counts the list under the
 * other facets' filters, not its own, so choosing a brand still shows how many products the other
 * brands have.
 *
 * With `groupSizes` (docs/product.md, "Pack sizes") each pack group is listed once: of its products
 * the filters keep, the first in stock in the store, then the first in the list's own order (the
 * ranking or the sort), stands for it and carries every size of the group (`packSizes`, read for the
 * page's rows only); the count and the facets count groups (a product without a group is a group
 * of its own).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { storeInStock } from '../inventory/stock-bits.ts'
import { offsetOf, packSizesColumn, productColumns, toProductAnswer, type ProductRow } from '../product/reads.ts'
import { DISCOUNT_STEPS, PRICE_BANDS, type Facets, type ListOptions } from './schemas.ts'
import type { Product } from '../../../contract/product.ts'

/** Brands listed in the brand facet at most (the commonest first; chosen brands always). */
export const MAX_BRAND_FACET_VALUES = 30

/** How a list is ranked when sorted by relevance (and after the price or discount of another sort). */
export interface Ranking {
  /**
   * The points of a product, higher first, over the columns of `matched` (aliased `m`, see
   * `columns`); null for listings, which are newest first.
   */
  score: SQL | null
  /** Columns computed once per product (aliased `p`) into `matched`, which `score` adds up. */
  columns?: SQL
  /** Products of at least these points come before the others (then in-stock first within each). */
  strongScore?: number
  /**
   * The search names a pack size: `columns` has `r_size`, how well the product's size answers it
   * (3 the same, 2 near, 1 the same kind of unit, 0 none; api/modules/product/sizes.ts, `sizeTier`).
   * Among the products the words agree with, that size comes first, then stock, then the nearer
   * sizes; no size is left out (docs/search.md, "Pack sizes").
   */
  sized?: boolean
  /**
   * `columns` has `r_combo` and the search has a modifier (a colour, an attribute): bundles come
   * after the single products as strong, which a modifier's words in a bundle's long name could
   * otherwise outrank (docs/search.md, "Modifiers").
   */
  bundlesLast?: boolean
}

/** What one list statement reads. */
export interface ListQuery {
  /**
   * A select of product ids (`id`) the list is among, possibly with duplicates and unpublished
   * products; absent when `where` alone finds them through an index (a search).
   */
  candidates?: SQL
  /** A condition on the product `p` every listed product satisfies (besides being published). */
  where: SQL
  ranking: Ranking
  options: ListOptions
  page: number
  limit: number
  /** The dark store whose stock the list shows and ranks by (docs/stores.md). */
  storeId: string
}

/** The answer of `listPage`: the page's products in order, the count of the filtered list, the facets if asked. */
export interface ListPage {
  products: Product[]
  totalCount: number
  facets?: Facets
}

const PRICE_BAND_CASE = sql.raw(
  `case ${PRICE_BANDS.map((b) => `when p.selling_price >= ${b.min}${b.max === null ? '' : ` and p.selling_price < ${b.max}`} then '${b.id}'`).join(' ')} end`,
)

/** The order of the list, on the columns of `matched` (see `listPage`). */
function orderBy(query: ListQuery): SQL {
  const relevance = query.ranking.score
    ? sql`(m.score >= ${query.ranking.strongScore ?? 0}) desc, ${query.ranking.bundlesLast ? sql`m.r_combo, ` : sql``}${query.ranking.sized ? sql`(m.r_size = 3) desc, ` : sql``}m.in_stock desc, ${query.ranking.sized ? sql`m.r_size desc, ` : sql``}m.score desc, m.name_length, m.created_at desc nulls last, m.id`
    : sql`m.in_stock desc, m.created_at desc nulls last, m.id`
  switch (query.options.sort) {
    case 'popular':
      // In stock first, as every list (docs/stores.md, "Stock"), then the most ordered.
      return sql`m.in_stock desc, m.orders desc, ${relevance}`
    case 'newest':
      return sql`m.in_stock desc, m.created_at desc nulls last, m.id`
    case 'price_asc':
      return sql`m.selling_price asc, ${relevance}`
    case 'price_desc':
      return sql`m.selling_price desc, ${relevance}`
    case 'discount':
      return sql`m.discount desc, ${relevance}`
    default:
      return relevance
  }
}

/** Whether the list is narrowed by a filter (brand, price band or least discount). */
function isFiltered(options: ListOptions): boolean {
  return options.brand.length > 0 || options.price !== null || options.discount !== null
}

/**
 * The CTE `matched`: every product of the list with its sort and ranking columns, and (when the
 * list is filtered or counts facets) its facet values and filter flags. Only the columns the
 * statement reads are computed: at 100,000 products a common word matches about 3,000 products,
 * and every column costs per match.
 *
 * Without facets it is read once and is not materialized; its `offset 0` keeps PostgreSQL from
 * merging it into the query that reads it (the planner never pulls up a subquery that has LIMIT or
 * OFFSET), so that each ranking column is computed once per product and the score reads the
 * result, instead of the column's expression being copied into every place the score mentions it
 * (a CTE read once is otherwise inlined). With facets, each facet reads it too, so it is
 * materialized.
 */
function matchedProducts(query: ListQuery): SQL {
  const { brand, price, discount, facets } = query.options
  const band = PRICE_BANDS.find((b) => b.id === price)
  const brands = brand.map((b) => b.toLowerCase())
  const brandOk = brands.length
    ? sql`lower(trim(coalesce(p.more_details->>'brand', ''))) = any(array[${sql.join(
        brands.map((b) => sql`${b}`),
        sql`, `,
      )}]::text[])`
    : sql`true`
  const priceOk = band
    ? sql`p.selling_price >= ${band.min}${band.max === null ? sql`` : sql` and p.selling_price < ${band.max}`}`
    : sql`true`
  const discountOk = discount !== null ? sql`p.discount >= ${discount}` : sql`true`
  const facetColumns = facets ? sql`, trim(coalesce(p.more_details->>'brand', '')) as brand, ${PRICE_BAND_CASE} as band` : sql``
  const flagColumns =
    facets || isFiltered(query.options) ? sql`, ${brandOk} as brand_ok, ${priceOk} as price_ok, ${discountOk} as discount_ok` : sql``
  const { columns } = query.ranking
  // Popularity (docs/search.md, "Facets and sorting"): how many order lines name the product, one
  // probe of order_lines_product_idx per listed product, computed only for that sort.
  const ordersColumn =
    query.options.sort === 'popular' ? sql`, (select count(*) from order_lines ol where ol.product_id = p.id)::int as orders` : sql``
  return sql`matched as ${facets ? sql`materialized` : sql`not materialized`} (
      select p.id, length(p.name) as name_length, p.created_at, p.selling_price, p.discount, ${storeInStock(query.storeId)} as in_stock
        ${query.options.groupSizes ? sql`, coalesce(p.pack_group, p.id) as pack_group` : sql``}${facetColumns}${flagColumns}${ordersColumn}${columns ? sql`, ${columns}` : sql``}
      from products p
      where ${query.candidates ? sql`p.id in (${query.candidates}) and ` : sql``}p.publish and ${query.where}
      ${facets ? sql`` : sql`offset 0`}
    )`
}

/**
 * The rows of `matched` the filters keep, with their points (`score`), aliased `m`. A search that
 * names a pack size is not narrowed by it: the products of that size (`r_size` 3) come first among
 * the products its words agree with (`orderBy`), and the other sizes and the nearest products fill
 * the page after them (docs/search.md, "Pack sizes": a size narrows but never leaves one card).
 * With `groupSizes`, one row per pack group (see the module comment).
 */
function filteredProducts(query: ListQuery): SQL {
  const rows = keptProducts(query)
  if (!query.options.groupSizes) return rows
  // One row per pack group: its first in stock, then first in the list's order (module comment), so
  // a price sort never shows a group by a sold-out size while another size is in stock; for a search
  // naming a size, the group's pack of that size first, in stock or not.
  return sql`(select g.* from (
        select m.*, row_number() over (partition by m.pack_group order by ${query.ranking.sized ? sql`(m.r_size = 3) desc, ` : sql``}m.in_stock desc, ${orderBy(query)}) as pack_rank from ${rows}) g
      where g.pack_rank = 1) m`
}

/** The rows of `matched` the filters keep, aliased `m`: `filteredProducts` before pack groups. */
function keptProducts(query: ListQuery): SQL {
  const keep = isFiltered(query.options) ? sql`m.brand_ok and m.price_ok and m.discount_ok` : sql`true`
  return sql`(select m.*, ${query.ranking.score ?? sql`0`} as score from matched m where ${keep}) m`
}

/** The facets as one JSON value over `matched` (see the module comment). */
function facetsColumn(chosenBrands: string[], groupSizes: boolean): SQL {
  const chosen = chosenBrands.map((b) => b.toLowerCase())
  const chosenList = chosen.length
    ? sql`array[${sql.join(
        chosen.map((b) => sql`${b}`),
        sql`, `,
      )}]::text[]`
    : sql`array[]::text[]`
  const steps = sql.join(
    DISCOUNT_STEPS.map(
      (step) => sql`json_build_object('value', ${String(step)}::text, 'count', count(*) filter (where m.discount >= ${step}))`,
    ),
    sql`, `,
  )
  // Pack groups count once (module comment): each facet first folds its rows to one per group and
  // value (a hash aggregate; `count(distinct …)` sorted every row once per count, measured 40 ms
  // on PGlite for a category of 3,789 products). A group's sizes may differ in price and discount,
  // so it counts in each band one of its sizes is in, and in a discount step when its largest
  // discount reaches it.
  const perGroup = (columns: SQL, where: SQL, groupBy: SQL) =>
    groupSizes
      ? sql`(select ${columns} from matched m where ${where} group by ${groupBy}, m.pack_group)`
      : sql`(select ${columns} from matched m where ${where})`
  const brands = perGroup(sql`min(m.brand) as brand`, sql`m.price_ok and m.discount_ok and m.brand <> ''`, sql`lower(m.brand)`)
  const bands = perGroup(sql`m.band`, sql`m.brand_ok and m.discount_ok`, sql`m.band`)
  const discounts = groupSizes
    ? sql`(select max(m.discount) as discount from matched m where m.brand_ok and m.price_ok group by m.pack_group)`
    : sql`(select m.discount from matched m where m.brand_ok and m.price_ok)`
  // Without groups `perGroup` answers the rows themselves (`min(m.brand)` needs its GROUP BY there).
  const brandRows = groupSizes ? brands : sql`(select m.brand from matched m where m.price_ok and m.discount_ok and m.brand <> '')`
  return sql`json_build_object(
      'brand', (select coalesce(json_agg(json_build_object('value', b.brand, 'count', b.n) order by b.n desc, b.brand), '[]')
                from (select min(m.brand) as brand, count(*)::int as n, row_number() over (order by count(*) desc, min(m.brand)) as r
                      from ${brandRows} m
                      group by lower(m.brand)) b
                where b.r <= ${MAX_BRAND_FACET_VALUES} or lower(b.brand) = any(${chosenList})),
      'price', (select coalesce(json_agg(json_build_object('value', x.band, 'count', x.n)), '[]')
                from (select m.band, count(*)::int as n from ${bands} m group by m.band) x),
      'discount', (select json_build_array(${steps}) from ${discounts} m)
    )`
}

/** Labels and order of the facet values as answered (the statement answers values and counts). */
function labelled(
  raw: {
    brand: Array<{ value: string; count: number }>
    price: Array<{ value: string; count: number }>
    discount: Array<{ value: string; count: number }>
  },
  chosenBrands: string[],
): Facets {
  const priceCounts = new Map(raw.price.map((p) => [p.value, p.count]))
  const brand = raw.brand.map((b) => ({ value: b.value, label: b.value, count: b.count }))
  for (const chosen of chosenBrands) {
    if (!brand.some((b) => b.value.toLowerCase() === chosen.toLowerCase())) brand.push({ value: chosen, label: chosen, count: 0 })
  }
  return {
    brand,
    price: PRICE_BANDS.map((b) => ({ value: b.id, label: b.label, count: priceCounts.get(b.id) ?? 0 })),
    discount: raw.discount.map((d) => ({ value: d.value, label: `${d.value}% off or more`, count: Number(d.count) })),
  }
}

/**
 * One page of `query`: its products as answered, in order, the count, and the facets when
 * `options.facets`. Run it in the caller's transaction or on the pool; one statement, two when a
 * page past the first is empty, or an empty page has facets to count (the count and facets are
 * then read on their own). Only the page's products are expanded into answers (their categories and sub
 * categories), after the page is chosen.
 */
export async function listPage(db: Pick<Db, 'execute'>, query: ListQuery): Promise<ListPage> {
  const { options } = query
  const facets = options.facets ? facetsColumn(options.brand, options.groupSizes) : sql`null::json`
  // The count rides on the page (a window over every filtered row, computed before the page is cut),
  // so the filtered rows are read once.
  // raw SQL: a CTE of the matches with the count window and facets in one statement; measured, docs/search.md "Performance"
  const rows = await queryRows<ProductRow & { total: number; facets: Parameters<typeof labelled>[0] | null }>(
    db,
    sql`with ${matchedProducts(query)}
        select ${productColumns(query.storeId)}${options.groupSizes ? sql`, ${packSizesColumn(query.storeId)} as "packSizes"` : sql``}, m.total, ${facets} as facets
        from (select m.*, (count(*) over ())::int as total from ${filteredProducts(query)}
              order by ${orderBy(query)}
              limit ${query.limit} offset ${offsetOf(query.page, query.limit)}) m
        join products p on p.id = m.id
        order by ${orderBy(query)}`,
  )
  let head: { total: number; facets: Parameters<typeof labelled>[0] | null } | undefined = rows[0]
  // An empty first page is an empty list: nothing more to count unless facets are asked for (each
  // facet counts under the other filters, which may leave products).
  if (!head && query.page === 1 && !options.facets) head = { total: 0, facets: null }
  if (!head) {
    // raw SQL: the CTE of the page query, counted and faceted alone when the page is empty
    const [summary] = await queryRows<{ total: number; facets: Parameters<typeof labelled>[0] | null }>(
      db,
      sql`with ${matchedProducts(query)} select (select count(*)::int from ${filteredProducts(query)}) as total, ${facets} as facets`,
    )
    head = { total: summary?.total ?? 0, facets: summary?.facets ?? null }
  }
  return {
    products: rows.map(({ total: _total, facets: _facets, ...row }) => toProductAnswer(row)),
    totalCount: head.total,
    ...(options.facets && head.facets ? { facets: labelled(head.facets, options.brand) } : {}),
  }
}
