/**
 * Packing slips (docs/commerce-api.md, "Packing slips"): the orders a picker packs, each with its
 * lines in pick order.
 *
 * - A store's slips are its orders in status `packed` (contract/order-status.ts: the status an order
 *   is in once its items are set aside and waits for a rider), oldest first, at most BULK_ORDERS_MAX;
 *   `totalCount` says how many there are in all.
 * - Pick order: by category name, then sub category name, then product name, each compared as the
 *   catalogue lists them (case- and accent-insensitive, numbers by value: Intl.Collator). The store's
 *   aisles follow the catalogue's categories and sub categories, so one walk down the aisles picks
 *   every line. A product's aisle is its first category and first sub category by the catalogue's
 *   link positions (the name breaking a tie); a line whose product is gone or has none comes last.
 */
import { asc, eq, inArray } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { categories, productCategories, productSubCategories, stores, subCategories } from '../../db/schema.ts'
import { BadRequest, NotFound } from '../../lib/errors.ts'
import { BULK_ORDERS_MAX, type Order, type PackingSlip, type PackingSlipsInput, type PickLine } from '../../../contract/order.ts'
import { adminListOrders, findOrder, toOrderAnswer } from './service.ts'
import { STORE_NOT_FOUND } from '../store/service.ts'

type SlipDeps = Parameters<typeof adminListOrders>[0]

/** The catalogue's comparison of names: case- and accent-insensitive, digits by value ("Atta 2" before "Atta 10"). */
const NAMES = new Intl.Collator('en-IN', { sensitivity: 'base', numeric: true })

/** `a` before `b` by name; null (no aisle) after every name. */
function byName(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return NAMES.compare(a, b)
}

/**
 * `lines` in pick order (see the module comment): category, then sub category, then product name; a
 * stable sort, so equal lines keep the order's own order. Returns a new array.
 */
export function pickOrder<T extends Pick<PickLine, 'name' | 'category' | 'subCategory'>>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => byName(a.category, b.category) || byName(a.subCategory, b.subCategory) || NAMES.compare(a.name, b.name))
}

/** A product's aisle: its first category and sub category names (null when it has none). */
export interface Aisle {
  category: string | null
  subCategory: string | null
}

/**
 * The aisle of each of `productIds` (see the module comment), two reads of the catalogue's links.
 * A product with no link is absent from the map.
 */
export async function aislesOf(db: AppDeps['db'], productIds: string[]): Promise<Map<string, Aisle>> {
  const aisles = new Map<string, Aisle>()
  if (productIds.length === 0) return aisles
  const [cats, subs] = await Promise.all([
    db
      .select({ productId: productCategories.productId, name: categories.name })
      .from(productCategories)
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(inArray(productCategories.productId, productIds))
      .orderBy(asc(productCategories.position), asc(categories.name)),
    db
      .select({ productId: productSubCategories.productId, name: subCategories.name })
      .from(productSubCategories)
      .innerJoin(subCategories, eq(subCategories.id, productSubCategories.subCategoryId))
      .where(inArray(productSubCategories.productId, productIds))
      .orderBy(asc(productSubCategories.position), asc(subCategories.name)),
  ])
  // Rows come by position: the first seen of each product is its aisle.
  for (const row of cats) if (!aisles.has(row.productId)) aisles.set(row.productId, { category: row.name, subCategory: null })
  for (const row of subs) {
    const aisle = aisles.get(row.productId) ?? { category: null, subCategory: null }
    if (aisle.subCategory === null) aisles.set(row.productId, { ...aisle, subCategory: row.name })
  }
  return aisles
}

/** `orders` as packing slips: each line with its aisle, in pick order. */
async function toSlips(db: AppDeps['db'], orders: Order[]): Promise<PackingSlip[]> {
  const ids = [...new Set(orders.flatMap((o) => o.items.flatMap((l) => (l.productId ? [l.productId] : []))))]
  const aisles = await aislesOf(db, ids)
  return orders.map((order) => ({
    ...order,
    items: pickOrder(
      order.items.map((line) => ({
        ...line,
        ...((line.productId && aisles.get(line.productId)) || { category: null, subCategory: null }),
      })),
    ),
  }))
}

export const SLIPS_NEED_ONE = 'Name a store (storeId) or the orders (orderIds), not both'

/**
 * The packing slips of `input`: a store's packed orders, oldest first (at most BULK_ORDERS_MAX), or
 * the orders named, in the order named (`missing`: the refs that are no order, or, with
 * `onlyStoreId` (a staff member's store), another store's order).
 * @throws 400 SLIPS_NEED_ONE for neither or both; 404 STORE_NOT_FOUND for an unknown store
 */
export async function packingSlips(
  deps: SlipDeps,
  input: PackingSlipsInput,
  onlyStoreId: string | null = null,
): Promise<{ slips: PackingSlip[]; totalCount: number; missing: string[] }> {
  const named = input.orderIds && input.orderIds.length > 0
  if (Boolean(input.storeId) === Boolean(named))
    throw BadRequest(SLIPS_NEED_ONE, [{ path: input.storeId ? 'orderIds' : 'storeId', message: SLIPS_NEED_ONE }])
  if (input.storeId) {
    const [store] = await deps.db.select({ id: stores.id }).from(stores).where(eq(stores.id, input.storeId))
    if (!store) throw NotFound(STORE_NOT_FOUND)
    // The admin list's own query and count (./admin-filter.ts): the store's packed orders, oldest first.
    const page = await adminListOrders(deps, { store: input.storeId, status: 'packed', sort: 'oldest', page: 1, limit: BULK_ORDERS_MAX })
    return { slips: await toSlips(deps.db, page.data), totalCount: page.totalCount, missing: [] }
  }
  const found: Order[] = []
  const missing: string[] = []
  for (const ref of input.orderIds!) {
    const row = await findOrder(deps.db, ref)
    if (row && (onlyStoreId === null || row.store_id === onlyStoreId)) found.push(toOrderAnswer(deps, row, true))
    else missing.push(ref)
  }
  return { slips: await toSlips(deps.db, found), totalCount: found.length, missing }
}
