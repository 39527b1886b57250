/**
 * Admin orders at volume (docs/commerce-api.md, "Admin orders at volume"), on a fresh database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL): the admin list's search (order number exact and
 * prefix, phone, email, name), status, store, payment-state, late and IST-day filters and sorts; the CSV export (content, the
 * same filters, CSV-injection guard, admin only, keyset paging over page boundaries); and the bulk
 * status change (the allowed-moves rule per order, stock back on a cancellation, one outcome each).
 */
import { eq } from 'drizzle-orm'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, payments, products, refunds, stores } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, stockIn } from '../../testing/fixtures.ts'
import { exportOrderLinesCsv, exportOrdersCsv, LINE_EXPORT_COLUMNS, paiseToRupeesText } from './admin-export.ts'
import { guardCell } from '../../lib/csv-cells.ts'
import { escapeLike, istDayEnd, istDayStart } from './admin-filter.ts'

let t: TestApp
let admin: SignedIn
let productId: string
/** The orders placed, by the shopper's tag. */
const placed: Record<string, { _id: string; orderId: string; totalAmt: number }> = {}

const shoppers = [
  { tag: 'meera', name: 'Meera Iyer', email: 'meera.iyer@example.com', mobile: '9845012345', qty: 1, day: '2026-11-20T10:00:00+05:30' },
  { tag: 'ravi', name: 'Ravi Kumar', email: 'ravi.k@example.org', mobile: '9000011111', qty: 3, day: '2026-11-21T23:30:00+05:30' },
  // Just after midnight in India: still the 21st in UTC, the 22nd in IST.
  {
    tag: 'evil',
    name: '=HYPERLINK("http://x")',
    email: 'evil@example.com',
    mobile: '9123456789',
    qty: 2,
    day: '2026-11-22T00:10:00+05:30',
  },
]

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  productId = (await insertProduct(t.db, { name: 'Toor Dal', price: 200, sellingPrice: 150, stock: 100 })).id
  for (const s of shoppers) {
    const who = await createShopper(t, { name: s.name, email: s.email })
    const address = {
      address_line: s.tag === 'evil' ? '@SUM(1+1)' : '12, MG Road',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560008',
      mobile: s.mobile,
    }
    const addressId = (await t.call('address/create', { method: 'POST', json: address, token: who.token })).body.data._id
    for (let i = 0; i < s.qty; i++) await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })
    if (s.qty > 1) {
      const cart = await t.call('cart/get', { token: who.token })
      await t.call('cart/update-qty', { method: 'PUT', json: { _id: cart.body.data[0]._id, qty: s.qty }, token: who.token })
    }
    const res = await t.call('order/cash-on-delivery', {
      method: 'POST',
      json: { addressId },
      token: who.token,
      headers: { 'Idempotency-Key': `vol-${s.tag}-${process.pid}` },
    })
    expect(res.status).toBe(201)
    placed[s.tag] = res.body.data
    await t.db
      .update(orders)
      .set({ createdAt: new Date(s.day) })
      .where(eq(orders.id, res.body.data._id))
  }
})
afterAll(() => t?.close())

const list = (json: Record<string, unknown>, token = admin.token) =>
  t.call('order/admin-list', { method: 'POST', json: { limit: 50, ...json }, token })
const numbers = (res: { body: { data: { orderId: string }[] } }) => res.body.data.map((o) => o.orderId)

describe('the admin list', () => {
  it('finds an order by its number, exact or by prefix, in any case', async () => {
    const { orderId } = placed.ravi!
    expect(numbers(await list({ q: orderId }))).toEqual([orderId])
    expect(numbers(await list({ q: orderId.toLowerCase() }))).toEqual([orderId])
    expect(numbers(await list({ q: orderId.slice(0, 4) })).sort()).toEqual(
      Object.values(placed)
        .map((o) => o.orderId)
        .filter((n) => n.startsWith(orderId.slice(0, 4)))
        .sort(),
    )
  })

  it('finds the shopper by phone (with +91 and spaces too), email and name, case-insensitive', async () => {
    expect(numbers(await list({ q: '98450 12345' }))).toEqual([placed.meera!.orderId])
    expect(numbers(await list({ q: '+91 90000 11111' }))).toEqual([placed.ravi!.orderId])
    expect(numbers(await list({ q: 'RAVI.K@example' }))).toEqual([placed.ravi!.orderId])
    expect(numbers(await list({ q: 'iyer' }))).toEqual([placed.meera!.orderId])
    expect(numbers(await list({ q: 'nobody-like-this' }))).toEqual([])
    // Six digits are also the delivery PIN code, exactly (no phone here contains them).
    expect(numbers(await list({ q: '560008' })).sort()).toEqual(
      Object.values(placed)
        .map((o) => o.orderId)
        .sort(),
    )
    expect(numbers(await list({ q: '560009' }))).toEqual([])
    // LIKE's wildcards are text, not patterns.
    expect(numbers(await list({ q: '%' }))).toEqual([])
    expect(numbers(await list({ q: '___' }))).toEqual([])
  })

  it('normalises a phone: +91, 91, a trunk 0, spaces and dashes, whole or in part', async () => {
    for (const q of ['098450 12345', '+91 98450-12345', '919845012345', '+91 98450', '0984501'])
      expect(numbers(await list({ q })), q).toEqual([placed.meera!.orderId])
    expect(numbers(await list({ q: '+91' }))).toEqual([])
  })

  it("finds the delivery address's line, landmark or city, case-insensitive, from three characters", async () => {
    const [was] = await t.db.select({ address: orders.deliveryAddress }).from(orders).where(eq(orders.id, placed.ravi!._id))
    await t.db
      .update(orders)
      .set({
        deliveryAddress: { ...was!.address, address_line: '7, 4th Cross, Indiranagar', landmark: 'Near Ganesha Temple', city: 'Mysuru' },
      })
      .where(eq(orders.id, placed.ravi!._id))
    try {
      expect(numbers(await list({ q: 'ganesha TEMPLE' }))).toEqual([placed.ravi!.orderId])
      expect(numbers(await list({ q: 'indiranagar' }))).toEqual([placed.ravi!.orderId])
      expect(numbers(await list({ q: '4th cross' }))).toEqual([placed.ravi!.orderId])
      expect(numbers(await list({ q: 'MYSURU' }))).toEqual([placed.ravi!.orderId])
      expect(numbers(await list({ q: 'mg road' }))).toEqual([placed.meera!.orderId])
      expect(numbers(await list({ q: 'bengaluru', sort: 'oldest' }))).toEqual([placed.meera!.orderId, placed.evil!.orderId])
      // Two characters: names and emails by prefix only, never the address.
      expect(numbers(await list({ q: 'mg' }))).toEqual([])
      // With the other filters, and in the export alike.
      expect(numbers(await list({ q: 'bengaluru', status: 'placed', sort: 'oldest' }))).toEqual([
        placed.meera!.orderId,
        placed.evil!.orderId,
      ])
      const csv = parse((await exportCsv('?q=ganesha')).text) as string[][]
      expect(csv.slice(1).map((r) => r[0])).toEqual([placed.ravi!.orderId])
    } finally {
      await t.db.update(orders).set({ deliveryAddress: was!.address }).where(eq(orders.id, placed.ravi!._id))
    }
  })

  it('filters by status and by IST day (both ends included), and sorts', async () => {
    expect(numbers(await list({ from: '2026-11-22', to: '2026-11-22' }))).toEqual([placed.evil!.orderId])
    expect(numbers(await list({ from: '2026-11-21', to: '2026-11-21' }))).toEqual([placed.ravi!.orderId])
    expect(numbers(await list({ to: '2026-11-21', sort: 'oldest' }))).toEqual([placed.meera!.orderId, placed.ravi!.orderId])
    expect(numbers(await list({ sort: 'total_desc' }))).toEqual([placed.ravi!.orderId, placed.evil!.orderId, placed.meera!.orderId])
    expect(numbers(await list({ sort: 'total_asc', status: 'placed' }))).toEqual([
      placed.meera!.orderId,
      placed.evil!.orderId,
      placed.ravi!.orderId,
    ])
    expect(numbers(await list({ status: 'delivered' }))).toEqual([])
    const page = await list({ limit: 2, page: 2 })
    expect(page.body).toMatchObject({ totalCount: 3, totalNoPage: 2 })
    expect(numbers(page)).toEqual([placed.meera!.orderId])
  })

  it('filters by store, payment state, late delivery and open orders past their promise, in the list and the export alike', async () => {
    // One order moved to another store, one paid online, one delivered after its promise; put back after.
    const set = (tag: string, values: Partial<typeof orders.$inferInsert>) =>
      t.db.update(orders).set(values).where(eq(orders.id, placed[tag]!._id))
    const [was] = await t.db.select().from(orders).where(eq(orders.id, placed.meera!._id))
    await set('evil', { storeId: 'storeMumAndheriEast' })
    await set('ravi', { paymentState: 'paid' })
    await set('meera', {
      status: 'delivered',
      promisedAt: new Date('2026-11-20T10:10:00+05:30'),
      deliveredAt: new Date('2026-11-20T10:25:00+05:30'),
    })
    // Still open, its promise passed a minute ago: overdue (the late-orders view); evil's promise is ahead.
    const [raviWas] = await t.db.select().from(orders).where(eq(orders.id, placed.ravi!._id))
    await set('ravi', { promisedAt: new Date(Date.now() - 60_000) })
    try {
      const exported = async (query: string) =>
        (parse((await exportCsv(query)).text) as string[][])
          .slice(1)
          .map((r) => r[0])
          .sort()
      const cases: [Record<string, unknown>, string[]][] = [
        [{ store: 'storeMumAndheriEast' }, [placed.evil!.orderId]],
        [{ store: 'storeBlrIndiranagar' }, [placed.meera!.orderId, placed.ravi!.orderId]],
        [{ payment: 'paid' }, [placed.ravi!.orderId]],
        [{ payment: 'cod' }, [placed.meera!.orderId, placed.evil!.orderId]],
        [{ payment: 'refunded' }, []],
        [{ store: 'noSuchStore' }, []],
        [{ late: true }, [placed.meera!.orderId]],
        [{ overdue: true }, [placed.ravi!.orderId]],
        [{ overdue: true, store: 'storeMumAndheriEast' }, []],
        [{ store: 'storeBlrIndiranagar', payment: 'cod' }, [placed.meera!.orderId]],
      ]
      for (const [filter, expected] of cases) {
        expect(numbers(await list(filter)).sort(), JSON.stringify(filter)).toEqual([...expected].sort())
        const query = new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)]))
        expect(await exported(`?${query}`), query.toString()).toEqual([...expected].sort())
      }
      for (const [json, path] of [
        [{ payment: 'free' }, 'payment'],
        [{ store: 'x'.repeat(65) }, 'store'],
      ] as const) {
        const res = await list(json)
        expect(res.status, JSON.stringify(json)).toBe(400)
        expect(res.body.issues[0].path).toBe(path)
      }
    } finally {
      await set('evil', { storeId: was!.storeId })
      await set('ravi', { paymentState: 'cod', promisedAt: raviWas!.promisedAt })
      await set('meera', { status: was!.status, promisedAt: was!.promisedAt, deliveredAt: null })
    }
  })

  it('refuses bad filters with a 400 naming the field, never a 500', async () => {
    for (const [json, path] of [
      [{ from: '2026-02-30' }, 'from'],
      [{ to: '26-11-2026' }, 'to'],
      [{ from: '2026-11-22', to: '2026-11-21' }, 'to'],
      [{ sort: 'price' }, 'sort'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ status: 'lost' }, 'status'],
    ] as const) {
      const res = await list(json)
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(res.body.issues[0].path).toBe(path)
    }
  })

  it('is for admins only', async () => {
    const shopper = await createShopper(t)
    expect((await list({}, shopper.token)).status).toBe(403)
  })
})

async function exportCsv(query: string, token = admin.token) {
  const res = await t.app.request(`/api/order/admin/export${query}`, { headers: { Authorization: `Bearer ${token}` } })
  return { res, text: await res.text() }
}

describe('the CSV export', () => {
  it('streams text/csv as an attachment: a header row, one row per order in the sort, amounts in rupees, IST times', async () => {
    const { res, text } = await exportCsv('?sort=oldest')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/)
    const rows = parse(text) as string[][]
    expect(rows[0]![0]).toBe('Order number')
    expect(rows.slice(1).map((r) => r[0])).toEqual([placed.meera!.orderId, placed.ravi!.orderId, placed.evil!.orderId])
    const header = rows[0]!
    const meera = Object.fromEntries(header.map((h, i) => [h, rows[1]![i]]))
    expect(meera).toMatchObject({
      'Placed at (IST)': '2026-11-20 10:00',
      Status: 'placed',
      Customer: 'Meera Iyer',
      Email: 'meera.iyer@example.com',
      Phone: '9845012345',
      Items: '1',
      'Items total (₹)': '150.00',
      'Grand total (₹)': paiseToRupeesText(Math.round(placed.meera!.totalAmt * 100)),
    })
    const ravi = Object.fromEntries(header.map((h, i) => [h, rows[2]![i]]))
    expect(ravi).toMatchObject({ Items: '3', 'Items total (₹)': '450.00' })
  })

  it("names each order's store and payment state, and sums only the refunds paid out", async () => {
    const [order] = await t.db.select().from(orders).where(eq(orders.id, placed.meera!._id))
    const [store] = await t.db.select().from(stores).where(eq(stores.id, order!.storeId))
    const [payment] = await t.db
      .insert(payments)
      .values({
        orderId: order!.id,
        provider: 'test',
        providerOrderId: 'export-test',
        method: 'upi',
        amountPaise: 15000,
        status: 'captured',
      })
      .returning()
    await t.db.insert(refunds).values([
      { orderId: order!.id, paymentId: payment!.id, amountPaise: 4050, status: 'processed', reason: 'line_refund' },
      { orderId: order!.id, paymentId: payment!.id, amountPaise: 1000, status: 'pending', reason: 'line_refund' },
    ])
    await t.db.update(orders).set({ paymentState: 'partially_refunded' }).where(eq(orders.id, order!.id))
    try {
      const { text } = await exportCsv(`?q=${placed.meera!.orderId}`)
      const [header, row] = parse(text) as string[][]
      const meera = Object.fromEntries(header!.map((h, i) => [h, row![i]]))
      expect(meera).toMatchObject({ Store: store!.name, 'Payment state': 'Partly refunded', 'Refunded (₹)': '40.50' })
    } finally {
      await t.db.delete(refunds).where(eq(refunds.orderId, order!.id))
      await t.db.delete(payments).where(eq(payments.orderId, order!.id))
      await t.db.update(orders).set({ paymentState: order!.paymentState }).where(eq(orders.id, order!.id))
    }
    const { text } = await exportCsv(`?q=${placed.ravi!.orderId}`)
    const [header, row] = parse(text) as string[][]
    expect(Object.fromEntries(header!.map((h, i) => [h, row![i]]))).toMatchObject({
      'Payment state': 'Cash on delivery',
      'Refunded (₹)': '0.00',
    })
  })

  it('guards cells a spreadsheet would run as formulas (OWASP "CSV Injection")', async () => {
    const { text } = await exportCsv(`?q=${placed.evil!.orderId}`)
    const rows = parse(text) as string[][]
    expect(rows).toHaveLength(2)
    const evil = Object.fromEntries(rows[0]!.map((h, i) => [h, rows[1]![i]]))
    expect(evil.Customer).toBe(`'=HYPERLINK("http://x")`)
    expect(evil.Address).toBe(`'@SUM(1+1)`)
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`)
    for (const cell of ['=1', '+1', '-1', '@x', '\tx', '\rx']) expect(guardCell(cell)).toBe(`'${cell}`)
    expect(guardCell('Asha')).toBe('Asha')
  })

  it('starts with a UTF-8 byte order mark, so Excel reads ₹ as ₹', async () => {
    const bytes = new Uint8Array(await new Response(exportOrdersCsv(t.deps, { q: undefined, sort: 'newest' })).arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.slice(3, 40))).toMatch(/^Order number,/)
  })

  it("the lines export: one row per order line in the list's sort, as billed, with the store and refunds paid out", async () => {
    const res = await t.app.request('/api/order/admin/export/lines?sort=oldest', { headers: { Authorization: `Bearer ${admin.token}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="order-lines-\d{4}-\d{2}-\d{2}\.csv"$/)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const rows = parse(new TextDecoder().decode(bytes)) as string[][]
    expect(rows[0]).toEqual([...LINE_EXPORT_COLUMNS])
    const [product] = await t.db.select().from(products).where(eq(products.id, productId))
    const [order] = await t.db.select().from(orders).where(eq(orders.id, placed.ravi!._id))
    const [store] = await t.db.select().from(stores).where(eq(stores.id, order!.storeId))
    const records = rows.slice(1).map((r) => Object.fromEntries(rows[0]!.map((h, i) => [h, r[i]])))
    expect(records.map((r) => r['Order number'])).toEqual([placed.meera!.orderId, placed.ravi!.orderId, placed.evil!.orderId])
    expect(records[1]).toMatchObject({
      Store: store!.name,
      Line: '1',
      SKU: product!.sku ?? '',
      Product: 'Toor Dal',
      Quantity: '3',
      'MRP (₹)': '200.00',
      'Selling price (₹)': '150.00',
      'Line total (₹)': '450.00',
      'Refunded (₹)': '0.00',
    })
    // Paged one order at a time, no line is lost or repeated.
    const paged = await new Response(exportOrderLinesCsv(t.deps, { q: undefined, sort: 'oldest' }, 1)).text()
    expect((parse(paged) as string[][]).slice(1).map((r) => r[0])).toEqual(records.map((r) => r['Order number']))
    // The same filters, the same refusals.
    const refused = await t.app.request('/api/order/admin/export/lines?sort=nope', { headers: { Authorization: `Bearer ${admin.token}` } })
    expect(refused.status).toBe(400)
    const shopper = await createShopper(t)
    const forbidden = await t.app.request('/api/order/admin/export/lines', { headers: { Authorization: `Bearer ${shopper.token}` } })
    expect(forbidden.status).toBe(403)
  })

  it('takes the list filters, refuses bad ones with a 400, and is for admins only', async () => {
    const { text } = await exportCsv('?from=2026-11-21&to=2026-11-21')
    expect((parse(text) as string[][]).slice(1).map((r) => r[0])).toEqual([placed.ravi!.orderId])
    expect((await exportCsv('?from=2026-13-01')).res.status).toBe(400)
    expect((await exportCsv('?sort=nope')).res.status).toBe(400)
    const shopper = await createShopper(t)
    expect((await exportCsv('', shopper.token)).res.status).toBe(403)
    expect((await t.app.request('/api/order/admin/export')).status).toBe(401)
  })

  it('pages by keyset without losing or repeating a row across page boundaries, in every sort', async () => {
    for (const sort of ['newest', 'oldest', 'total_desc', 'total_asc'] as const) {
      const stream = exportOrdersCsv(t.deps, { q: undefined, sort }, 1)
      const text = await new Response(stream).text()
      const got = (parse(text) as string[][]).slice(1).map((r) => r[0])
      const expected = numbers(await list({ sort }))
      expect(got, sort).toEqual(expected)
    }
  })
})

describe('the bulk status change', () => {
  it('moves each order by the allowed-moves rule and reports each outcome; a cancellation keeps its reason and returns the stock', async () => {
    const { meera, ravi } = placed
    await t.call('order/update-status', { method: 'PUT', json: { orderId: ravi!._id, status: 'packed' }, token: admin.token })
    await t.call('order/update-status', { method: 'PUT', json: { orderId: ravi!._id, status: 'out_for_delivery' }, token: admin.token })
    const before = { stock: await stockIn(t.db, productId) }
    const res = await t.call('order/bulk-status', {
      method: 'POST',
      json: { orderIds: [meera!._id, ravi!._id, 'nosuchorder'], status: 'cancelled', reason: 'Rain: no riders' },
      token: admin.token,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ moved: 1, refused: 2 })
    expect(res.body.data).toEqual([
      { orderId: meera!._id, orderNumber: meera!.orderId, ok: true, status: 'cancelled', message: 'Marked cancelled' },
      {
        orderId: ravi!._id,
        orderNumber: ravi!.orderId,
        ok: false,
        status: null,
        message: 'Cannot change an order from out for delivery to cancelled',
      },
      { orderId: 'nosuchorder', orderNumber: null, ok: false, status: null, message: 'Order not found' },
    ])
    expect(await stockIn(t.db, productId)).toBe(before.stock + 1)
    const details = await t.call('order/details', { method: 'POST', json: { orderId: meera!._id }, token: admin.token })
    expect(details.body.data).toMatchObject({ status: 'cancelled', cancelReason: 'Rain: no riders' })
  })

  it('refuses an empty or oversized selection and a shopper', async () => {
    const bulk = (json: unknown, token = admin.token) => t.call('order/bulk-status', { method: 'POST', json, token })
    expect((await bulk({ orderIds: [], status: 'packed' })).status).toBe(400)
    expect((await bulk({ orderIds: Array.from({ length: 101 }, (_, i) => `id${i}`), status: 'packed' })).status).toBe(400)
    expect((await bulk({ orderIds: ['a'], status: 'lost' })).status).toBe(400)
    const shopper = await createShopper(t)
    expect((await bulk({ orderIds: [placed.evil!._id], status: 'packed' }, shopper.token)).status).toBe(403)
    const [row] = await t.db.select().from(orders).where(eq(orders.id, placed.evil!._id))
    expect(row!.status).toBe('placed')
  })
})

describe('the filter helpers', () => {
  it('turn IST days into UTC instants and escape LIKE wildcards', () => {
    expect(istDayStart('2026-11-22')).toBe('2026-11-21T18:30:00.000Z')
    expect(istDayEnd('2026-11-22')).toBe('2026-11-22T18:30:00.000Z')
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b')
  })
})
