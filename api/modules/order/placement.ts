/**
 * The steps of placing an order from a cart, each one function run in the placement's transaction
 * (docs/commerce-api.md, "Orders"; docs/payments.md, "Reservation"). Cash on delivery and online
 * payment run the same steps, in this order, through `placeFromCart` (./service.ts):
 *
 * 1. `lockUserRow` (api/db/locks.ts), then `earlierOrderOfKey`: one placement per user at a time, so a retried
 *    idempotency key finds the first order;
 * 2. `deliveryAddress`: one of the user's live addresses, as the order's snapshot;
 * 3. `boundLockWaits`, then `lockCartLines`: the cart's lines with their products locked in id order
 *    (two buyers of the same products queue instead of deadlocking, for at most
 *    PLACEMENT_LOCK_TIMEOUT_MS: docs/decisions/0043-flash-sale-and-busy-pool.md) and their stock in
 *    the order's store, read once the locks are held;
 * 4. `checkPricesAndStock`: every line against today's selling price and stock; what moved is
 *    corrected in the cart and answered as changes (nothing is ordered then);
 * 5. `couponAtPlacement`: the cart's coupon code, its row locked, its uses counted again and the
 *    discount recomputed (docs/offers.md, "At placement"); the caller compares it with what the
 *    checkout showed;
 * 6. `reserveStock`: the stock taken with the guard `stock >= quantity`;
 * 7. `writeOrder`: the order, its lines (a snapshot of each product, its share of the coupon's
 *    discount) and its first status;
 * 8. the payment's own last step: `confirmOrder` for cash on delivery (cart emptied, confirmation
 *    sent), the hold's end for online payment (api/modules/payment/service.ts).
 *
 * Online payment reuses `reserveStock` when a payment comes after its hold ended, `confirmOrder`
 * when an order is paid or switched to cash on delivery, and `recordStatus` and `releaseStock`
 * wherever an order's status moves. Amounts are integer paise; prices in rupees are numeric text as
 * the drivers read them. `mrp` is a product's MRP and `sellingPrice` its selling price (the wire
 * calls them `price` and `sellingPrice` for a product, `mrp` and `price` for an order line).
 */
import { asc, eq, and, inArray, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Tx } from '../../db/db.ts'
import { queryRows } from '../../db/query.ts'
import { addresses, cartLines, carts, inventory, orderLines, orders, orderStatusHistory, products } from '../../db/schema.ts'
import { shownAvailabilityChanged, stockKey } from '../../../contract/availability.ts'
import type { OrderStatus } from '../../../contract/order-status.ts'
import type { CartChange, Order } from '../../../contract/order.ts'
import type { StockChange } from '../../lib/cache.ts'
import { NotFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { discountFromPrices, fromPaise, toPaise } from '../../lib/money.ts'
import { distanceKm, lookupPincode } from '../../lib/pincodes.ts'
import { ADDRESS_NOT_FOUND } from '../address/service.ts'
import { computeBill } from '../cart/bill.ts'
import { cartCouponCode, categoryIdsOf, couponByCode, evaluateFor } from '../coupon/checkout.ts'
import type { CouponVerdict } from '../coupon/evaluate.ts'
import { COUPON_REASONS } from '../../../contract/coupon.ts'
import type { DeliveryInstructions } from '../../../contract/tip.ts'
import { returnOrderStock, takeStock } from '../inventory/service.ts'
import { deliveryMinutes, openOrderCount, type StoreInfo } from '../store/service.ts'

/** No stock moved yet. */
export const noStockChange = (): StockChange => ({ moved: [], crossed: [], restocked: [] })

/**
 * Adds a product whose stock went from `before` to `after` units to `change`: to `moved`, to
 * `crossed` when what the pages show of it changed (contract/availability.ts), and to `restocked`
 * when it came back in stock (from 0 or less to more).
 */
export function noteStockMove(change: StockChange, storeId: string, productId: string, before: number, after: number): void {
  if (before === after) return
  const key = stockKey(storeId, productId)
  change.moved.push(key)
  if (shownAvailabilityChanged(before, after)) change.crossed.push(key)
  if (before <= 0 && after > 0) change.restocked.push(key)
}

/** The id of the user's order placed with `idempotencyKey`, or undefined when the key is new. */
export async function earlierOrderOfKey(tx: Tx, userId: string, idempotencyKey: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)))
  return row?.id
}

/** An address an order is delivered to: its id and the snapshot the order keeps. */
export interface DeliveryAddress {
  id: string
  snapshot: Order['delivery_address']
}

/**
 * One of the user's live addresses as an order's delivery address.
 * @throws 404 ADDRESS_NOT_FOUND (unknown, removed or another user's)
 */
export async function deliveryAddress(tx: Tx, userId: string, addressId: string): Promise<DeliveryAddress> {
  const [row] = await tx
    .select({
      id: addresses.id,
      address_line: addresses.addressLine,
      city: addresses.city,
      state: addresses.state,
      pincode: addresses.pincode,
      country: addresses.country,
      mobile: addresses.mobile,
      label: addresses.label,
      floor: addresses.floor,
      landmark: addresses.landmark,
    })
    .from(addresses)
    .where(and(eq(addresses.id, addressId), eq(addresses.userId, userId), eq(addresses.status, true)))
  if (!row) throw NotFound(ADDRESS_NOT_FOUND)
  const { id, ...snapshot } = row
  return { id, snapshot }
}

/** A cart line about to be ordered, with its product as it is now (locked) and its stock in the order's store. */
export interface CartLineToOrder {
  lineId: string
  productId: string
  quantity: number
  /** The selling price (paise) the line was added or last confirmed at. */
  seenSellingPaise: number
  name: string
  image: string[]
  unit: string
  brand: string | null
  /** Units in the order's store (no inventory row: 0). */
  stock: number
  publish: boolean
  /** The product's MRP and selling price now, rupees as numeric text. */
  mrp: string
  sellingPrice: string
}

/**
 * Longest wait (ms) of a placement for another placement's lock on one of its products (PostgreSQL
 * `lock_timeout`, docs "Client Connection Defaults"), set with `SET LOCAL` so it ends with the
 * transaction. In a flash sale every buyer of a product queues on its row: a bounded wait gives the
 * pooled connection back instead of holding it while the queue drains, so other requests are not
 * starved of connections (docs/decisions/0043-flash-sale-and-busy-pool.md). Below the pool's
 * default wait for a connection (`DATABASE_CONNECT_TIMEOUT_MS`, 5000), and far above one
 * placement's time holding the lock (a few ms).
 */
export const PLACEMENT_LOCK_TIMEOUT_MS = 2000

/** SQLSTATE 55P03 lock_not_available: `lock_timeout` ran out (PostgreSQL, "Appendix A. Error Codes"). */
export const LOCK_NOT_AVAILABLE = '55P03'

/** Bounds this transaction's lock waits to PLACEMENT_LOCK_TIMEOUT_MS; a wait past it throws LOCK_NOT_AVAILABLE. */
export async function boundLockWaits(tx: Tx): Promise<void> {
  // SET takes no bind parameter: the value is this module's own constant.
  await tx.execute(sql.raw(`set local lock_timeout = ${PLACEMENT_LOCK_TIMEOUT_MS}`))
}

/**
 * The query of the cart's lines with their products (locked in product id order with `lock`, the
 * products' rows only) and their stock in `storeId`: a key join in the builder. The added time is the
 * database's text (microseconds, see `inAddedOrder`) and the prices numeric text (rupees, exact).
 */
function cartLinesQuery(tx: Tx, userId: string, storeId: string, lock: boolean) {
  const query = tx
    .select({
      lineId: cartLines.id,
      added: sql<string>`${cartLines.createdAt}::text`,
      productId: cartLines.productId,
      quantity: cartLines.quantity,
      seenSellingPaise: cartLines.unitPricePaise,
      name: products.name,
      image: products.image,
      unit: products.unit,
      brand: sql<string | null>`${products.moreDetails}->>'brand'`,
      stock: sql<number>`coalesce(${inventory.stock}, 0)::int`,
      publish: products.publish,
      mrp: sql<string>`${products.price}::text`,
      sellingPrice: sql<string>`${products.sellingPrice}::text`,
    })
    .from(carts)
    .innerJoin(cartLines, eq(cartLines.cartId, carts.id))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .leftJoin(inventory, and(eq(inventory.productId, products.id), eq(inventory.storeId, storeId)))
    .where(eq(carts.userId, userId))
    .orderBy(asc(products.id))
  return lock ? query.for('update', { of: products }) : query
}

/** Lines in the order they were added; the timestamp as text keeps its microseconds, so two lines added in one millisecond keep their order. */
function inAddedOrder(rows: (CartLineToOrder & { added: string })[]): CartLineToOrder[] {
  return rows
    .sort((a, b) => (a.added === b.added ? a.lineId.localeCompare(b.lineId) : a.added < b.added ? -1 : 1))
    .map(({ added: _added, ...line }) => line)
}

/**
 * The lines of the user's cart, in the order they were added (the order lists them so), each with
 * its product locked (`for update`, in product id order: two buyers of the same products queue
 * instead of deadlocking) and its stock in `storeId` read after the locks are held. No cart, or an
 * empty one: [].
 * @throws LOCK_NOT_AVAILABLE (55P03) when a product stays locked longer than the transaction's
 *   `lock_timeout` (`boundLockWaits`)
 */
export async function lockCartLines(tx: Tx, userId: string, storeId: string): Promise<CartLineToOrder[]> {
  const locked = await cartLinesQuery(tx, userId, storeId, true)
  if (locked.length === 0) return []
  // Read again once the locks are held. A statement that waited for a row lock re-reads the locked
  // rows only: the joined inventory row keeps the version from before the wait (PostgreSQL,
  // "Transaction Isolation", Read Committed: the updated version of the row is locked and the
  // query's other rows are not re-read), so a buyer behind the one that took the last unit saw
  // that unit still there. A new statement sees every commit made before it.
  const stock = await tx
    .select({ productId: inventory.productId, stock: inventory.stock })
    .from(inventory)
    .where(
      and(
        eq(inventory.storeId, storeId),
        inArray(
          inventory.productId,
          locked.map((l) => l.productId),
        ),
      ),
    )
  const byProduct = new Map(stock.map((row) => [row.productId, row.stock]))
  return inAddedOrder(locked.map((line) => ({ ...line, stock: byProduct.get(line.productId) ?? 0 })))
}

/**
 * The lines of the user's cart as `lockCartLines` answers them, without taking any product lock:
 * what a placement that could not get its locks in time (`LOCK_NOT_AVAILABLE`) checks the cart
 * against, so its shopper is told a line that ran out or moved at once instead of waiting.
 */
export async function readCartLines(tx: Tx, userId: string, storeId: string): Promise<CartLineToOrder[]> {
  return inAddedOrder(await cartLinesQuery(tx, userId, storeId, false))
}

/**
 * Checks every line against its product now: unpublished or out of stock (line removed), fewer
 * units in stock than the line's quantity (cut to the stock), a selling price other than the one
 * the shopper saw (the line takes today's). Each such line is corrected in the cart at once.
 * @returns the changes, in the lines' order; none: the lines may be ordered as they are
 */
export async function checkPricesAndStock(tx: Tx, lines: CartLineToOrder[]): Promise<CartChange[]> {
  const changes: CartChange[] = []
  for (const line of lines) {
    const sellingPaise = toPaise(line.sellingPrice)
    if (!line.publish || line.stock <= 0) {
      changes.push({
        productId: line.productId,
        name: line.name,
        kind: line.publish ? 'stock' : 'removed',
        before: line.quantity,
        after: 0,
      })
      await tx.delete(cartLines).where(eq(cartLines.id, line.lineId))
      continue
    }
    // The database's clock, as every cart write stamps its lines.
    if (line.quantity > line.stock) {
      changes.push({ productId: line.productId, name: line.name, kind: 'stock', before: line.quantity, after: line.stock })
      await tx
        .update(cartLines)
        .set({ quantity: line.stock, updatedAt: sql`now()` })
        .where(eq(cartLines.id, line.lineId))
    }
    if (sellingPaise !== line.seenSellingPaise) {
      changes.push({
        productId: line.productId,
        name: line.name,
        kind: 'price',
        before: fromPaise(line.seenSellingPaise),
        after: fromPaise(sellingPaise),
      })
      await tx
        .update(cartLines)
        .set({ unitPricePaise: sellingPaise, updatedAt: sql`now()` })
        .where(eq(cartLines.id, line.lineId))
    }
  }
  return changes
}

/** The cart's coupon at placement: its code, the coupon (undefined: no such code any more) and its verdict. */
export interface CouponAtPlacement {
  code: string
  couponId: string | null
  description: string
  verdict: CouponVerdict
}

/**
 * The coupon of the user's cart against the lines about to be ordered (checked by
 * `checkPricesAndStock`), in the placement's transaction: the coupon's row is locked (`for update`),
 * so placements using one code count its uses one after the other, and the uses are counted from
 * orders that are not cancelled, this transaction's view after the lock (docs/offers.md, "Uses").
 * Called after the products' locks (one lock order for every placement: user, products, coupon).
 * @returns null when the cart names no code
 * @throws LOCK_NOT_AVAILABLE (55P03) past the transaction's `lock_timeout`, as a product's lock
 */
export async function couponAtPlacement(
  tx: Tx,
  ctx: { userId: string; storeId: string; now: Date },
  lines: readonly CartLineToOrder[],
): Promise<CouponAtPlacement | null> {
  const code = await cartCouponCode(tx, ctx.userId)
  if (!code) return null
  const coupon = await couponByCode(tx, code, true)
  if (!coupon)
    return { code, couponId: null, description: '', verdict: { applies: false, reason: COUPON_REASONS.unknown, addMorePaise: null } }
  const categories = coupon.categoryId
    ? await categoryIdsOf(
        tx,
        lines.map((l) => l.productId),
      )
    : new Map<string, string[]>()
  const basket = lines.map((l) => ({ totalPaise: l.quantity * toPaise(l.sellingPrice), categoryIds: categories.get(l.productId) ?? [] }))
  return { code, couponId: coupon.id, description: coupon.description, verdict: await evaluateFor(tx, coupon, ctx, basket) }
}

/**
 * Takes each line's units from `storeId`'s stock with the guard `stock >= quantity`, the guard that
 * makes overselling impossible even if a lock were ever missed. Stops at the first line short of
 * stock: the caller then throws, so its transaction (or savepoint) gives back what was taken.
 * @returns the stock moves (for `cache.stockChanged` after the commit), or the first line short
 */
export async function reserveStock<L extends { productId: string; quantity: number }>(
  tx: Tx,
  storeId: string,
  lines: readonly L[],
): Promise<{ stock: StockChange; short?: undefined } | { short: L }> {
  const stock = noStockChange()
  for (const line of lines) {
    const after = await takeStock(tx, storeId, line.productId, line.quantity)
    if (after === undefined) return { short: line }
    noteStockMove(stock, storeId, line.productId, after + line.quantity, after)
  }
  return { stock }
}

/** Gives an order's units back to its store's stock (a cancellation, a hold that ended). @returns the stock moves */
export async function releaseStock(tx: Tx, storeId: string, orderId: string): Promise<StockChange> {
  const stock = noStockChange()
  for (const row of await returnOrderStock(tx, storeId, orderId)) noteStockMove(stock, storeId, row.id, row.stock - row.quantity, row.stock)
  return stock
}

/** "OD" + the day in India (yymmdd) + at least 4 digits of the order number sequence: OD2611220001. */
function orderNumber(now: Date, n: number): string {
  const parts = new Intl.DateTimeFormat('en-IN', {
    timeZone: 'Asia/Kolkata',
    year: '2-digit',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  return `OD${part('year')}${part('month')}${part('day')}${String(n).padStart(4, '0')}`
}

/** The next order number of `now`'s day (raw SQL: a sequence). */
async function nextOrderNumber(tx: Tx, now: Date): Promise<string> {
  // raw SQL: a sequence (`nextval`).
  const [seq] = await queryRows<{ n: string }>(tx, sql`select nextval('order_number_seq')::text as n`)
  return orderNumber(now, Number(seq!.n))
}

/** How an order is paid when it is written: its first status, `payment_method` and payment state. */
export interface OrderPaymentColumns {
  status: Extract<OrderStatus, 'placed' | 'payment_pending'>
  method: string
  state: 'cod' | 'pending'
  /** When held stock goes back (online payment); null for cash on delivery. */
  reservationExpiresAt: Date | null
}

/** What `writeOrder` writes: lines checked by `checkPricesAndStock`, their stock taken by `reserveStock`. */
export interface OrderToWrite {
  userId: string
  idempotencyKey: string
  address: DeliveryAddress
  store: StoreInfo
  lines: CartLineToOrder[]
  payment: OrderPaymentColumns
  now: Date
  /** The coupon that applies (`couponAtPlacement`): its discount and each line's share, in the lines' order. */
  coupon?: { id: string; code: string; discountPaise: number; shares: number[] }
  /** The tip for the delivery partner, paise, whole rupees (0 or absent: none). */
  tipPaise?: number
  /** The delivery instructions (null or absent: none). */
  instructions?: DeliveryInstructions | null
}

/**
 * Writes the order, its lines and its first status. The bill is the cart's (api/modules/cart/bill.ts):
 * the checkout showed exactly this, rounding to the rupee included, the coupon's discount taken
 * off, the named fees of `now` and the tip added; an MRP below the selling price counts as the selling price. The order keeps the delivery time of `store` to the address at `now`,
 * the store's queue of open orders included (docs/stores.md).
 * @returns the new order's id
 */
export async function writeOrder(tx: Tx, commerce: AppDeps['commerce'], order: OrderToWrite): Promise<string> {
  const priced = order.lines.map((line) => {
    const sellingPaise = toPaise(line.sellingPrice)
    return { line, sellingPaise, mrpPaise: Math.max(toPaise(line.mrp), sellingPaise) }
  })
  const bill = computeBill(
    priced.map((l) => ({ quantity: l.line.quantity, sellingPaise: l.sellingPaise, mrpPaise: l.mrpPaise })),
    commerce,
    order.coupon,
    order.tipPaise ?? 0,
    order.now,
  )
  const number = await nextOrderNumber(tx, order.now)
  const { store, now } = order
  const place = lookupPincode(order.address.snapshot.pincode)!
  const minutes = deliveryMinutes(commerce, distanceKm(store, place), await openOrderCount(tx, store.id), store.pickers, store.riderKmph)
  const id = newId()
  await tx.insert(orders).values({
    id,
    orderNumber: number,
    userId: order.userId,
    status: order.payment.status,
    paymentMethod: order.payment.method,
    deliveryAddress: order.address.snapshot,
    addressId: order.address.id,
    itemsTotalMrpPaise: bill.itemsTotalMrpPaise,
    itemsTotalPaise: bill.itemsTotalPaise,
    deliveryChargePaise: bill.deliveryChargePaise,
    roundingPaise: bill.roundingPaise,
    grandTotalPaise: bill.grandTotalPaise,
    idempotencyKey: order.idempotencyKey,
    createdAt: now,
    updatedAt: now,
    storeId: store.id,
    promisedMinutes: minutes,
    promisedAt: new Date(now.getTime() + minutes * 60_000),
    paymentState: order.payment.state,
    reservationExpiresAt: order.payment.reservationExpiresAt,
    couponId: bill.coupon ? order.coupon!.id : null,
    couponCode: bill.coupon?.code ?? null,
    couponDiscountPaise: bill.coupon?.discountPaise ?? 0,
    tipPaise: bill.tipPaise ?? 0,
    deliveryInstructions: order.instructions ?? null,
    // The fees as charged now: a later change of the configuration never alters this order.
    handlingChargePaise: bill.handlingChargePaise ?? 0,
    smallCartFeePaise: bill.smallCartFeePaise ?? 0,
    lateNightFeePaise: bill.lateNightFeePaise ?? 0,
  })
  await tx.insert(orderLines).values(
    priced.map(({ line, sellingPaise, mrpPaise }, position) => ({
      id: newId(),
      orderId: id,
      position,
      productId: line.productId,
      name: line.name,
      image: line.image[0] ?? '',
      unit: line.unit,
      brand: line.brand ?? '',
      quantity: line.quantity,
      unitPricePaise: sellingPaise,
      mrpPaise,
      discount: discountFromPrices(mrpPaise, sellingPaise),
      lineTotalPaise: sellingPaise * line.quantity,
      couponSharePaise: bill.coupon ? (order.coupon!.shares[position] ?? 0) : 0,
    })),
  )
  await recordStatus(tx, { orderId: id, status: order.payment.status, byUserId: order.userId, at: now })
  return id
}

/** Adds a status to an order's history; `byUserId` null: no one (a hold that ended). */
export async function recordStatus(
  tx: Tx,
  entry: { orderId: string; status: OrderStatus; byUserId: string | null; at: Date },
): Promise<void> {
  await tx.insert(orderStatusHistory).values({ id: newId(), ...entry })
}

/**
 * The last step of an order that is now placed (cash on delivery at placement, a payment verified,
 * "Pay on delivery instead"): the user's cart is emptied (its coupon code too: the order used it) and the confirmation email is written as a
 * job in the same transaction, sent if and only if it commits, so a slow or failing mail server never
 * delays or fails the order (docs/jobs.md, "Order emails").
 */
export async function confirmOrder(tx: Tx, jobs: AppDeps['jobs'], order: { orderId: string; userId: string }): Promise<void> {
  await tx.delete(cartLines).where(inArray(cartLines.cartId, tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, order.userId))))
  await tx.update(carts).set({ couponCode: null }).where(eq(carts.userId, order.userId))
  await jobs.send('order.mail', { kind: 'placed', orderId: order.orderId }, { tx })
}
