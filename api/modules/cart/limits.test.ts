/**
 * The cart's one rule (docs/decisions/0047-cart-rule-and-sql-function-files.md): each reason code
 * of the SQL functions (api/db/functions/cart_limit.sql, cart_line_add.sql, cart_set_qty.sql) with
 * its number, the message each code becomes (api/modules/cart/limits.ts), and the same limits for a
 * guest cart merged at sign-in and for "Order again" (both `cart_line_add` without `p_whole`). On
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { newId } from '../../lib/ids.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper } from '../../testing/auth.ts'
import { insertProduct, SEEDED_DEFAULT_STORE, setStockIn } from '../../testing/fixtures.ts'
import { CART_REASONS, cartReason, refusal } from './limits.ts'
import { addLinesToCart, addToCart, guestOwner, issueGuestCartId, type LimitReason, mergeGuestCart } from './service.ts'

describe('refusal: one message per reason code', () => {
  it('maps each code to the status and the exact message the shopper reads (docs/commerce-api.md, "Cart")', () => {
    const answers = CART_REASONS.filter((r) => r !== 'ok').map((r) => {
      const err = refusal(r, r === 'cart_full' ? 100 : 3)
      return [r, err.status, err.message]
    })
    expect(answers).toEqual([
      ['no_cart', 401, 'Your cart has expired'],
      ['no_line', 404, 'Cart item not found'],
      ['unavailable', 404, 'Product not found'],
      ['out_of_stock', 409, 'Out of stock'],
      ['stock', 409, 'Only 3 left in stock'],
      ['max_per_line', 409, 'You can add at most 3 of this item'],
      ['cart_full', 409, 'Your cart is full: at most 100 different products'],
    ])
  })

  it('refuses a code it does not know, rather than guess a message', () => {
    expect(() => cartReason('too_heavy')).toThrow('Unknown cart reason code: too_heavy')
    expect(cartReason('stock')).toBe('stock')
  })
})

let t: TestApp
const MAX = 5

beforeAll(async () => {
  t = await createTestApp({ commerce: { maxQtyPerLine: MAX, deliveryChargePaise: 2500, freeDeliveryAbovePaise: 19900 } })
})
afterAll(() => t?.close())

const deps = () => ({ ...t.deps, storeId: SEEDED_DEFAULT_STORE })

describe('cart_limit: the caps, decided once', () => {
  const limit = async (wanted: number, stock: number, max: number) =>
    (
      await queryRows<{ reason: string; limit: number | null; cap: number }>(
        t.db,
        sql`select v_reason as reason, v_limit as "limit", v_cap as cap from cart_limit(${wanted}::int, ${stock}::int, ${max}::int)`,
      )
    )[0]

  it('answers ok, out_of_stock, stock or max_per_line with the number of the message', async () => {
    expect(await limit(3, 10, 5)).toEqual({ reason: 'ok', limit: null, cap: 5 })
    expect(await limit(1, 0, 5)).toEqual({ reason: 'out_of_stock', limit: 0, cap: 0 })
    expect(await limit(4, 3, 5)).toEqual({ reason: 'stock', limit: 3, cap: 3 })
    expect(await limit(6, 10, 5)).toEqual({ reason: 'max_per_line', limit: 5, cap: 5 })
    // Past both caps: the one that bites is the lower (the stock), tied: the per-line maximum.
    expect(await limit(12, 3, 5)).toEqual({ reason: 'stock', limit: 3, cap: 3 })
    expect(await limit(6, 5, 5)).toEqual({ reason: 'max_per_line', limit: 5, cap: 5 })
  })
})

describe('cart_line_add: every reason code through the one rule', () => {
  /** A user's cart id, made with one line of `first`. */
  async function cartWith(first: string): Promise<string> {
    const who = await createShopper(t)
    await addToCart(deps(), { kind: 'user', userId: who.user.id }, first)
    return (await queryRows<{ id: string }>(t.db, sql`select id from carts where user_id = ${who.user.id}`))[0]!.id
  }
  const lineAdd = async (cart: string, product: string, qty: number, whole: boolean, maxLines = 100) =>
    (
      await queryRows<{ reason: string; limit: number | null; quantity: number | null; added: number }>(
        t.db,
        sql`select v_reason as reason, v_limit as "limit", v_quantity as quantity, v_added as added
            from cart_line_add(${cart}::text, ${SEEDED_DEFAULT_STORE}::text, ${product}::text, ${qty}::int, ${whole},
              ${newId()}::text, null::int, null::timestamptz, ${MAX}::int, ${maxLines}::int)`,
      )
    )[0]

  it('ok, max_per_line and stock: all or nothing with p_whole, the most allowed without', async () => {
    const rice = await insertProduct(t.db, { name: 'Sona Masoori Rice', price: 80, stock: 20 })
    const cart = await cartWith(rice.id)
    expect(await lineAdd(cart, rice.id, 2, true)).toEqual({ reason: 'ok', limit: null, quantity: 3, added: 2 })
    expect(await lineAdd(cart, rice.id, 3, true)).toEqual({ reason: 'max_per_line', limit: MAX, quantity: 3, added: 0 })
    expect(await lineAdd(cart, rice.id, 3, false)).toEqual({ reason: 'max_per_line', limit: MAX, quantity: 5, added: 2 })
    await setStockIn(t.db, rice.id, 2)
    // Above the stock now: the add button refuses, a merge brings the line down to the stock.
    expect(await lineAdd(cart, rice.id, 1, true)).toEqual({ reason: 'stock', limit: 2, quantity: 5, added: 0 })
    expect(await lineAdd(cart, rice.id, 1, false)).toEqual({ reason: 'stock', limit: 2, quantity: 2, added: 0 })
  })

  it('out_of_stock and unavailable write nothing; cart_full names the line cap', async () => {
    const tea = await insertProduct(t.db, { name: 'Assam Tea', price: 200, stock: 10 })
    const gone = await insertProduct(t.db, { name: 'Sold Out Jam', price: 150, stock: 0 })
    const hidden = await insertProduct(t.db, { name: 'Hidden Honey', price: 250, stock: 10, publish: false })
    const cart = await cartWith(tea.id)
    expect(await lineAdd(cart, gone.id, 1, false)).toMatchObject({ reason: 'out_of_stock', quantity: null, added: 0 })
    expect(await lineAdd(cart, hidden.id, 1, false)).toMatchObject({ reason: 'unavailable', quantity: null, added: 0 })
    expect(await lineAdd(cart, 'no-such-product', 1, true)).toMatchObject({ reason: 'unavailable', added: 0 })
    const coffee = await insertProduct(t.db, { name: 'Filter Coffee', price: 300, stock: 10 })
    expect(await lineAdd(cart, coffee.id, 1, true, 1)).toEqual({ reason: 'cart_full', limit: 1, quantity: null, added: 0 })
    // The line already there still goes up with a full cart.
    expect(await lineAdd(cart, tea.id, 1, true, 1)).toMatchObject({ reason: 'ok', quantity: 2 })
    const lines = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from cart_lines where cart_id = ${cart}`)
    expect(lines[0]!.n).toBe(1)
  })
})

describe('the messages on the wire, from the codes', () => {
  it('a quantity past both caps names the lower one; an unknown line is 404', async () => {
    const who = await createShopper(t)
    const ghee = await insertProduct(t.db, { name: 'Cow Ghee', price: 600, stock: 3 })
    const line = (await t.call('cart/create', { method: 'POST', json: { productId: ghee.id }, token: who.token })).body.data
    const over = await t.call('cart/update-qty', { method: 'PUT', json: { _id: line._id, qty: MAX + 1 }, token: who.token })
    expect([over.status, over.body.message]).toEqual([409, 'Only 3 left in stock'])
    await setStockIn(t.db, ghee.id, 50)
    const overMax = await t.call('cart/update-qty', { method: 'PUT', json: { _id: line._id, qty: MAX + 1 }, token: who.token })
    expect([overMax.status, overMax.body.message]).toEqual([409, `You can add at most ${MAX} of this item`])
    const unknown = await t.call('cart/update-qty', { method: 'PUT', json: { _id: 'no-such-line', qty: 1 }, token: who.token })
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Cart item not found'])
    const unpublished = await insertProduct(t.db, { name: 'Old Pickle', price: 90, stock: 5, publish: false })
    const refused = await t.call('cart/create', { method: 'POST', json: { productId: unpublished.id }, token: who.token })
    expect([refused.status, refused.body.message]).toEqual([404, 'Product not found'])
  })
})

describe('merge and "Order again" give the same limits', () => {
  /** The cart's quantity of `productId` for a user, 0 without a line. */
  const held = async (userId: string, productId: string) =>
    (
      await queryRows<{ q: number }>(
        t.db,
        sql`select l.quantity as q from cart_lines l join carts c on c.id = l.cart_id
            where c.user_id = ${userId} and l.product_id = ${productId}`,
      )
    )[0]?.q ?? 0

  /** A user whose cart holds `quantity` of `productId` (written directly: it may pass today's caps). */
  async function userHolding(productId: string, quantity: number): Promise<string> {
    const who = await createShopper(t)
    if (quantity > 0) {
      await setStockIn(t.db, productId, 50)
      await addToCart(deps(), { kind: 'user', userId: who.user.id }, productId)
      await t.db.execute(sql`update cart_lines set quantity = ${quantity} where product_id = ${productId}
        and cart_id = (select id from carts where user_id = ${who.user.id})`)
    }
    return who.user.id
  }

  /** A guest cart id whose cart holds `quantity` of `productId`. */
  async function guestHolding(productId: string, quantity: number): Promise<string> {
    const guestId = issueGuestCartId(t.deps)
    await setStockIn(t.db, productId, 50)
    const { owner } = await addToCart(deps(), await guestOwner(t.deps, guestId), productId)
    await t.db.execute(
      sql`update cart_lines set quantity = ${quantity} where product_id = ${productId} and cart_id = ${owner.kind === 'guest' ? owner.cartId : ''}`,
    )
    return guestId
  }

  const cases: {
    name: string
    holds: number
    adds: number
    stock: number
    publish?: boolean
    quantity: number
    reason: LimitReason | null
  }[] = [
    { name: 'all of it', holds: 1, adds: 2, stock: 20, quantity: 3, reason: null },
    { name: 'up to the per-line maximum', holds: 3, adds: 4, stock: 20, quantity: MAX, reason: 'max_per_line' },
    { name: 'up to the stock', holds: 1, adds: 4, stock: 3, quantity: 3, reason: 'stock' },
    { name: 'a line above the stock brought down to it', holds: 4, adds: 1, stock: 2, quantity: 2, reason: 'stock' },
    { name: 'nothing out of stock', holds: 0, adds: 2, stock: 0, quantity: 0, reason: 'out_of_stock' },
    { name: 'nothing unpublished', holds: 0, adds: 2, stock: 20, publish: false, quantity: 0, reason: 'unavailable' },
  ]

  it.each(cases)('$name', async ({ holds, adds, stock, publish, quantity, reason }) => {
    const product = await insertProduct(t.db, { name: `Merge Case ${newId()}`, price: 100, stock: 50 })
    const reordering = await userHolding(product.id, holds)
    const merging = await userHolding(product.id, holds)
    const guestId = await guestHolding(product.id, adds)
    await setStockIn(t.db, product.id, stock)
    if (publish === false) await t.db.execute(sql`update products set publish = false where id = ${product.id}`)

    // "Order again" adds through addLinesToCart (api/modules/order/service.ts `reorder`), the merge through mergeGuestCart.
    const [outcome] = await t.db.transaction((tx) =>
      addLinesToCart(deps(), tx, { kind: 'user', userId: reordering }, [{ productId: product.id, quantity: adds }]),
    )
    await mergeGuestCart(deps(), merging, guestId)

    expect(outcome!.limitedBy).toBe(reason)
    expect(await held(reordering, product.id)).toBe(quantity)
    expect(await held(merging, product.id)).toBe(quantity)
  })
})
