/**
 * What the audit trail keeps of a product (docs/product.md, "Audit trail"): its name, SKU, unit,
 * prices in rupees (the MRP, kept as `price`, its wire name; `sellingPrice`; `discount` %), stock (of one store, or the default
 * store's as the bulk paths read it, ./stock.ts), `publish`, category and sub category ids and the
 * description (cut by api/lib/audit.ts). Never the image list or the more-details table: an entry
 * stays small, and says which fields changed from what to what.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows, textList } from '../../db/query.ts'
import { changedFields, type AuditAction, type AuditEntry, type AuditValues } from '../../lib/audit.ts'
import { stockOf } from './stock.ts'

/**
 * The audited fields of each product in `ids` (absent ids are missing from the map), read by `db`
 * (the write's transaction). `storeId` names the store whose stock is read; default: the default store.
 */
export async function productAuditValues(db: Pick<Db, 'execute'>, ids: string[], storeId?: string): Promise<Map<string, AuditValues>> {
  if (ids.length === 0) return new Map()
  const stock: SQL = storeId
    ? sql`coalesce((select i.stock from inventory i where i.product_id = p.id and i.store_id = ${storeId}), 0)`
    : stockOf()
  // raw SQL: audited values with ordered link ids (correlated array_agg) and a store stock subquery
  const rows = await queryRows<AuditValues & { id: string; mrp: number }>(
    db,
    sql`select p.id, p.name, p.sku, p.unit, p.price::float8 as mrp, p.selling_price::float8 as "sellingPrice",
               p.discount::float8 as discount, ${stock} as stock, p.publish, p.description,
               coalesce((select array_agg(l.category_id order by l.position, l.category_id) from product_categories l where l.product_id = p.id), '{}') as category,
               coalesce((select array_agg(l.sub_category_id order by l.position, l.sub_category_id) from product_sub_categories l where l.product_id = p.id), '{}') as "subCategory"
        from products p where p.id = any(${textList(ids)})`,
  )
  // An entry names the MRP `price`, as the API and the entries already stored do (docs/product.md, "Audit trail").
  return new Map(rows.map(({ id, mrp, ...values }) => [id, { price: mrp, ...values }]))
}

/**
 * One entry per product of `ids` whose audited fields differ between `before` and `after` (a
 * product missing from `before` was created, one missing from `after` deleted).
 */
export function productAuditEntries(
  actor: string | null,
  action: AuditAction,
  ids: string[],
  before: Map<string, AuditValues>,
  after: Map<string, AuditValues>,
): AuditEntry[] {
  return ids.map((id) => {
    const was = before.get(id)
    const now = after.get(id)
    const change = was && now ? changedFields(was, now) : { before: was ?? null, after: now ?? null }
    return { actor, action, entity: 'product', entityId: id, ...change }
  })
}
