/**
 * Carts (docs/commerce-api.md, "Cart" and "Guest carts"): one per signed-in user, one per guest cart
 * id. Lines hold a quantity and the selling price (paise) the shopper last saw, so placing an order
 * can tell a changed price. Caps: the per-line maximum (`CART_MAX_QTY_PER_LINE`), the stock, and at
 * most `MAX_LINES_PER_CART` different products. Reads are always fresh (never the catalogue cache).
 *
 * A guest cart id is handed out without a database row (it is signed, so the API knows its own ids
 * without storing them); the row is made with the first line added, and at most
 * `maxGuestCarts` guest rows are kept, the longest idle removed first (docs/security.md, "Carts").
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, asc, count, eq, gte, inArray, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm'
import { cartLines, carts, inventory, products } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { HttpError, NotFound, Unauthorized } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { fromPaise, toPaise } from '../../lib/money.ts'
import type { CartSummaryAnswer } from '../../../contract/cart-summary.ts'
import { productAnswersByIds } from '../product/service.ts'
import { billToWire, computeBill, deliverableQuantity } from './bill.ts'
import type { Bill, CartItem, CartLimits } from '../../../contract/cart.ts'
import { COUPON_REASONS, type CartCoupon, type Offer } from '../../../contract/coupon.ts'
import { cartCoupon, couponByCode, evaluateFor, offersFor, setCartCouponCode } from '../coupon/checkout.ts'
import type { BasketLine } from '../coupon/evaluate.ts'
import { cartOwnerKey, guestCartHash } from '../../../server-shared/cart-owner-key.ts'
import { CART_EXPIRED, CART_ITEM_NOT_FOUND, cartReason, type LimitReason, MAX_LINES_PER_CART, refusal } from './limits.ts'

/** What the cart needs; `storeId` is the dark store whose stock caps the lines (docs/stores.md). */
type CartDeps = CartBaseDeps & { storeId: string }
/** What the cart's bookkeeping needs (no stock read). */
type CartBaseDeps = Pick<AppDeps, 'db' | 'commerce' | 'clock'>
type GuestDeps = Pick<AppDeps, 'jwtSecret'>
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
type Executor = Pick<Db, 'execute' | 'select' | 'insert' | 'update' | 'delete'>

/**
 * A whole cart on the wire: lines oldest first, the bill and the limits (rupees; contract/cart.ts),
 * and a signed-in shopper's coupon (null: none applied; docs/offers.md, "Applying a code").
 */
export interface CartAnswer {
  items: CartItem[]
  bill: Bill
  limits: CartLimits
  coupon: CartCoupon | null
}

/** A guest cart idle this long is gone (ms). */
export const GUEST_CART_TTL_MS = 30 * 24 * 60 * 60 * 1000
/** Guest cart rows kept at most by default (`GUEST_CART_MAX`); the longest idle go first. */
export const DEFAULT_MAX_GUEST_CARTS = 100_000

export { CART_EXPIRED, CART_FULL, CART_ITEM_NOT_FOUND, MAX_LINES_PER_CART, maxQtyMessage, onlyLeftMessage, OUT_OF_STOCK } from './limits.ts'
export type { LimitReason } from './limits.ts'

/**
 * Whose cart a request names: a signed-in user, or a guest cart id already checked: its hash and its
 * row's id when a lookup found it, else null (no row yet, or not looked up: every read and write
 * then finds the row by the hash, `ownerCart`).
 */
export type CartOwner = { kind: 'user'; userId: string } | { kind: 'guest'; tokenHash: string; cartId: string | null }

/**
 * The key a cart's own write budget is counted under (api/lib/rate-limit.ts `cartWriteByCart`): the
 * owner's key of server-shared/cart-owner-key.ts.
 */
export function cartBudgetKey(owner: CartOwner): string {
  return cartOwnerKey(owner.kind === 'user' ? { userId: owner.userId } : { guestCartHash: owner.tokenHash })
}

const hashGuestId = guestCartHash

/** Random bytes of a guest cart id, and bytes of its signature: 32 bytes, 43 base64url characters. */
const GUEST_ID_RANDOM_BYTES = 24
const GUEST_ID_MAC_BYTES = 8

/**
 * The guest cart ids' signing key of each JWT secret seen, derived once (an HMAC of the secret) rather
 * than on every cart request: the derivation cost as much as the signature itself.
 */
const guestIdKeys = new Map<string, Buffer>()

/** The signature of a guest cart id's random part, with a key of its own derived from the JWT secret. */
function guestIdMac(deps: GuestDeps, random: Buffer): Buffer {
  let key = guestIdKeys.get(deps.jwtSecret)
  if (!key) {
    key = createHmac('sha256', deps.jwtSecret).update('guest-cart-id').digest()
    guestIdKeys.set(deps.jwtSecret, key)
  }
  return createHmac('sha256', key).update(random).digest().subarray(0, GUEST_ID_MAC_BYTES)
}

/** True when `guestCartId` is one this API handed out (its signature matches). */
function isIssuedGuestId(deps: GuestDeps, guestCartId: string): boolean {
  const bytes = Buffer.from(guestCartId, 'base64url')
  if (bytes.length !== GUEST_ID_RANDOM_BYTES + GUEST_ID_MAC_BYTES || bytes.toString('base64url') !== guestCartId) return false
  return timingSafeEqual(bytes.subarray(GUEST_ID_RANDOM_BYTES), guestIdMac(deps, bytes.subarray(0, GUEST_ID_RANDOM_BYTES)))
}

/**
 * A new guest cart id: 192 random bits and a 64-bit signature, 43 base64url characters. Nothing is
 * stored: the cart's row is made with its first line (`addToCart`), so a visitor who never adds
 * anything costs no row, and no per-address budget is spent here.
 */
export function issueGuestCartId(deps: GuestDeps): string {
  const random = randomBytes(GUEST_ID_RANDOM_BYTES)
  return Buffer.concat([random, guestIdMac(deps, random)]).toString('base64url')
}

/** The cart id of a guest cart id, or null when it has no row or was idle past 30 days. */
export async function findGuestCart(deps: CartBaseDeps, guestCartId: string): Promise<string | null> {
  const cutoff = new Date(deps.clock().getTime() - GUEST_CART_TTL_MS)
  const [row] = await deps.db
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.guestTokenHash, hashGuestId(guestCartId)), gte(carts.updatedAt, cutoff)))
  return row?.id ?? null
}

/**
 * The guest cart of `guestCartId`: its row when it has one, else (an id this API signed) a cart
 * without a row yet, which reads as empty. An id with neither (made up, or an unsigned id of an
 * earlier version whose row is gone) is refused.
 * @throws 401 CART_EXPIRED
 */
export async function requireGuestCart(deps: CartBaseDeps & GuestDeps, guestCartId: string): Promise<CartOwner> {
  const cartId = await findGuestCart(deps, guestCartId)
  if (!cartId && !isIssuedGuestId(deps, guestCartId)) throw Unauthorized(CART_EXPIRED)
  return { kind: 'guest', tokenHash: hashGuestId(guestCartId), cartId }
}

/**
 * The owner of a guest cart for the cart's own routes: an id this API signed needs no lookup first
 * (`cartId` null: every read and write finds the row by the id's hash, idle at most 30 days, in its
 * own statement, as `findGuestCart` does); any other id goes through `requireGuestCart`.
 * @throws 401 CART_EXPIRED
 */
export async function guestOwner(deps: CartBaseDeps & GuestDeps, guestCartId: string): Promise<CartOwner> {
  if (isIssuedGuestId(deps, guestCartId)) return { kind: 'guest', tokenHash: hashGuestId(guestCartId), cartId: null }
  return requireGuestCart(deps, guestCartId)
}

/** Advisory lock key (any fixed bigint) that serialises guest cart creation. */
const GUEST_CART_LOCK = 0x67756573_74 // "guest"

/** Guest rows kept at most (`GUEST_CART_MAX`, api/config.ts). */
const maxGuestCartsOf = (deps: Pick<AppDeps, 'commerce'>) => deps.commerce.maxGuestCarts ?? DEFAULT_MAX_GUEST_CARTS

/**
 * Makes the row of a guest cart at its first line, in the caller's transaction, and keeps the guest
 * rows within `maxGuestCarts`: the longest idle ones beyond it are removed (their lines with them).
 * (Rows idle past 30 days are removed by the hourly job, `purgeIdleGuestCarts`.) Creations take one
 * transaction-scoped advisory lock, so two at once cannot both see room for one more; existing carts
 * never wait for it.
 * @returns the cart id (the existing one when a concurrent request made it first)
 */
async function makeGuestCart(deps: CartBaseDeps, tx: Executor, tokenHash: string): Promise<string> {
  // raw SQL: an advisory lock function.
  await tx.execute(sql`select pg_advisory_xact_lock(${GUEST_CART_LOCK})`)
  const id = newId()
  const now = deps.clock()
  const made = await tx
    .insert(carts)
    .values({ id, guestTokenHash: tokenHash, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: carts.guestTokenHash })
    .returning({ id: carts.id })
  if (made.length === 0) {
    // The row exists: made by a concurrent first line, or idle past 30 days and not yet purged. An
    // idle cart is gone (its lines do not come back); either way it is used again from now.
    const cutoff = new Date(now.getTime() - GUEST_CART_TTL_MS)
    const idle = tx
      .select({ id: carts.id })
      .from(carts)
      .where(and(eq(carts.guestTokenHash, tokenHash), lt(carts.updatedAt, cutoff)))
    await tx.delete(cartLines).where(inArray(cartLines.cartId, idle))
    const [row] = await tx.update(carts).set({ updatedAt: now }).where(eq(carts.guestTokenHash, tokenHash)).returning({ id: carts.id })
    return row!.id
  }
  const [guests] = await tx.select({ n: count() }).from(carts).where(isNotNull(carts.guestTokenHash))
  const excess = (guests?.n ?? 0) - maxGuestCartsOf(deps)
  if (excess > 0) {
    const longestIdle = tx
      .select({ id: carts.id })
      .from(carts)
      .where(and(isNotNull(carts.guestTokenHash), ne(carts.id, id)))
      .orderBy(asc(carts.updatedAt), asc(carts.id))
      .limit(excess)
    await tx.delete(carts).where(inArray(carts.id, longestIdle))
  }
  return id
}

/** Guest carts removed per statement by `purgeIdleGuestCarts` (short transactions, short locks). */
const PURGE_BATCH = 1000

/**
 * Removes every guest cart idle past 30 days (`GUEST_CART_TTL_MS`), with its lines, in batches of
 * PURGE_BATCH: the `carts.purge-idle-guests` job, hourly (docs/jobs.md, "Periodic work"). Such a cart
 * already reads as gone (`findGuestCart`); this frees its rows.
 * @returns how many carts were removed
 */
export async function purgeIdleGuestCarts(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
  const cutoff = new Date(deps.clock().getTime() - GUEST_CART_TTL_MS)
  let removed = 0
  for (;;) {
    const batch = deps.db
      .select({ id: carts.id })
      .from(carts)
      .where(and(isNotNull(carts.guestTokenHash), lt(carts.updatedAt, cutoff)))
      .limit(PURGE_BATCH)
    const rows = await deps.db.delete(carts).where(inArray(carts.id, batch)).returning({ id: carts.id })
    removed += rows.length
    if (rows.length < PURGE_BATCH) return removed
  }
}

/**
 * The id of the owner's cart, made on first use: a user's (one per user, by a unique index) or a
 * guest's (`makeGuestCart`, at its first line).
 */
async function cartIdOf(deps: CartBaseDeps, db: Executor, owner: CartOwner): Promise<string> {
  if (owner.kind === 'guest') return owner.cartId ?? (await makeGuestCart(deps, db, owner.tokenHash))
  await db.insert(carts).values({ id: newId(), userId: owner.userId }).onConflictDoNothing({ target: carts.userId })
  const [row] = await db.select({ id: carts.id }).from(carts).where(eq(carts.userId, owner.userId))
  return row!.id
}

/** The existing cart id of an owner without making one (reads), or null. */
async function existingCartId(deps: CartBaseDeps, db: Executor, owner: CartOwner): Promise<string | null> {
  if (owner.kind === 'guest' && owner.cartId) return owner.cartId
  const [row] = await db.select({ id: carts.id }).from(carts).where(ownerCart(deps, owner))
  return row?.id ?? null
}

/** Marks a cart as used now (a guest cart's 30 days start again). */
async function touch(db: Executor, cartId: string, now: Date): Promise<void> {
  await db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cartId))
}

/** The units of a line's product in the store's stock (no inventory row: 0), over a left join of `inventory` on the product and store. */
const storeStock = sql<number>`coalesce(${inventory.stock}, 0)::int`

/** The limits on the wire (rupees). */
export function limitsOf(deps: Pick<AppDeps, 'commerce'>): CartLimits {
  const { maxQtyPerLine, deliveryChargePaise, freeDeliveryAbovePaise } = deps.commerce
  return { maxQtyPerLine, deliveryCharge: deliveryChargePaise / 100, freeDeliveryAbove: freeDeliveryAbovePaise / 100 }
}

/**
 * The condition on `carts` that picks the owner's cart: a user's by user id, a guest's by its row
 * id when known, else by the guest id's hash among the rows used in the last 30 days (no row reads
 * as an empty cart).
 */
function ownerCart(deps: CartBaseDeps, owner: CartOwner): SQL | undefined {
  if (owner.kind === 'user') return eq(carts.userId, owner.userId)
  if (owner.cartId) return eq(carts.id, owner.cartId)
  const cutoff = new Date(deps.clock().getTime() - GUEST_CART_TTL_MS)
  return and(eq(carts.guestTokenHash, owner.tokenHash), gte(carts.updatedAt, cutoff))
}

/**
 * The owner's cart: lines oldest first with today's product, the bill at today's prices. Lines of
 * unpublished products, or of products the store has none of, stay listed (the shopper sees them)
 * but checkout removes them, so the bill leaves them out, and counts a line above the store's stock
 * at the stock (`deliverableQuantity`). Two statements: the lines, then their products.
 */
export async function getCart(deps: CartDeps, owner: CartOwner, db: Executor = deps.db): Promise<CartAnswer> {
  const rows = await db
    .select({ id: cartLines.id, product_id: cartLines.productId, quantity: cartLines.quantity, user_id: carts.userId })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .where(ownerCart(deps, owner))
    .orderBy(asc(cartLines.createdAt), asc(cartLines.id))
  const products = await productAnswersByIds(
    db,
    deps.storeId,
    rows.map((r) => r.product_id),
  )
  const items: CartItem[] = []
  for (const row of rows) {
    const product = products.get(row.product_id)
    if (product) items.push({ _id: row.id, productId: product, quantity: row.quantity, userId: row.user_id })
  }
  const billLines = items.map((i) => ({
    quantity: deliverableQuantity(i.quantity, i.productId.stock, i.productId.publish !== false),
    sellingPaise: toPaise(i.productId.sellingPrice),
    mrpPaise: toPaise(i.productId.price),
  }))
  // A signed-in shopper's code, checked against the deliverable basket the bill counts.
  const basket = basketOf(items)
  const coupon =
    owner.kind === 'user' ? await cartCoupon(db, { userId: owner.userId, storeId: deps.storeId, now: deps.clock() }, basket) : null
  const bill = computeBill(billLines, deps.commerce, coupon?.off, 0, deps.clock())
  return { items, bill: billToWire(bill, deps.commerce), limits: limitsOf(deps), coupon: coupon?.answer ?? null }
}

/**
 * The cart's lines as a coupon reads them (api/modules/coupon/evaluate.ts): each line's deliverable
 * units at today's selling price (paise), as the bill counts them, and its product's categories.
 */
export function basketOf(items: readonly CartItem[]): BasketLine[] {
  return items.map((i) => ({
    totalPaise: deliverableQuantity(i.quantity, i.productId.stock, i.productId.publish !== false) * toPaise(i.productId.sellingPrice),
    categoryIds: i.productId.category.map((c) => c._id),
  }))
}

/**
 * Applies `code` (upper-case) to the user's cart (docs/offers.md, "Applying a code"): kept when it
 * applies to the cart now, with the cart answered (its bill net of the discount).
 * @throws 404 COUPON_REASONS.unknown; 422 with the reason ("Minimum basket ₹499", "Already used",
 *   "Expired", ...) on the field `code`, nothing kept
 */
export async function applyCoupon(deps: CartDeps, userId: string, code: string): Promise<CartAnswer> {
  const owner: CartOwner = { kind: 'user', userId }
  const coupon = await couponByCode(deps.db, code)
  if (!coupon) throw new HttpError(404, COUPON_REASONS.unknown, { issues: [{ path: 'code', message: COUPON_REASONS.unknown }] })
  const { items } = await getCart(deps, owner)
  const verdict = await evaluateFor(deps.db, coupon, { userId, storeId: deps.storeId, now: deps.clock() }, basketOf(items))
  if (!verdict.applies) throw new HttpError(422, verdict.reason, { issues: [{ path: 'code', message: verdict.reason }] })
  await setCartCouponCode(deps.db, userId, coupon.code)
  return getCart(deps, owner)
}

/** Removes the code from the user's cart (none applied: nothing to do); answers the cart. */
export async function removeCoupon(deps: CartDeps, userId: string): Promise<CartAnswer> {
  await setCartCouponCode(deps.db, userId, null)
  return getCart(deps, { kind: 'user', userId })
}

/** The offers for the user's cart now (api/modules/coupon/checkout.ts `offersFor`). */
export async function cartOffers(deps: CartDeps, userId: string): Promise<Offer[]> {
  const { items } = await getCart(deps, { kind: 'user', userId })
  return offersFor(deps.db, { userId, storeId: deps.storeId, now: deps.clock() }, basketOf(items))
}

/**
 * The owner's cart in brief (docs/commerce-api.md, "Cart summary"): one statement reading the lines
 * with their products' prices and the serving store's stock, and the same bill arithmetic as
 * `getCart` (`computeBill` of `deliverableQuantity`), so the count and items total are those of the
 * whole cart's bill to the paisa: only what the store can deliver.
 */
export async function getCartSummary(deps: CartDeps, owner: CartOwner): Promise<CartSummaryAnswer> {
  // One statement: lines, carts, products and the store's stock joined on their keys (prices as numeric text, exact).
  const rows = await deps.db
    .select({
      id: cartLines.id,
      product_id: cartLines.productId,
      quantity: cartLines.quantity,
      selling_price: sql<string>`${products.sellingPrice}::text`,
      mrp: sql<string>`${products.price}::text`,
      stock: storeStock,
      publish: products.publish,
    })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .leftJoin(inventory, and(eq(inventory.productId, products.id), eq(inventory.storeId, deps.storeId)))
    .where(ownerCart(deps, owner))
    .orderBy(asc(cartLines.createdAt), asc(cartLines.id))
  const bill = computeBill(
    rows.map((r) => ({
      quantity: deliverableQuantity(r.quantity, r.stock, r.publish),
      sellingPaise: toPaise(r.selling_price),
      mrpPaise: toPaise(r.mrp),
    })),
    deps.commerce,
  )
  return {
    lines: rows.map((r) => ({ _id: r.id, productId: r.product_id, quantity: r.quantity })),
    itemCount: bill.itemCount,
    itemsTotal: fromPaise(bill.itemsTotalPaise),
    maxQtyPerLine: deps.commerce.maxQtyPerLine,
  }
}

/**
 * The owner as the cart functions of api/db/functions (cart_lock.sql and its callers) take it:
 * user id, guest cart id hash, guest cart row id (one of the three), the oldest `updated_at` a guest
 * cart may have (30 days, `GUEST_CART_TTL_MS`) and the moment of the write (`deps.clock()`).
 */
function ownerArgs(deps: CartBaseDeps, owner: CartOwner): SQL {
  const now = deps.clock()
  const cutoff = new Date(now.getTime() - GUEST_CART_TTL_MS)
  const userId = owner.kind === 'user' ? owner.userId : null
  const guestHash = owner.kind === 'guest' ? owner.tokenHash : null
  const cartId = owner.kind === 'guest' ? owner.cartId : null
  return sql`${userId}::text, ${guestHash}::text, ${cartId}::text, ${cutoff.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz`
}

/**
 * The owner's cart row, locked for the caller's transaction and marked used now (a guest cart's 30
 * days start again), by the SQL function `cart_lock` (the one home of that rule, also called by
 * `cart_add_one` and `cart_set_qty`): its UPDATE's row lock is what `select … for update` would take,
 * so one writer per cart at a time and the line count and quantity checks that follow stay true. A
 * user's cart is made on first use; a guest's at its first line (`makeGuestCart`) when `create`.
 * @returns the cart id, or null when there is no cart (and `create` is false)
 * @throws 401 CART_EXPIRED when a guest cart's row went away since the request found it
 */
async function lockCart(deps: CartBaseDeps, tx: Tx, owner: CartOwner, create: boolean): Promise<string | null> {
  const newCartId = owner.kind === 'user' && create ? newId() : null
  // raw SQL: a function call.
  const [row] = await queryRows<{ id: string | null }>(tx, sql`select cart_lock(${ownerArgs(deps, owner)}, ${newCartId}::text) as id`)
  if (row?.id) return row.id
  if (owner.kind === 'guest' && owner.cartId) throw Unauthorized(CART_EXPIRED)
  return owner.kind === 'guest' && create ? makeGuestCart(deps, tx, owner.tokenHash) : null
}

/** What a cart write did: the line's id (null when it was removed) and the owner with its cart's row. */
export interface CartWrite {
  lineId: string | null
  owner: CartOwner
}

/** The answer of `cart_add_one` (api/db/functions/cart_add_one.sql). */
interface AddOneRow {
  /** The cart, null when the owner has none (a guest before the first line). */
  cart: string | null
  reason: string
  /** The number of a refusal's message (stock, per-line maximum or line cap). */
  limit: number | null
  lineId: string | null
}

/** One call of `cart_add_one` on `db` (a transaction or the database). */
async function addOne(deps: CartDeps, db: Executor, owner: CartOwner, productId: string): Promise<AddOneRow> {
  const newCartId = owner.kind === 'user' ? newId() : null
  // raw SQL: a call of `cart_add_one` (one round trip per add, docs/decisions/0039-cart-writes-in-one-call.md).
  const [row] = await queryRows<AddOneRow>(
    db,
    sql`select v_cart as cart, v_reason as reason, v_limit as "limit", v_line as "lineId"
        from cart_add_one(${ownerArgs(deps, owner)}, ${newCartId}::text, ${deps.storeId}::text, ${productId}::text,
          ${newId()}::text, ${deps.commerce.maxQtyPerLine}::int, ${MAX_LINES_PER_CART}::int)`,
  )
  return row!
}

/**
 * Adds one of a product: a new line of 1, or an existing line up by one (atomic, so two quick clicks
 * add two). The line remembers today's selling price. One call of the SQL function `cart_add_one`
 * (its own transaction: lock the cart, then the cart's one rule, `cart_line_add`); a guest's first
 * line makes the cart's row first (`makeGuestCart`), in one transaction with the call. The rule and
 * its reason are the SQL function's; the message is `refusal`'s (api/modules/cart/limits.ts).
 * @throws 404 unknown or unpublished product; 409 OUT_OF_STOCK, the per-line maximum, the stock, CART_FULL;
 *   401 CART_EXPIRED when a guest cart's row went away since the request found it
 */
export async function addToCart(deps: CartDeps, owner: CartOwner, productId: string): Promise<CartWrite> {
  /** The row when written, else its refusal (thrown inside a transaction, it rolls it back). */
  const written = (row: AddOneRow): AddOneRow => {
    const reason = cartReason(row.reason)
    if (reason === 'ok') return row
    throw refusal(reason, row.limit)
  }
  let row = await addOne(deps, deps.db, owner, productId)
  if (!row.cart && owner.kind === 'guest' && !owner.cartId) {
    // A guest's first line: the row is made (bounded in number) and the line added in one
    // transaction, so a refused first line leaves no empty cart behind.
    const { tokenHash } = owner
    row = await deps.db.transaction(async (tx) => {
      await makeGuestCart(deps, tx, tokenHash)
      return written(await addOne(deps, tx, owner, productId))
    })
  }
  written(row)
  const cartOwner: CartOwner = owner.kind === 'guest' ? { ...owner, cartId: row.cart } : owner
  return { lineId: row.lineId!, owner: cartOwner }
}

/** One line of the owner's cart as the wire shows it (today's product), or null when it is gone. */
export async function lineAnswer(deps: CartDeps, owner: CartOwner, lineId: string): Promise<CartItem | null> {
  const cart = await getCart(deps, owner)
  return cart.items.find((i) => i._id === lineId) ?? null
}

/**
 * Sets a line's quantity; 0 removes it. The line remembers today's selling price. One call of the SQL
 * function `cart_set_qty` (its own transaction: lock the cart, read the line with its product's
 * state, write or remove the line when `cart_limit` allows); a refusal's message is `refusal`'s.
 * @returns the line id, or null when removed
 * @throws 404 CART_ITEM_NOT_FOUND (another cart's line too); 409 over the per-line maximum or the stock
 *   (nothing changed); 401 CART_EXPIRED when a guest cart's row went away since the request found it
 */
export async function updateQuantity(deps: CartDeps, owner: CartOwner, lineId: string, qty: number): Promise<CartWrite> {
  // raw SQL: a call of `cart_set_qty` (one round trip per change, docs/decisions/0039-cart-writes-in-one-call.md).
  const [row] = await queryRows<{ reason: string; limit: number | null }>(
    deps.db,
    sql`select v_reason as reason, v_limit as "limit"
        from cart_set_qty(${ownerArgs(deps, owner)}, ${deps.storeId}::text, ${lineId}::text, ${qty}::int, ${deps.commerce.maxQtyPerLine}::int)`,
  )
  const reason = cartReason(row!.reason)
  // No cart at all: a guest whose row went away since the request found it, else simply no such line.
  if (reason === 'no_cart') throw owner.kind === 'guest' && owner.cartId ? refusal('no_cart', null) : refusal('no_line', null)
  if (reason !== 'ok') throw refusal(reason, row!.limit)
  return { lineId: qty === 0 ? null : lineId, owner }
}

/** Removes a line (lock the cart, delete the line). @throws 404 CART_ITEM_NOT_FOUND */
export async function removeLine(deps: CartDeps, owner: CartOwner, lineId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const cartId = await lockCart(deps, tx, owner, false)
    const removed = cartId
      ? await tx
          .delete(cartLines)
          .where(and(eq(cartLines.id, lineId), eq(cartLines.cartId, cartId)))
          .returning({ id: cartLines.id })
      : []
    if (removed.length === 0) throw NotFound(CART_ITEM_NOT_FOUND)
  })
}

/** One line to add with the merge rule (`addLinesCapped`). */
export interface LineToAdd {
  /** Null when the product was deleted since (an old order's line): never added. */
  productId: string | null
  /** Units wanted on top of what the cart holds. */
  quantity: number
  /** The price the shopper saw (paise) for a new line; today's selling price when omitted. */
  unitPricePaise?: number
  /** When the line was first added (a guest line keeps it); the moment of this insert when omitted. */
  createdAt?: string
}

/** What became of one `LineToAdd`: units added (0 or more) and why not all, or null. */
export interface LineAdded {
  added: number
  limitedBy: LimitReason | null
}

/**
 * Adds `lines` to the cart `cartId` with the merge rule, in the caller's transaction (the caller
 * holds the cart row's lock): one call of the cart's one rule per line, `cart_line_add` without
 * `p_whole` (api/db/functions/cart_line_add.sql): each quantity is added to the line already there,
 * the sum capped by the per-line maximum and the stock; a product unpublished, deleted or out of
 * stock adds nothing, nor does a new line once the cart holds `MAX_LINES_PER_CART`; a line already
 * above a cap (the stock fell) is brought down to it, as checkout would.
 * @returns one `LineAdded` per line, in the order given
 */
async function addLinesCapped(deps: CartDeps, tx: Executor, cartId: string, lines: LineToAdd[]): Promise<LineAdded[]> {
  const outcomes: LineAdded[] = []
  for (const line of lines) {
    // raw SQL: a call of `cart_line_add`, the same rule as the add button's.
    const [row] = await queryRows<{ reason: string; added: number }>(
      tx,
      sql`select v_reason as reason, v_added as added
          from cart_line_add(${cartId}::text, ${deps.storeId}::text, ${line.productId}::text, ${line.quantity}::int, false,
            ${newId()}::text, ${line.unitPricePaise ?? null}::int, ${line.createdAt ?? null}::timestamptz,
            ${deps.commerce.maxQtyPerLine}::int, ${MAX_LINES_PER_CART}::int)`,
    )
    const reason = cartReason(row!.reason)
    if (reason === 'no_cart' || reason === 'no_line') throw new Error(`cart_line_add answered ${reason}`)
    outcomes.push({ added: row!.added, limitedBy: reason === 'ok' ? null : reason })
  }
  return outcomes
}

/**
 * Adds `lines` to the owner's cart with the merge rule (`addLinesCapped`) inside the caller's
 * transaction `tx`: the cart is made on first use and its row locked (one writer per cart).
 * Reordering a past order uses it (docs/commerce-api.md, "Order again").
 * @returns one `LineAdded` per line, in the order given
 */
export async function addLinesToCart(deps: CartDeps, tx: Tx, owner: CartOwner, lines: LineToAdd[]): Promise<LineAdded[]> {
  const cartId = (await lockCart(deps, tx, owner, true))!
  return addLinesCapped(deps, tx, cartId, lines)
}

/**
 * Merges a guest cart into a user's cart (after sign-in): quantities are added, each line capped by
 * the per-line maximum and the stock (a line of a product out of stock or unpublished is dropped),
 * and the guest cart is deleted, all in one transaction. An unknown or expired guest id merges nothing.
 */
export async function mergeGuestCart(deps: CartDeps, userId: string, guestCartId: string): Promise<CartAnswer> {
  const owner: CartOwner = { kind: 'user', userId }
  const guestCart = await findGuestCart(deps, guestCartId)
  if (guestCart) {
    await deps.db.transaction(async (tx) => {
      const cartId = await cartIdOf(deps, tx, owner)
      // Both rows locked in id order, so two merges into one cart never wait on each other in a cycle.
      await tx
        .select({ id: carts.id })
        .from(carts)
        .where(inArray(carts.id, [cartId, guestCart]))
        .orderBy(asc(carts.id))
        .for('update')
      const guestLines = await tx
        .select({
          productId: cartLines.productId,
          quantity: cartLines.quantity,
          unitPricePaise: cartLines.unitPricePaise,
          // As text: a JavaScript Date would drop the microseconds that order lines added together.
          createdAt: sql<string>`${cartLines.createdAt}::text`,
        })
        .from(cartLines)
        .where(eq(cartLines.cartId, guestCart))
        .orderBy(asc(cartLines.createdAt), asc(cartLines.id))
      await addLinesCapped(deps, tx, cartId, guestLines)
      await tx.delete(carts).where(eq(carts.id, guestCart))
      await touch(tx, cartId, deps.clock())
    })
  }
  return getCart(deps, owner)
}

/** The ids of a user's cart lines (GET /api/user/user-details `shopping_cart`). */
export async function cartLineIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: cartLines.id })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .where(eq(carts.userId, userId))
    .orderBy(asc(cartLines.createdAt), asc(cartLines.id))
  return rows.map((r) => r.id)
}

export type { Tx }

/**
 * Fits the owner's cart to the stock of `deps.storeId` after the shopper changed location
 * (docs/stores.md, "Changing location with a cart"): a line above the store's stock is brought down
 * to it; a line the store lacks (stock 0, or unpublished) is kept, shown unavailable, and removed at
 * checkout. One transaction.
 * @returns what changed, as a refused placement says it (`kind` 'stock', quantity before and after; 0 = unavailable here)
 */
export async function fitCartToStore(deps: CartDeps, owner: CartOwner): Promise<CartChangeRow[]> {
  return deps.db.transaction(async (tx) => {
    const cartId = await existingCartId(deps, tx, owner)
    if (!cartId) return []
    const lines = await tx
      .select({
        id: cartLines.id,
        product_id: cartLines.productId,
        quantity: cartLines.quantity,
        name: products.name,
        stock: storeStock,
        publish: products.publish,
      })
      .from(cartLines)
      .innerJoin(products, eq(products.id, cartLines.productId))
      .leftJoin(inventory, and(eq(inventory.productId, products.id), eq(inventory.storeId, deps.storeId)))
      .where(eq(cartLines.cartId, cartId))
      .orderBy(asc(cartLines.createdAt), asc(cartLines.id))
    const changes: CartChangeRow[] = []
    for (const line of lines) {
      const available = line.publish ? line.stock : 0
      if (line.quantity <= available) continue
      changes.push({ productId: line.product_id, name: line.name, kind: 'stock', before: line.quantity, after: available })
      if (available > 0)
        await tx
          .update(cartLines)
          .set({ quantity: available, updatedAt: sql`now()` })
          .where(eq(cartLines.id, line.id))
    }
    return changes
  })
}

/** A cart line changed by `fitCartToStore` (contract/order.ts `CartChangeSchema`). */
export interface CartChangeRow {
  productId: string
  name: string
  kind: 'stock'
  before: number
  after: number
}
