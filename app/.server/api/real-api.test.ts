/**
 * The BFF's typed calls (app/.server/api/*) against the REAL API: `createApp()` on a fresh database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL), reached in process the way server.ts wires it. Every
 * answer is parsed by the schemas of contract/ on the BFF side and checked against the same schemas on
 * the API side (api/testing/app.ts `checkAnswers`), so a change of contract/ on either side breaks
 * a test here (docs/api.md).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../../../api/testing/app.ts'
import { createAdmin, createShopper } from '../../../api/testing/auth.ts'
import { insertCategory, insertProduct, insertSubCategory, testPng } from '../../../api/testing/fixtures.ts'
import { inProcessWiring, apiFor } from '../api-context.ts'

const envBefore = { ...process.env }

let t: TestApp
let catalog: typeof import('./catalog.ts')
let admin: typeof import('./admin.ts')
let user: typeof import('./user.ts')
let cart: typeof import('./cart.ts')
let address: typeof import('./address.ts')
let order: typeof import('./order.ts')
let sitemap: typeof import('./sitemap.ts')
let sessionModule: typeof import('../session.ts')

beforeAll(async () => {
  t = await createTestApp()
  delete process.env.API_URL
  process.env.SESSION_SECRET = 'test-session-secret-0123456789abcdef'
  vi.resetModules()
  catalog = await import('./catalog.ts')
  admin = await import('./admin.ts')
  user = await import('./user.ts')
  cart = await import('./cart.ts')
  address = await import('./address.ts')
  order = await import('./order.ts')
  sitemap = await import('./sitemap.ts')
  sessionModule = await import('../session.ts')
})

afterAll(async () => {
  process.env = { ...envBefore }
  await t?.close()
})

// The in-process API, as server.ts wires it (app/.server/api-context.ts): calls never touch the network.
const api = apiFor(inProcessWiring(async (request) => t.app.fetch(request)))

/** A BFF session holding `token` (as after a sign-in), or an anonymous one. */
async function sessionWith(token?: string) {
  const s = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
  if (token) s.setTokens({ accessToken: token, refreshToken: 'not-used-here' })
  return s
}

describe('catalogue reads through the BFF', () => {
  let categoryId = ''
  let subCategoryId = ''
  let productId = ''

  beforeAll(async () => {
    const dairy = await insertCategory(t.db, { name: 'Dairy' })
    const milk = await insertSubCategory(t.db, { name: 'Milk', categoryIds: [dairy.id] })
    const product = await insertProduct(t.db, {
      name: 'Toned Milk',
      categoryIds: [dairy.id],
      subCategoryIds: [milk.id],
      price: 60,
      discount: 10,
      moreDetails: { Brand: 'Amul' },
    })
    categoryId = dairy.id
    subCategoryId = milk.id
    productId = product.id
  })

  it('lists categories and sub categories with their categories expanded', async () => {
    const categories = await catalog.listCategories(api)
    expect(categories).toEqual([expect.objectContaining({ _id: categoryId, name: 'Dairy' })])
    const subs = await catalog.listSubCategories(api)
    expect(subs).toEqual([
      expect.objectContaining({ _id: subCategoryId, category: [expect.objectContaining({ _id: categoryId, name: 'Dairy' })] }),
    ])
  })

  it('reads the home rows, a listing page, a search page and one product', async () => {
    const rows = await catalog.productsByCategoryGrouped(api, [categoryId, 'no-such-category'])
    expect(rows.map((r) => [r.categoryId, r.products.map((p) => p.name)])).toEqual([
      [categoryId, ['Toned Milk']],
      ['no-such-category', []],
    ])

    const listing = await catalog.productsByCategoryAndSubCategory(api, {
      categoryId,
      subCategoryId,
      page: 1,
      limit: 12,
      options: { facets: true },
    })
    expect(listing).toMatchObject({
      totalCount: 1,
      page: 1,
      limit: 12,
      products: [{ _id: productId, price: 60, sellingPrice: 54, discount: 10 }],
    })
    expect(listing.facets?.brand.length).toBeGreaterThanOrEqual(0)

    const found = await catalog.searchProducts(api, { search: 'milk', page: 1, limit: 10 })
    expect(found.products.map((p) => p._id)).toEqual([productId])
    expect(found.understood?.query).toBe('milk')

    const details = await catalog.productDetails(api, productId)
    expect(details).toMatchObject({ _id: productId, more_details: { Brand: 'Amul' }, category: [{ _id: categoryId, name: 'Dairy' }] })
    expect(await catalog.productDetails(api, 'no-such-product')).toBeNull()
  })

  it('reads the sitemap lists', async () => {
    const shelves = await sitemap.sitemapShelves(api)
    expect(shelves.categories.map((c) => c._id)).toContain(categoryId)
    const page = await sitemap.sitemapProducts(api, 1)
    expect(page.products.map((p) => p._id)).toContain(productId)
    expect(page.totalNoPage).toBe(1)
  })
})

describe('admin writes through the BFF', () => {
  it('uploads an image, creates, lists, updates and deletes a category, sub category and product', async () => {
    const { token } = await createAdmin(t)
    const s = await sessionWith(token)

    const png = await testPng({ seed: 41 })
    const uploaded = await admin.uploadImage(api, s, new File([new Uint8Array(png)], 'fruit.png', { type: 'image/png' }))
    expect(uploaded).toMatchObject({ ok: true, status: 201, data: { format: 'webp' } })
    const image = uploaded.ok ? uploaded.data.url : ''

    const category = await admin.addCategory(api, s, { name: 'Fruits', image }, { idempotencyKey: 'real-api-category-1' })
    expect(category).toMatchObject({ ok: true, status: 201, data: { name: 'Fruits', image } })
    const categoryId = category.ok ? category.data._id : ''

    const sub = await admin.createSubCategory(api, s, { name: 'Apples', image, category: [categoryId] })
    expect(sub).toMatchObject({ ok: true, data: { category: [{ _id: categoryId, name: 'Fruits', image }] } })
    const subId = sub.ok ? sub.data._id : ''

    const input = {
      name: 'Shimla Apple',
      description: 'Crisp and sweet',
      image: [image],
      category: [categoryId],
      subCategory: [subId],
      unit: '1 kg',
      stock: 20,
      // The admin form's prices: MRP and selling price (1.57 % off, no whole percent).
      price: 255,
      sellingPrice: 251,
      more_details: { Origin: 'Himachal' },
    }
    const created = await admin.createProduct(api, s, input, { idempotencyKey: 'real-api-product-1' })
    expect(created).toMatchObject({
      ok: true,
      status: 201,
      data: { name: 'Shimla Apple', price: 255, sellingPrice: 251, subCategory: [{ _id: subId }] },
    })
    const productId = created.ok ? created.data._id : ''

    const list = await admin.listProducts(api, s, { page: 1, limit: 12, search: 'apple' })
    expect(list).toMatchObject({ ok: true, data: { totalCount: 1, totalNoPage: 1, products: [{ _id: productId }] } })

    // The edit form saved with only the stock changed: the selling price stays to the paisa.
    const updated = await admin.updateProduct(api, s, { ...input, _id: productId, stock: 5 })
    expect(updated).toMatchObject({ ok: true, data: { stock: 5, price: 255, sellingPrice: 251 } })

    // A failure keeps the API's status and issues: a bad body is a 400 naming the field.
    const bad = await admin.createProduct(api, s, { ...input, name: '' })
    expect(bad).toMatchObject({ ok: false, status: 400, issues: [expect.objectContaining({ path: 'name' })] })
    // Deleting a category still in use is a 409 with the API's message.
    expect(await admin.deleteCategory(api, s, { _id: categoryId })).toMatchObject({ ok: false, status: 409 })

    expect(await admin.deleteProduct(api, s, { _id: productId })).toMatchObject({ ok: true })
    expect(await admin.deleteSubCategory(api, s, { _id: subId })).toMatchObject({ ok: true })
    expect(await admin.deleteCategory(api, s, { _id: categoryId })).toMatchObject({ ok: true })
  })

  it('a shopper is refused with 403 and an anonymous caller with 401', async () => {
    const { token } = await createShopper(t)
    expect(await admin.addCategory(api, await sessionWith(token), { name: 'X', image: '/uploads/x.webp' })).toMatchObject({
      ok: false,
      status: 403,
    })
    expect(await admin.addCategory(api, await sessionWith(), { name: 'X', image: '/uploads/x.webp' })).toMatchObject({
      ok: false,
      status: 401,
    })
  })
})

describe('accounts, cart, addresses and orders through the BFF', () => {
  it('registers, signs in, reads and updates the user', async () => {
    const email = `real-api-${process.pid}@example.com`
    const registered = await user.register(api, { name: 'Meera Iyer', email, password: 'secret-pass-1', confirmPassword: 'secret-pass-1' })
    expect(registered).toMatchObject({ ok: true, status: 201, data: { email, role: 'USER', mobile: null } })
    expect(
      await user.register(api, { name: 'Meera Iyer', email, password: 'secret-pass-1', confirmPassword: 'secret-pass-1' }),
    ).toMatchObject({
      ok: false,
      status: 409,
    })

    const login = await user.login(api, { email, password: 'secret-pass-1' })
    expect(login.ok).toBe(true)
    const s = await sessionWith(login.ok ? login.data.accessToken : '')
    const details = await user.userDetails(api, s)
    expect(details).toMatchObject({ ok: true, data: { email, address_details: [], shopping_cart: [], orderHistory: [] } })
    expect(details.ok && user.toSessionUser(details.data)).toMatchObject({ name: 'Meera Iyer', role: 'USER' })

    const changed = await user.updateUser(api, s, { name: 'Meera I', email, mobile: '9876543210' })
    expect(changed).toMatchObject({ ok: true, data: { name: 'Meera I', mobile: '9876543210' } })
  })

  it('fills a guest cart, saves an address and places, reads and cancels an order', async () => {
    const shelf = await insertCategory(t.db, { name: 'Bakery' })
    const bread = await insertProduct(t.db, { name: 'Brown Bread', categoryIds: [shelf.id], price: 50, stock: 10 })

    const guest = await sessionWith()
    expect(await cart.addToCart(api, guest, bread.id)).toMatchObject({ ok: true })
    const guestCart = await cart.getCart(api, guest)
    expect(guestCart).toMatchObject({ ok: true, data: { lines: [{ quantity: 1, productId: { _id: bread.id } }] } })
    expect(guestCart.ok && guestCart.data.bill.itemsTotal).toBe(50)

    const { token } = await createShopper(t)
    const s = await sessionWith(token)
    expect(await cart.addToCart(api, s, bread.id)).toMatchObject({ ok: true })
    const mine = await cart.getCart(api, s)
    expect(mine.ok && mine.data.limits.maxQtyPerLine).toBeGreaterThan(0)
    const lineId = mine.ok ? mine.data.lines[0]!._id : ''
    expect(await cart.updateCartQty(api, s, lineId, 2)).toMatchObject({ ok: true })

    const home = await address.createAddress(api, s, {
      address_line: '12 MG Road',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560008',
      country: 'India',
      mobile: '9876543210',
    })
    expect(home).toMatchObject({ ok: true, data: { city: 'Bengaluru', status: true } })
    const addressId = home.ok ? home.data._id : ''
    expect(await address.listAddresses(api, s)).toMatchObject({ ok: true, data: [{ _id: addressId }] })

    const placed = await order.placeCashOnDeliveryOrder(api, s, addressId, 'real-api-order-0001')
    expect(placed).toMatchObject({
      kind: 'placed',
      order: { status: 'placed', items: [{ quantity: 2 }], delivery_address: { city: 'Bengaluru' } },
    })
    const orderId = placed.kind === 'placed' ? placed.order.orderId : ''
    expect(await order.listOrders(api, s)).toMatchObject({ ok: true, data: [{ orderId }] })
    expect(await order.orderDetails(api, s, orderId)).toMatchObject({ ok: true, data: { orderId } })
    expect(await order.cancelOrder(api, s, orderId, 'Changed my mind')).toMatchObject({
      ok: true,
      data: { status: 'cancelled', cancelReason: 'Changed my mind' },
    })

    const { token: adminToken } = await createAdmin(t)
    const page = await order.adminListOrders(api, await sessionWith(adminToken), { page: 1, limit: 10 })
    expect(page).toMatchObject({ ok: true, data: { totalCount: 1, totalNoPage: 1, orders: [{ orderId, customer: expect.any(Object) }] } })
  })

  it('orders again: the lines back in the cart, what was cut with its reason; another shopper’s order is a 404', async () => {
    const { token } = await createShopper(t)
    const s = await sessionWith(token)
    const tea = await insertProduct(t.db, { name: 'Darjeeling Tea', unit: '250 g', stock: 10 })
    const sugar = await insertProduct(t.db, { name: 'Brown Sugar', unit: '1 kg', stock: 10 })
    expect(await cart.addToCart(api, s, tea.id)).toMatchObject({ ok: true })
    expect(await cart.addToCart(api, s, sugar.id)).toMatchObject({ ok: true })
    const mine = await cart.getCart(api, s)
    const sugarLine = mine.ok ? mine.data.lines[1]!._id : ''
    expect(await cart.updateCartQty(api, s, sugarLine, 4)).toMatchObject({ ok: true })
    const home = await address.createAddress(api, s, {
      address_line: '4 CMH Road',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560038',
      country: 'India',
      mobile: '9876543211',
    })
    const placed = await order.placeCashOnDeliveryOrder(api, s, home.ok ? home.data._id : '', 'real-api-reorder-0001')
    const orderId = placed.kind === 'placed' ? placed.order._id : ''
    await t.db.execute(sql`update inventory set stock = 2 where product_id = ${sugar.id}`)

    const again = await order.reorder(api, s, orderId)
    expect(again).toMatchObject({
      ok: true,
      message: 'Added 3 items to your cart',
      data: {
        added: 3,
        leftOut: [{ productId: sugar.id, name: 'Brown Sugar', ordered: 4, added: 2, reason: 'stock', message: 'only 2 added: stock' }],
      },
    })
    const after = await cart.getCart(api, s)
    expect(after.ok && after.data.lines.map((l) => [l.productId._id, l.quantity])).toEqual([
      [tea.id, 1],
      [sugar.id, 2],
    ])

    const { token: otherToken } = await createShopper(t)
    expect(await order.reorder(api, await sessionWith(otherToken), orderId)).toMatchObject({ ok: false, status: 404 })
  })
})
