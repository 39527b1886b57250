/**
 * Per-store stock (docs/stores.md, "Stock"): one row per store and product in `inventory`, a missing
 * row being 0. Orders take stock with a guard (`stock >= quantity`) on the row of their own store
 * only, so a race in one store never touches another's stock. Admin edits set a number and then
 * invalidate the caches like any catalogue write.
 */
import { and, asc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { inventory, orderLines, products, stores } from '../../db/schema.ts'
import { BadRequest, NotFound } from '../../lib/errors.ts'
import {
  LOW_STOCK,
  type InventoryListInput,
  type InventoryRow,
  type ProductStock,
  type UpdateInventoryInput,
} from '../../../contract/location.ts'
import { changedFields, recordAudit, type ActorDeps } from '../../lib/audit.ts'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Sets one product's stock in one store (units ≥ 0). `db` may be a transaction. */
export async function setStock(db: Pick<Db, 'insert'>, storeId: string, productId: string, stock: number): Promise<void> {
  await db
    .insert(inventory)
    .values({ storeId, productId, stock })
    .onConflictDoUpdate({ target: [inventory.storeId, inventory.productId], set: { stock, updatedAt: sql`now()` } })
}

/**
 * Takes `quantity` units of a product from a store's stock, only if that many are there.
 * @returns the stock after, or undefined when there were fewer (nothing taken)
 */
export async function takeStock(tx: Pick<Db, 'update'>, storeId: string, productId: string, quantity: number): Promise<number | undefined> {
  const [row] = await tx
    .update(inventory)
    .set({ stock: sql`${inventory.stock} - ${quantity}`, updatedAt: sql`now()` })
    .where(and(eq(inventory.storeId, storeId), eq(inventory.productId, productId), gte(inventory.stock, quantity)))
    .returning({ stock: inventory.stock })
  return row?.stock
}

/**
 * Gives an order's units back to its store's stock (a cancellation).
 * @returns each product's stock after and the units returned
 */
export async function returnOrderStock(
  tx: Tx,
  storeId: string,
  orderId: string,
): Promise<Array<{ id: string; stock: number; quantity: number }>> {
  const restored: Array<{ id: string; stock: number; quantity: number }> = []
  for (const line of await orderUnitsByProduct(tx, orderId)) {
    const [row] = await tx
      .insert(inventory)
      .values({ storeId, productId: line.productId, stock: line.quantity })
      .onConflictDoUpdate({
        target: [inventory.storeId, inventory.productId],
        set: { stock: sql`${inventory.stock} + excluded.stock`, updatedAt: sql`now()` },
      })
      .returning({ stock: inventory.stock })
    restored.push({ id: line.productId, stock: row!.stock, quantity: line.quantity })
  }
  return restored
}

/**
 * The units of each product an order holds (lines of one product added up; deleted products left
 * out), in product id order: the order stock is taken back or returned in.
 */
export async function orderUnitsByProduct(
  tx: Pick<Db, 'select'>,
  orderId: string,
): Promise<Array<{ productId: string; quantity: number }>> {
  const rows = await tx
    .select({ productId: orderLines.productId, quantity: sql<number>`sum(${orderLines.quantity})::int` })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), isNotNull(orderLines.productId)))
    .groupBy(orderLines.productId)
    .orderBy(asc(orderLines.productId))
  // `isNotNull` above: every productId is a string.
  return rows as Array<{ productId: string; quantity: number }>
}

/**
 * One page of a store's stock for the admin, by name; `search` matches name, brand or SKU
 * (case-insensitive), `filter` keeps low (1..LOW_STOCK) or out-of-stock products.
 * @throws 404 unknown store
 */
export async function listInventory(
  deps: Pick<AppDeps, 'db'>,
  input: InventoryListInput,
): Promise<{ data: InventoryRow[]; totalCount: number }> {
  const [store] = await deps.db.select({ id: stores.id }).from(stores).where(eq(stores.id, input.storeId))
  if (!store) throw NotFound('Store not found')
  const stock = sql`coalesce(i.stock, 0)`
  const search = input.search?.trim()
  const like = search ? `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null
  const where = sql`true
    ${like ? sql`and (p.name ilike ${like} or coalesce(p.more_details->>'brand', '') ilike ${like} or coalesce(p.sku, '') ilike ${like})` : sql``}
    ${input.filter === 'low' ? sql`and ${stock} between 1 and ${LOW_STOCK}` : input.filter === 'out' ? sql`and ${stock} = 0` : sql``}`
  const from = sql`products p left join inventory i on i.product_id = p.id and i.store_id = ${input.storeId}`
  const [rows, [count]] = await Promise.all([
    // raw SQL: the admin's stock page at 50 stores (a left join filtered on computed columns, page and count sharing one WHERE)
    queryRows<InventoryRow>(
      deps.db,
      sql`select ${input.storeId} as "storeId", p.id as "productId", p.name, p.unit,
            coalesce(p.more_details->>'brand', '') as brand, p.sku, coalesce(p.image[1], '') as image,
            ${stock}::int as stock, p.publish
          from ${from} where ${where}
          order by p.name, p.id limit ${input.limit} offset ${(input.page - 1) * input.limit}`,
    ),
    // raw SQL: the count of the page query above, over the same FROM and WHERE
    queryRows<{ n: number }>(deps.db, sql`select count(*)::int as n from ${from} where ${where}`),
  ])
  return { data: rows, totalCount: count?.n ?? 0 }
}

/**
 * Sets the stock of the given products in the given stores, in one transaction, then invalidates
 * the caches.
 * @throws 400 naming each unknown store or product (nothing written)
 */
export async function updateInventory(deps: Pick<AppDeps, 'db' | 'cache'> & ActorDeps, input: UpdateInventoryInput): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const storeIds = [...new Set(input.rows.map((r) => r.storeId))]
    const productIds = [...new Set(input.rows.map((r) => r.productId))]
    const knownStores = new Set((await tx.select({ id: stores.id }).from(stores).where(inArray(stores.id, storeIds))).map((r) => r.id))
    const knownProducts = new Set(
      (await tx.select({ id: products.id }).from(products).where(inArray(products.id, productIds))).map((r) => r.id),
    )
    const issues = input.rows.flatMap((row, i) => [
      ...(knownStores.has(row.storeId) ? [] : [{ path: `rows.${i}.storeId`, message: 'Store not found' }]),
      ...(knownProducts.has(row.productId) ? [] : [{ path: `rows.${i}.productId`, message: 'Product not found' }]),
    ])
    if (issues.length > 0) throw BadRequest('Some rows name no store or product', issues)
    const pairs = JSON.stringify(input.rows.map((r) => ({ s: r.storeId, p: r.productId })))
    // raw SQL: locks the edited (store, product) pairs, given as one JSON recordset, in key order
    const current = await queryRows<{ storeId: string; productId: string; stock: number }>(
      tx,
      sql`select i.store_id as "storeId", i.product_id as "productId", i.stock from inventory i
          join jsonb_to_recordset(${pairs}::jsonb) as v(s text, p text) on v.s = i.store_id and v.p = i.product_id
          order by i.store_id, i.product_id for update of i`,
    )
    const stockBefore = new Map(current.map((r) => [`${r.storeId}/${r.productId}`, r.stock]))
    for (const row of input.rows) await setStock(tx, row.storeId, row.productId, row.stock)
    // The last row of a pair wins, as in the writes above; a row that sets the stock it had is no change.
    const last = new Map(input.rows.map((r) => [`${r.storeId}/${r.productId}`, r.stock]))
    await recordAudit(
      tx,
      [...last].map(([key, stock]) => ({
        actor: deps.actor,
        action: 'stock' as const,
        entity: 'inventory' as const,
        entityId: key,
        ...changedFields({ stock: stockBefore.get(key) ?? 0 }, { stock }),
      })),
    )
  })
  deps.cache.invalidate()
}

/** The product's stock in every store (0 where none), stores by position. @throws 404 unknown product */
export async function productStocks(deps: Pick<AppDeps, 'db'>, productId: string): Promise<ProductStock[]> {
  const [product] = await deps.db.select({ id: products.id }).from(products).where(eq(products.id, productId))
  if (!product) throw NotFound('Product not found')
  return deps.db
    .select({
      storeId: stores.id,
      storeName: stores.name,
      active: stores.active,
      stock: sql<number>`coalesce(${inventory.stock}, 0)::int`,
    })
    .from(stores)
    .leftJoin(inventory, and(eq(inventory.storeId, stores.id), eq(inventory.productId, productId)))
    .orderBy(asc(stores.position), asc(stores.createdAt), asc(stores.id))
}
