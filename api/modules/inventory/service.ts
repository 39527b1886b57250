/**
 * Per-store stock (docs/stores.md, "Stock"): one row per store and product in `inventory`, a missing
 * row being 0. Orders take stock with a guard (`stock >= quantity`) on the row of their own store
 * only, so a race in one store never touches another's stock. Admin edits set a number and then
 * invalidate the caches like any catalogue write.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
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
export async function setStock(db: Pick<Db, 'execute'>, storeId: string, productId: string, stock: number): Promise<void> {
  await db.execute(sql`insert into inventory (store_id, product_id, stock) values (${storeId}, ${productId}, ${stock})
    on conflict (store_id, product_id) do update set stock = excluded.stock, updated_at = now()`)
}

/**
 * Takes `quantity` units of a product from a store's stock, only if that many are there.
 * @returns the stock after, or undefined when there were fewer (nothing taken)
 */
export async function takeStock(
  tx: Pick<Db, 'execute'>,
  storeId: string,
  productId: string,
  quantity: number,
): Promise<number | undefined> {
  const [row] = await queryRows<{ stock: number }>(
    tx,
    sql`update inventory set stock = stock - ${quantity}, updated_at = now()
        where store_id = ${storeId} and product_id = ${productId} and stock >= ${quantity} returning stock`,
  )
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
    const [row] = await queryRows<{ stock: number }>(
      tx,
      sql`insert into inventory (store_id, product_id, stock) values (${storeId}, ${line.productId}, ${line.quantity})
          on conflict (store_id, product_id) do update set stock = inventory.stock + excluded.stock, updated_at = now()
          returning stock`,
    )
    restored.push({ id: line.productId, stock: row!.stock, quantity: line.quantity })
  }
  return restored
}

/**
 * The units of each product an order holds (lines of one product added up; deleted products left
 * out), in product id order: the order stock is taken back or returned in.
 */
export async function orderUnitsByProduct(
  tx: Pick<Db, 'execute'>,
  orderId: string,
): Promise<Array<{ productId: string; quantity: number }>> {
  return queryRows<{ productId: string; quantity: number }>(
    tx,
    sql`select product_id as "productId", sum(quantity)::int as quantity from order_lines
        where order_id = ${orderId} and product_id is not null group by product_id order by product_id`,
  )
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
  const [store] = await queryRows<{ id: string }>(deps.db, sql`select id from stores where id = ${input.storeId}`)
  if (!store) throw NotFound('Store not found')
  const stock = sql`coalesce(i.stock, 0)`
  const search = input.search?.trim()
  const like = search ? `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null
  const where = sql`true
    ${like ? sql`and (p.name ilike ${like} or coalesce(p.more_details->>'brand', '') ilike ${like} or coalesce(p.sku, '') ilike ${like})` : sql``}
    ${input.filter === 'low' ? sql`and ${stock} between 1 and ${LOW_STOCK}` : input.filter === 'out' ? sql`and ${stock} = 0` : sql``}`
  const from = sql`products p left join inventory i on i.product_id = p.id and i.store_id = ${input.storeId}`
  const [rows, [count]] = await Promise.all([
    queryRows<InventoryRow>(
      deps.db,
      sql`select ${input.storeId} as "storeId", p.id as "productId", p.name, p.unit,
            coalesce(p.more_details->>'brand', '') as brand, p.sku, coalesce(p.image[1], '') as image,
            ${stock}::int as stock, p.publish
          from ${from} where ${where}
          order by p.name, p.id limit ${input.limit} offset ${(input.page - 1) * input.limit}`,
    ),
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
    const knownStores = new Set(
      (
        await queryRows<{ id: string }>(
          tx,
          sql`select id from stores where id in (${sql.join(
            storeIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        )
      ).map((r) => r.id),
    )
    const knownProducts = new Set(
      (
        await queryRows<{ id: string }>(
          tx,
          sql`select id from products where id in (${sql.join(
            productIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        )
      ).map((r) => r.id),
    )
    const issues = input.rows.flatMap((row, i) => [
      ...(knownStores.has(row.storeId) ? [] : [{ path: `rows.${i}.storeId`, message: 'Store not found' }]),
      ...(knownProducts.has(row.productId) ? [] : [{ path: `rows.${i}.productId`, message: 'Product not found' }]),
    ])
    if (issues.length > 0) throw BadRequest('Some rows name no store or product', issues)
    const pairs = JSON.stringify(input.rows.map((r) => ({ s: r.storeId, p: r.productId })))
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
  const [product] = await queryRows<{ id: string }>(deps.db, sql`select id from products where id = ${productId}`)
  if (!product) throw NotFound('Product not found')
  return queryRows<ProductStock>(
    deps.db,
    sql`select s.id as "storeId", s.name as "storeName", s.active, coalesce(i.stock, 0)::int as stock
        from stores s left join inventory i on i.store_id = s.id and i.product_id = ${productId}
        order by s.position, s.created_at, s.id`,
  )
}
