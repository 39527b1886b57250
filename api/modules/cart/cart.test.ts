/**
 * Carts on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): guest carts, a user's
 * cart, caps (per-line maximum, stock, out of stock, lines per cart), one writer per cart under
 * concurrent writes (a real race on PostgreSQL's pool), another cart's line, the bill, merging a guest
 * cart at sign-in, and a deleted product leaving every cart.
 */
import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import type { Product } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, insertProducts } from '../../testing/fixtures.ts'
import { CART_EXPIRED, CART_FULL, MAX_LINES_PER_CART, maxQtyMessage, OUT_OF_STOCK } from './service.ts'

let t: TestApp
let shopper: SignedIn
let other: SignedIn
let admin: SignedIn
let milk: Product
let bread: Product
let rare: Product
let gone: Product
let hidden: Product

beforeAll(async () => {
  t = await createTestApp({ commerce: { maxQtyPerLine: 5, deliveryChargePaise: 2500, freeDeliveryAbovePaise: 19900 } })
  shopper = await createShopper(t)
  other = await createShopper(t)
  admin = await createAdmin(t)
  milk = await insertProduct(t.db, { name: 'Toned Milk', price: 30, sellingPrice: 28, stock: 50, moreDetails: { brand: 'Amul' } })
  bread = await insertProduct(t.db, { name: 'Brown Bread', price: 55, stock: 50 })
  rare = await insertProduct(t.db, { name: 'Saffron', price: 500, sellingPrice: 450.5, stock: 2 })
  gone = await insertProduct(t.db, { name: 'Sold Out Ghee', price: 600, stock: 0 })
  hidden = await insertProduct(t.db, { name: 'Draft Product', price: 10, publish: false })
})
afterAll(() => t?.close())

const asUser = (who: SignedIn) => ({ token: who.token })
const asGuest = (id: string) => ({ headers: { 'X-Guest-Cart': id } })
const add = (productId: string, auth: object) => t.call('cart/create', { method: 'POST', json: { productId }, ...auth })
const get = (auth: object) => t.call('cart/get', auth)
const setQty = (_id: string, qty: unknown, auth: object) => t.call('cart/update-qty', { method: 'PUT', json: { _id, qty }, ...auth })
const hashOf = (id: string) => createHash('sha256').update(id).digest('hex')
const guestRows = async () =>
  (await queryRows<{ h: string }>(t.db, sql`select guest_token_hash as h from carts where guest_token_hash is not null`)).map((r) => r.h)
const newGuest = async () => (await t.call('cart/guest', { method: 'POST' })).body.data.guestCartId as string

describe('who owns a cart', () => {
  it('a visitor with neither token nor guest cart id is refused (401)', async () => {
    expect((await get({})).status).toBe(401)
    expect((await add(milk.id, {})).status).toBe(401)
  })

  it('an unknown guest id is 401 "Your cart has expired"; a bad token never falls back to the guest cart', async () => {
    const res = await get(asGuest('x'.repeat(43)))
    expect(res.status).toBe(401)
    expect(res.body.message).toBe(CART_EXPIRED)
    const guest = await newGuest()
    expect((await get({ token: 'not-a-token', ...asGuest(guest) })).status).toBe(401)
  })

  it('a guest cart keeps lines under its id and nobody else sees them', async () => {
    const guest = await newGuest()
    expect(guest).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect((await add(milk.id, asGuest(guest))).status).toBe(200)
    const cart = await get(asGuest(guest))
    expect(cart.body.data).toHaveLength(1)
    expect(cart.body.data[0]).toMatchObject({ quantity: 1, userId: null, productId: { _id: milk.id, sellingPrice: 28, price: 30 } })
    expect((await get(asGuest(await newGuest()))).body.data).toEqual([])
    expect((await get(asUser(other))).body.data).toEqual([])
  })

  it("another cart's line id is a 404 and is not touched", async () => {
    const line = (await add(bread.id, asUser(shopper))).body.data
    expect((await setQty(line._id, 3, asUser(other))).status).toBe(404)
    expect((await t.call('cart/delete-cart-item', { method: 'DELETE', json: { _id: line._id }, token: other.token })).status).toBe(404)
    const mine = (await get(asUser(shopper))).body.data.find((l: { _id: string }) => l._id === line._id)
    expect(mine.quantity).toBe(1)
    await setQty(line._id, 0, asUser(shopper))
  })
})

describe('adding and changing quantities', () => {
  it('adding a product already in the cart increments its line; 0 removes it', async () => {
    const who = await createShopper(t)
    const first = await add(milk.id, asUser(who))
    const second = await add(milk.id, asUser(who))
    expect(second.body.data).toMatchObject({ _id: first.body.data._id, quantity: 2, userId: who.user.id })
    expect((await setQty(first.body.data._id, 4, asUser(who))).body.data.quantity).toBe(4)
    const removed = await setQty(first.body.data._id, 0, asUser(who))
    expect(removed.status).toBe(200)
    expect(removed.body.data).toBeNull()
    expect((await get(asUser(who))).body.data).toEqual([])
  })

  it('caps a line at the per-line maximum and at the stock, with the messages the shopper sees', async () => {
    const who = await createShopper(t)
    for (let i = 0; i < 5; i++) expect((await add(bread.id, asUser(who))).status).toBe(200)
    const over = await add(bread.id, asUser(who))
    expect(over.status).toBe(409)
    expect(over.body.message).toBe(maxQtyMessage(5))
    const line = (await add(rare.id, asUser(who))).body.data
    const tooMany = await setQty(line._id, 3, asUser(who))
    expect(tooMany.status).toBe(409)
    expect(tooMany.body.message).toBe('Only 2 left in stock')
    expect((await get(asUser(who))).body.data.find((l: { _id: string }) => l._id === line._id).quantity).toBe(1)
  })

  it('refuses an out-of-stock product (409 "Out of stock") and an unpublished or unknown one (404)', async () => {
    const res = await add(gone.id, asUser(shopper))
    expect(res.status).toBe(409)
    expect(res.body.message).toBe(OUT_OF_STOCK)
    expect((await add(hidden.id, asUser(shopper))).status).toBe(404)
    expect((await add('f'.repeat(24), asUser(shopper))).status).toBe(404)
  })

  it('remembers the selling price in exact paise (₹450.50 is 45050) on add and on a quantity change', async () => {
    const who = await createShopper(t)
    const line = (await add(rare.id, asUser(who))).body.data
    const paise = async () =>
      (await queryRows<{ p: number }>(t.db, sql`select unit_price_paise as p from cart_lines where id = ${line._id}`))[0]?.p
    expect(await paise()).toBe(45050)
    await t.db.execute(sql`update cart_lines set unit_price_paise = 1 where id = ${line._id}`)
    expect((await setQty(line._id, 2, asUser(who))).status).toBe(200)
    expect(await paise()).toBe(45050)
  })

  it('a guest’s refused first line leaves no cart row behind', async () => {
    const id = await newGuest()
    expect((await add(hidden.id, asGuest(id))).status).toBe(404)
    expect((await add(gone.id, asGuest(id))).status).toBe(409)
    expect(await guestRows()).not.toContain(hashOf(id))
    expect((await add(milk.id, asGuest(id))).status).toBe(200)
    expect(await guestRows()).toContain(hashOf(id))
  })

  // No coercion of a quantity: only a whole number or a string of digits (docs/api-contract.md, "Conventions").
  it.each([null, false, true, [], [3], '', '0x0a', '1e1', ' 3', '3.0', {}, 1e21].map((qty) => ({ qty })))(
    'refuses qty $qty with 400 on qty and leaves the line as it was',
    async ({ qty }) => {
      const who = await createShopper(t)
      const line = (await add(milk.id, asUser(who))).body.data
      const res = await setQty(line._id, qty, asUser(who))
      expect(res.status).toBe(400)
      expect(res.body.issues[0].path).toBe('qty')
      expect((await get(asUser(who))).body.data).toMatchObject([{ _id: line._id, quantity: 1 }])
    },
  )

  it.each([
    [3, 3],
    ['3', 3],
    ['03', 3],
    [0, null],
    ['0', null],
  ])('accepts qty %j (the original client may send a string of digits)', async (qty, quantity) => {
    const who = await createShopper(t)
    const line = (await add(milk.id, asUser(who))).body.data
    const res = await setQty(line._id, qty, asUser(who))
    expect(res.status).toBe(200)
    expect(res.body.data?.quantity ?? null).toBe(quantity)
    expect((await get(asUser(who))).body.data).toHaveLength(quantity === null ? 0 : 1)
  })

  it('refuses bad quantities with 400 and a field issue', async () => {
    const line = (await add(milk.id, asUser(other))).body.data
    for (const qty of [-1, 1.5, 'lots', 1000]) {
      const res = await setQty(line._id, qty, asUser(other))
      expect(res.status).toBe(400)
      expect(res.body.issues[0].path).toBe('qty')
    }
    await setQty(line._id, 0, asUser(other))
  })
})

describe('the bill', () => {
  it('adds up in paise, charges delivery below ₹199 and not from it', async () => {
    const who = await createShopper(t)
    await add(milk.id, asUser(who))
    await add(milk.id, asUser(who))
    let cart = await get(asUser(who))
    expect(cart.body.bill).toEqual({
      itemCount: 2,
      itemsTotalMrp: 60,
      productDiscount: 4,
      itemsTotal: 56,
      deliveryCharge: 25,
      freeDeliveryAbove: 199,
      roundingOff: 0,
      grandTotal: 81,
      totalSavings: 4,
    })
    expect(cart.body.limits).toEqual({ maxQtyPerLine: 5, deliveryCharge: 25, freeDeliveryAbove: 199 })
    await add(rare.id, asUser(who))
    cart = await get(asUser(who))
    expect(cart.body.bill).toMatchObject({
      itemCount: 3,
      itemsTotal: 506.5,
      deliveryCharge: 0,
      roundingOff: 0.5,
      grandTotal: 507,
      totalSavings: 4 + 49.5 + 25,
    })
  })
})

describe('merging a guest cart at sign-in', () => {
  it('adds quantities, caps them, drops what is out of stock, and deletes the guest cart', async () => {
    const who = await createShopper(t)
    await add(milk.id, asUser(who))
    await add(milk.id, asUser(who))
    const guest = await newGuest()
    for (let i = 0; i < 4; i++) await add(milk.id, asGuest(guest))
    await add(bread.id, asGuest(guest))
    const merged = await t.call('cart/merge', { method: 'POST', json: { guestCartId: guest }, token: who.token })
    expect(merged.status).toBe(200)
    const byName = Object.fromEntries(
      merged.body.data.map((l: { productId: { name: string }; quantity: number }) => [l.productId.name, l.quantity]),
    )
    expect(byName).toEqual({ 'Toned Milk': 5, 'Brown Bread': 1 })
    // The guest row is gone; its id now reads as an empty cart (a row again only with a new first line).
    expect((await get(asGuest(guest))).body.data).toEqual([])
    expect(await guestRows()).not.toContain(hashOf(guest))
    // A second merge of the same id merges nothing.
    const again = await t.call('cart/merge', { method: 'POST', json: { guestCartId: guest }, token: who.token })
    expect(again.body.data).toHaveLength(2)
  })

  it('keeps the order the lines were added in: the cart and the checkout list them alike', async () => {
    // docs/commerce-api.md, "Cart": lines oldest first. Merged lines keep when they were added, so a
    // guest's cart is listed in the same order after sign-in (a merge inserts them in one transaction,
    // where now() is one instant, and the line ids alone would shuffle them).
    const who = await createShopper(t)
    await add(rare.id, asUser(who))
    const guest = await newGuest()
    const picks = [bread, milk]
    for (let i = 0; i < 6; i++) picks.push(await insertProduct(t.db, { name: `Order Check ${i}`, price: 10 + i, stock: 9 }))
    for (const product of picks) await add(product.id, asGuest(guest))
    const merged = await t.call('cart/merge', { method: 'POST', json: { guestCartId: guest }, token: who.token })
    const names = (lines: { productId: { name: string } }[]) => lines.map((l) => l.productId.name)
    const expected = [rare.name, ...picks.map((p) => p.name)]
    expect(names(merged.body.data)).toEqual(expected)
    expect(names((await get(asUser(who))).body.data)).toEqual(expected)
  })

  it('needs a signed-in user', async () => {
    expect((await t.call('cart/merge', { method: 'POST', json: { guestCartId: 'a'.repeat(43) } })).status).toBe(401)
  })
})

describe('a deleted product', () => {
  it('leaves every cart; the carts still load', async () => {
    const doomed = await insertProduct(t.db, { name: 'Discontinued Biscuit', price: 20, stock: 5 })
    const who = await createShopper(t)
    await add(doomed.id, asUser(who))
    await add(milk.id, asUser(who))
    const guest = await newGuest()
    await add(doomed.id, asGuest(guest))
    const del = await t.call('product/delete-product', { method: 'DELETE', json: { _id: doomed.id }, token: admin.token })
    expect(del.status).toBe(200)
    const cart = await get(asUser(who))
    expect(cart.status).toBe(200)
    expect(cart.body.data.map((l: { productId: { _id: string } }) => l.productId._id)).toEqual([milk.id])
    expect((await get(asGuest(guest))).body.data).toEqual([])
  })
})

describe('user details', () => {
  it('lists the cart line ids in shopping_cart', async () => {
    const who = await createShopper(t)
    const line = (await add(milk.id, asUser(who))).body.data
    const details = await t.call('user/user-details', { token: who.token })
    expect(details.body.data.shopping_cart).toEqual([line._id])
  })
})

describe('Prefer: return=minimal (RFC 7240)', () => {
  const minimal = { Prefer: 'return=minimal' }

  it('writes as without it, answers data null and says Preference-Applied', async () => {
    const guest = await newGuest()
    const added = await t.call('cart/create', {
      method: 'POST',
      json: { productId: milk.id },
      headers: { ...minimal, 'X-Guest-Cart': guest },
    })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ message: 'Item added to cart', success: true, data: null })
    expect(added.headers.get('preference-applied')).toBe('return=minimal')
    const again = await t.call('cart/create', {
      method: 'POST',
      json: { productId: milk.id },
      headers: { ...minimal, 'X-Guest-Cart': guest },
    })
    expect(again.body.data).toBeNull()
    const [line] = (await get(asGuest(guest))).body.data
    expect(line.quantity).toBe(2)

    const set = await t.call('cart/update-qty', {
      method: 'PUT',
      json: { _id: line._id, qty: 4 },
      headers: { ...minimal, 'X-Guest-Cart': guest },
    })
    expect(set.body).toMatchObject({ message: 'Cart updated', data: null })
    expect(set.headers.get('preference-applied')).toBe('return=minimal')
    expect((await get(asGuest(guest))).body.data[0].quantity).toBe(4)
  })

  it('keeps every refusal: over the cap, out of stock, another cart’s line, for a user too', async () => {
    const who = await createShopper(t)
    const auth = { token: who.token, headers: minimal }
    const first = await t.call('cart/create', { method: 'POST', json: { productId: rare.id }, ...auth })
    expect(first.body.data).toBeNull()
    await t.call('cart/create', { method: 'POST', json: { productId: rare.id }, ...auth })
    const third = await t.call('cart/create', { method: 'POST', json: { productId: rare.id }, ...auth })
    expect(third.status).toBe(409)
    expect(third.body.message).toBe('Only 2 left in stock')
    expect((await t.call('cart/create', { method: 'POST', json: { productId: gone.id }, ...auth })).body.message).toBe(OUT_OF_STOCK)
    const [line] = (await get(asUser(who))).body.data
    expect(line.quantity).toBe(2)
    const foreign = await t.call('cart/update-qty', {
      method: 'PUT',
      json: { _id: line._id, qty: 1 },
      token: other.token,
      headers: minimal,
    })
    expect(foreign.status).toBe(404)
    expect(foreign.headers.get('preference-applied')).toBeNull()
  })

  it('without it the original client still gets the line with its product', async () => {
    const who = await createShopper(t)
    const added = await add(bread.id, asUser(who))
    expect(added.body.data).toMatchObject({ quantity: 1, productId: { _id: bread.id, name: 'Brown Bread' } })
    expect(added.headers.get('preference-applied')).toBeNull()
  })
})

describe('one writer per cart', () => {
  // On PostgreSQL the calls run on different pooled connections at once; on PGlite they queue.
  it('concurrent adds of one product count every unit up to the per-line maximum, for a user and a guest', async () => {
    const who = await createShopper(t)
    const guest = await newGuest()
    expect((await add(bread.id, asGuest(guest))).status).toBe(200)
    for (const auth of [asUser(who), asGuest(guest)]) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => add(milk.id, auth)))
      expect(answers.filter((r) => r.status === 200)).toHaveLength(5)
      expect(answers.filter((r) => r.status === 409).map((r) => r.body.message)).toEqual(Array(3).fill(maxQtyMessage(5)))
      expect((await get(auth)).body.data.find((l: { productId: { _id: string } }) => l.productId._id === milk.id).quantity).toBe(5)
    }
  })

  it(`holds at most ${MAX_LINES_PER_CART} lines, also when two new products race for the last place`, async () => {
    const who = await createShopper(t)
    const many = await insertProducts(
      t.db,
      Array.from({ length: MAX_LINES_PER_CART + 1 }, (_, i) => ({ name: `Line filler ${i}`, price: 10, stock: 20 })),
    )
    expect((await add(many[0]!.id, asUser(who))).status).toBe(200)
    const [cart] = await queryRows<{ id: string }>(t.db, sql`select id from carts where user_id = ${who.user.id}`)
    // Lines 2 to 99 written directly; the race is for the 100th.
    for (const p of many.slice(1, MAX_LINES_PER_CART - 1)) {
      await t.db.execute(sql`insert into cart_lines (id, cart_id, product_id, quantity, unit_price_paise)
        values (${randomBytes(12).toString('hex')}, ${cart!.id}, ${p.id}, 1, 1000)`)
    }
    const racers = [many[MAX_LINES_PER_CART - 1]!, many[MAX_LINES_PER_CART]!]
    const answers = await Promise.all(racers.map((p) => add(p.id, asUser(who))))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409])
    expect(answers.find((r) => r.status === 409)!.body.message).toBe(CART_FULL)
    const lines = async () =>
      (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from cart_lines where cart_id = ${cart!.id}`))[0]!.n
    expect(await lines()).toBe(MAX_LINES_PER_CART)
    // Full: a product already in the cart still goes up; a new one is refused.
    expect((await add(many[0]!.id, asUser(who))).status).toBe(200)
    const refused = await add(milk.id, asUser(who))
    expect([refused.status, refused.body.message]).toEqual([409, CART_FULL])
    expect(await lines()).toBe(MAX_LINES_PER_CART)
  })

  it('a quantity change racing an add ends at one of the two orders’ results, never a lost write', async () => {
    const who = await createShopper(t)
    const line = (await add(milk.id, asUser(who))).body.data
    const [set] = await Promise.all([setQty(line._id, 3, asUser(who)), add(milk.id, asUser(who))])
    expect(set.status).toBe(200)
    // set then add: 4; add then set: 3.
    expect([3, 4]).toContain((await get(asUser(who))).body.data[0].quantity)
  })
})
