/**
 * A product's own HSN code (docs/decisions/0042-invoice-and-credit-note-numbering.md, "HSN";
 * docs/product-csv.md) on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): an admin
 * sets it when creating or editing a product (4, 6 or 8 digits, else 400 on `hsn`), clears it with
 * null, exports it in the CSV's `hsn` column and sets or clears it by import; the invoice prints it.
 */
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { products } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertSubCategory, storeTestImage } from '../../testing/fixtures.ts'
import { createShopperWithAddress } from '../../testing/orders.ts'
import { CSV_COLUMNS } from '../product/csv.ts'

let t: TestApp
let admin: SignedIn
let body: Record<string, unknown>

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  const image = await storeTestImage(t)
  const drinks = await insertCategory(t.db, { name: 'Beverages', image })
  const juices = await insertSubCategory(t.db, { name: 'Juices', image, categoryIds: [drinks.id] })
  body = {
    name: 'Cola 750 ml',
    image: [image],
    category: [drinks.id],
    subCategory: [juices.id],
    unit: '750 ml',
    stock: '20',
    price: '40',
    discount: '0',
    description: 'Fizzy.',
  }
})
afterAll(() => t?.close())

const hsnOf = async (id: string) => (await t.db.select({ hsn: products.hsn }).from(products).where(eq(products.id, id)))[0]!.hsn

describe('product HSN code', () => {
  it('is set on create and edit, refused when not 4, 6 or 8 digits, cleared with null', async () => {
    const bad = await t.call('product/create', { method: 'POST', json: { ...body, hsn: '2202A' }, token: admin.token })
    expect(bad.status).toBe(400)
    expect(bad.body.issues).toEqual([expect.objectContaining({ path: 'hsn', message: expect.stringMatching(/4, 6 or 8 digits/) })])
    const made = await t.call('product/create', { method: 'POST', json: { ...body, hsn: ' 22021010 ' }, token: admin.token })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const id = made.body.data._id
    expect(made.body.data.hsn).toBe('22021010')
    const edited = await t.call('product/update-product-details', { method: 'PUT', json: { _id: id, hsn: '2202' }, token: admin.token })
    expect(edited.body.data.hsn).toBe('2202')
    const cleared = await t.call('product/update-product-details', { method: 'PUT', json: { _id: id, hsn: null }, token: admin.token })
    expect(cleared.status).toBe(200)
    expect(cleared.body.data.hsn).toBeUndefined()
    expect(await hsnOf(id)).toBeNull()
  })

  it('goes out in the CSV’s hsn column and comes back in by import; the invoice prints it', async () => {
    const made = await t.call('product/create', { method: 'POST', json: { ...body, name: 'Lemonade', hsn: '220210' }, token: admin.token })
    const id = made.body.data._id as string
    await t.db.update(products).set({ sku: 'HSN-1' }).where(eq(products.id, id))
    const exported = await t.app.request('/api/product/export', { headers: { Authorization: `Bearer ${admin.token}` } })
    const rows = parse(await exported.text()) as string[][]
    expect(rows[0]).toContain('hsn')
    const row = rows.find((r) => r[0] === 'HSN-1')!
    expect(row[CSV_COLUMNS.indexOf('hsn')]).toBe('220210')

    const importing = async (text: string) => {
      const form = new FormData()
      form.append('file', new File([text], 'products.csv', { type: 'text/csv' }))
      return t.call('product/import', { method: 'POST', body: form, token: admin.token })
    }
    const refused = await importing('sku,hsn\r\nHSN-1,22 02\r\n')
    expect(JSON.stringify(refused.body)).toMatch(/4, 6 or 8 digits/)
    const dry = await importing('sku,hsn\r\nHSN-1,0401\r\n')
    expect(dry.status, JSON.stringify(dry.body)).toBe(200)
    const applied = await t.call('product/import/apply', { method: 'POST', json: { upload: dry.body.data.upload }, token: admin.token })
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(await hsnOf(id)).toBe('0401')
    const cleared = await importing('sku,hsn\r\nHSN-1,\r\n')
    await t.call('product/import/apply', { method: 'POST', json: { upload: cleared.body.data.upload }, token: admin.token })
    expect(await hsnOf(id)).toBeNull()

    // On the invoice: the admin's code at its heading's rate (0401 milk, nil).
    await t.call('product/update-product-details', { method: 'PUT', json: { _id: id, hsn: '0401' }, token: admin.token })
    const { addressId, ...who } = await createShopperWithAddress(t)
    await t.call('cart/create', { method: 'POST', json: { productId: id }, token: who.token })
    const placed = await t.call('order/cash-on-delivery', { method: 'POST', json: { addressId }, token: who.token })
    expect(placed.status, JSON.stringify(placed.body)).toBe(201)
    const invoice = (await t.call('invoice/details', { method: 'POST', json: { orderId: placed.body.data._id }, token: who.token })).body
      .data
    expect(invoice.lines[0]).toMatchObject({ name: 'Lemonade', hsn: '0401', gstRate: 0 })
  })
})
