/**
 * The admin product grid (POST /api/product/admin-list; docs/product-csv.md, "The admin grid"): every
 * product, published or not, filtered by search (name, brand or SKU), stock (out, low), category, sub
 * category and brand, in one of the grid's sorts, one page at a time. The same filters select the rows
 * of the CSV export (./export.ts), through `adminProductWhere`. Stock is the default store's
 * (./stock.ts `stockOf`).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { isoTimestamp } from '../../lib/catalog-sql.ts'
import {
  ADMIN_BRANDS_MAX,
  LOW_STOCK,
  type AdminProductFilter,
  type AdminProductListInput,
  type AdminProductRow,
  type AdminProductSort,
} from '../../../contract/product-admin.ts'
import { stockOf } from './stock.ts'

/** `text` as an ILIKE pattern matching it anywhere, its `\`, `%` and `_` taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

/**
 * The SQL condition on the product aliased `p` that `filter` selects (`true` without any filter):
 * `q` in the name, brand (`more_details.brand`) or SKU; stock 0 (`out`) or 1..LOW_STOCK (`low`) in
 * the default store; linked to the category / sub category id (the row's link copies, kept by
 * triggers: api/db/schema.ts `searchCategoryIds`); the brand equal without regard to case.
 */
export function adminProductWhere(filter: Partial<AdminProductFilter>): SQL {
  const parts: SQL[] = [sql`true`]
  const q = filter.q?.trim()
  if (q) {
    const like = containsPattern(q)
    parts.push(sql`(p.name ilike ${like} or coalesce(p.more_details->>'brand', '') ilike ${like} or coalesce(p.sku, '') ilike ${like})`)
  }
  if (filter.stock === 'out') parts.push(sql`${stockOf()} = 0`)
  if (filter.stock === 'low') parts.push(sql`${stockOf()} between 1 and ${LOW_STOCK}`)
  if (filter.category) parts.push(sql`${filter.category} = any(p.search_category_ids)`)
  if (filter.subCategory) parts.push(sql`${filter.subCategory} = any(p.search_sub_category_ids)`)
  const brand = filter.brand?.trim()
  if (brand) parts.push(sql`lower(coalesce(p.more_details->>'brand', '')) = lower(${brand})`)
  return sql.join(parts, sql` and `)
}

/** ORDER BY of each sort, over the page query's inner select `p`; the id breaks ties, so pages never overlap or skip a product. */
const ORDER_BY: Record<AdminProductSort, SQL> = {
  newest: sql`p.created_at desc, p."_id" desc`,
  name: sql`lower(p.name), p."_id"`,
  price_asc: sql`p.selling_price, p."_id"`,
  price_desc: sql`p.selling_price desc, p."_id"`,
  stock_asc: sql`p.stock, p."_id"`,
  stock_desc: sql`p.stock desc, p."_id"`,
}

/**
 * One page of the grid: the rows (prices in rupees, stock in units), the number of products the
 * filters select and the distinct brands of the whole catalogue (A–Z without regard to case, at most ADMIN_BRANDS_MAX), for
 * the brand filter's menu.
 */
export async function adminListProducts(
  db: Db,
  input: AdminProductListInput,
): Promise<{ data: AdminProductRow[]; totalCount: number; brands: string[] }> {
  const where = adminProductWhere(input)
  const [rows, [count], brands] = await Promise.all([
    // raw SQL: the admin grid: a WHERE built as SQL on alias p (adminProductWhere) and sort keys over computed columns
    queryRows<Omit<AdminProductRow, 'price'> & { mrp: number }>(
      db,
      sql`select * from (
            select p.id as "_id", p.sku, p.name, coalesce(p.more_details->>'brand', '') as brand, p.unit,
                   coalesce(p.image[1], '') as image, p.price::float8 as mrp, p.selling_price::float8 as "sellingPrice",
                   ${stockOf()}::int as stock, p.publish, p.created_at, p.selling_price, ${isoTimestamp(sql`p.updated_at`)} as "updatedAt"
            from products p where ${where}) p
          order by ${ORDER_BY[input.sort]} limit ${input.limit} offset ${(input.page - 1) * input.limit}`,
    ),
    // raw SQL: the count of the grid query above, over the same WHERE fragment
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from products p where ${where}`),
    // raw SQL: distinct JSON field values sorted byte-wise (collate "C") without regard to case
    queryRows<{ brand: string }>(
      db,
      sql`select brand from (select distinct p.more_details->>'brand' as brand from products p
                             where coalesce(p.more_details->>'brand', '') <> '') b
          order by lower(brand) collate "C", brand collate "C" limit ${ADMIN_BRANDS_MAX}`,
    ),
  ])
  return {
    // The wire's `price` is the MRP.
    data: rows.map(({ _id, sku, name, brand, unit, image, mrp, sellingPrice, stock, publish, updatedAt }) => ({
      _id,
      sku,
      name,
      brand,
      unit,
      image,
      price: Number(mrp),
      sellingPrice: Number(sellingPrice),
      stock: Number(stock),
      publish,
      updatedAt,
    })),
    totalCount: count?.n ?? 0,
    brands: brands.map((b) => b.brand),
  }
}
