/**
 * The grid's bulk price and stock edit (POST /api/product/bulk-update; docs/product-csv.md, "Bulk
 * edit from the grid"): MRP, selling price and stock of many products in ONE transaction, or none.
 * Prices keep the rules of a single update (./writes.ts, `consistentPrices`: the selling price at most
 * the MRP, the discount derived from the two); stock goes through ./stock.ts like the import's.
 */
import { asc, inArray, sql } from 'drizzle-orm'
import { products } from '../../db/schema.ts'
import { BadRequest, HttpError } from '../../lib/errors.ts'
import type { FieldIssue } from '../../../contract/envelope.ts'
import { discountFromPrices, fromPaise, toPaise } from '../../lib/money.ts'
import type { BulkUpdateInput } from '../../../contract/product-import.ts'
import type { CatalogWriteDeps } from '../category/service.ts'
import { writeStock } from './stock.ts'
import { PRODUCT_NOT_FOUND } from './writes.ts'
import { recordAudit, type ActorDeps } from '../../lib/audit.ts'
import { productAuditEntries, productAuditValues } from './audit.ts'

export const BULK_UPDATED = 'Products updated'

/**
 * Applies each item's given fields (price: MRP in rupees; sellingPrice in rupees; stock whole units).
 * An item naming only the MRP keeps the selling price (lowering the MRP below it is an error).
 * @returns how many products changed
 * @throws 404 PRODUCT_NOT_FOUND (issue `items.<i>._id`) for an unknown id; 400 with one issue per
 *   item whose selling price would be above its MRP; nothing is written either way
 */
export async function bulkUpdateProducts(deps: CatalogWriteDeps & ActorDeps, input: BulkUpdateInput): Promise<{ updated: number }> {
  const ids = [...new Set(input.items.map((i) => i._id))]
  const updated = await deps.db.transaction(async (tx) => {
    // The prices as the database's decimal text, not the column's float mapping: paise are exact.
    const current = await tx
      .select({ id: products.id, mrp: sql<string>`${products.price}`, sellingPrice: sql<string>`${products.sellingPrice}` })
      .from(products)
      .where(inArray(products.id, ids))
      .orderBy(asc(products.id))
      .for('update')
    const byId = new Map(current.map((c) => [c.id, c]))
    const issues: FieldIssue[] = []
    const prices: { id: string; mrp: number; sellingPrice: number; discount: number }[] = []
    input.items.forEach((item, i) => {
      const row = byId.get(item._id)
      if (!row) return issues.push({ path: `items.${i}._id`, message: PRODUCT_NOT_FOUND })
      if (item.price === undefined && item.sellingPrice === undefined) return
      // The item's `price` is the MRP.
      const mrpPaise = toPaise(item.price ?? row.mrp)
      const sellingPaise = toPaise(item.sellingPrice ?? row.sellingPrice)
      if (sellingPaise > mrpPaise)
        return issues.push({ path: `items.${i}.sellingPrice`, message: 'Selling price cannot be above the price (MRP)' })
      prices.push({
        id: item._id,
        mrp: fromPaise(mrpPaise),
        sellingPrice: fromPaise(sellingPaise),
        discount: discountFromPrices(mrpPaise, sellingPaise),
      })
    })
    if (issues.some((i) => i.message === PRODUCT_NOT_FOUND)) throw new HttpError(404, PRODUCT_NOT_FOUND, { issues })
    if (issues.length > 0) throw BadRequest(issues[0]!.message, issues)
    const before = await productAuditValues(tx, ids)
    if (prices.length > 0) {
      await tx.execute(
        sql`update products p set price = v.mrp, selling_price = v."sellingPrice", discount = v.discount, updated_at = now(),
                   edited_at = now(), edited_by = ${deps.actor}
            from jsonb_to_recordset(${JSON.stringify(prices)}::jsonb) as v(id text, mrp numeric, "sellingPrice" numeric, discount numeric)
            where p.id = v.id`,
      )
    }
    const stock = input.items.filter((i) => i.stock !== undefined).map((i) => ({ productId: i._id, stock: i.stock! }))
    await writeStock(tx, stock)
    await recordAudit(tx, productAuditEntries(deps.actor, 'bulk_update', ids, before, await productAuditValues(tx, ids)))
    return new Set([...prices.map((p) => p.id), ...stock.map((s) => s.productId)]).size
  })
  deps.cache.invalidate()
  return { updated }
}
