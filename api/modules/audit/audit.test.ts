/**
 * Staff and the audit trail (docs/product.md, "Roles and permissions" and "Audit trail"), on a fresh
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 *
 * - STAFF moves orders (one, in bulk, cancel), reads the desk and sets stock; refused (403) the
 *   catalogue, prices, store settings and the audit trail (api/authz.test.ts covers every catalogue write).
 * - each kind of change (order status, stock, product edits, bulk edits, CSV imports, categories,
 *   sub categories, stores, roles) leaves one entry per row changed, with who, what, and the changed
 *   fields before and after; a refused or failed change leaves none, and an entry that cannot be
 *   written undoes its change (same transaction; every catalogue and store write: api/authz.test.ts).
 * - GET /api/audit/list filters by actor, entity, action and IST dates, pages, and refuses bad filters.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertProduct, SEEDED_DEFAULT_STORE, stockIn, storeTestImage } from '../../testing/fixtures.ts'
import { grantRole } from '../user/admin-accounts.ts'
import { placeTestOrder } from '../../testing/orders.ts'
import { AUDIT_PAGE_SIZE } from '../../../contract/audit.ts'

let t: TestApp
let admin: SignedIn
let staff: SignedIn

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t, { email: 'asha.admin@example.com' })
  staff = await createStaff(t, { email: 'ravi.staff@example.com' })
})
afterAll(() => t?.close())

interface Entry {
  actor_id: string | null
  actor_email: string | null
  action: string
  entity: string
  entity_id: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

/** The entries about one row, oldest first. */
const entriesOf = (entityId: string) =>
  queryRows<Entry>(
    t.db,
    sql`select actor_id, actor_email, action, entity, entity_id, before, after from audit_log where entity_id = ${entityId} order by at, id`,
  )
const auditCount = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from audit_log`))[0]!.n

/** A shopper's placed order of one product. */
const placeOrder = async () => (await placeTestOrder(t)).order

describe('a STAFF member', () => {
  it('moves orders one at a time and in bulk, cancels one, and reads the desk; each move is an entry by them', async () => {
    const one = await placeOrder()
    const moved = await t.call('order/update-status', { method: 'PUT', json: { orderId: one._id, status: 'packed' }, token: staff.token })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(await entriesOf(one._id)).toEqual([
      {
        actor_id: staff.user.id,
        actor_email: 'ravi.staff@example.com',
        action: 'status',
        entity: 'order',
        entity_id: one._id,
        before: { status: 'placed' },
        after: { status: 'packed' },
      },
    ])

    const [a, b] = [await placeOrder(), await placeOrder()]
    const bulk = await t.call('order/bulk-status', {
      method: 'POST',
      json: { orderIds: [a._id, b._id], status: 'packed' },
      token: staff.token,
    })
    expect(bulk.body).toMatchObject({ moved: 2, refused: 0 })
    for (const id of [a._id, b._id])
      expect((await entriesOf(id)).map((e) => [e.action, e.after])).toEqual([['status', { status: 'packed' }]])

    const cancel = await t.call('order/update-status', {
      method: 'PUT',
      json: { orderId: a._id, status: 'cancelled', reason: 'Customer asked' },
      token: staff.token,
    })
    expect(cancel.status).toBe(200)
    expect((await entriesOf(a._id)).at(-1)).toMatchObject({
      action: 'cancel',
      before: { status: 'packed' },
      after: { status: 'cancelled', reason: 'Customer asked' },
    })

    expect((await t.call('order/admin-list', { method: 'POST', json: {}, token: staff.token })).status).toBe(200)
    expect((await t.call('order/details', { method: 'POST', json: { orderId: b._id }, token: staff.token })).status).toBe(200)
    expect((await t.call('store/list', { token: staff.token })).status).toBe(200)
  })

  it('sets a store stock (an entry with the stock before and after) and reads it', async () => {
    const product = await insertProduct(t.db, { name: 'Staff Stocked', stock: 3 })
    const res = await t.call('inventory/update', {
      method: 'PUT',
      json: { rows: [{ storeId: SEEDED_DEFAULT_STORE, productId: product.id, stock: 9 }] },
      token: staff.token,
    })
    expect(res.status).toBe(200)
    expect(await entriesOf(`${SEEDED_DEFAULT_STORE}/${product.id}`)).toEqual([
      expect.objectContaining({ actor_id: staff.user.id, action: 'stock', entity: 'inventory', before: { stock: 3 }, after: { stock: 9 } }),
    ])
    const list = await t.call('inventory/list', {
      method: 'POST',
      json: { storeId: SEEDED_DEFAULT_STORE, search: 'Staff Stocked' },
      token: staff.token,
    })
    expect(list.status).toBe(200)
  })

  it('is refused the catalogue, prices, store settings and the audit trail (403), writing nothing', async () => {
    const product = await insertProduct(t.db, { name: 'Staff Cannot Price', price: 100 })
    const before = await auditCount()
    const refused: [string, string, unknown][] = [
      ['category/add-category', 'POST', { name: 'Staff Category', image: await storeTestImage(t) }],
      ['product/update-product-details', 'PUT', { _id: product.id, price: 90 }],
      ['product/bulk-update', 'POST', { items: [{ _id: product.id, price: 90 }] }],
      ['store/update', 'PUT', { _id: SEEDED_DEFAULT_STORE, pickers: 9 }],
      ['store/create', 'POST', { name: 'Domlur', area: 'Domlur', city: 'Bengaluru', addressLine: '1, Domlur Layout', pincode: '560071' }],
    ]
    for (const [path, method, json] of refused) {
      const res = await t.call(path, { method, json, token: staff.token })
      expect(res.status, path).toBe(403)
    }
    expect((await t.call('audit/list', { token: staff.token })).status).toBe(403)
    expect(await auditCount()).toBe(before)
  })
})

describe('the audit entries of admin changes', () => {
  it('record a price change with the changed fields only, before and after', async () => {
    const product = await insertProduct(t.db, { name: 'Basmati Rice', price: 200, sellingPrice: 180, stock: 5 })
    const res = await t.call('product/update-product-details', {
      method: 'PUT',
      json: { _id: product.id, sellingPrice: 170 },
      token: admin.token,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [entry, ...more] = await entriesOf(product.id)
    expect(more).toEqual([])
    expect(entry).toMatchObject({ actor_email: 'asha.admin@example.com', action: 'update', entity: 'product' })
    expect(entry!.before).toEqual({ sellingPrice: 180, discount: 10 })
    expect(entry!.after).toEqual({ sellingPrice: 170, discount: 15 })
  })

  it('record a bulk edit per product and a category create, rename and delete', async () => {
    const [p1, p2] = [
      await insertProduct(t.db, { name: 'Bulk One', price: 50, stock: 2 }),
      await insertProduct(t.db, { name: 'Bulk Two', price: 60 }),
    ]
    const bulk = await t.call('product/bulk-update', {
      method: 'POST',
      json: {
        items: [
          { _id: p1.id, stock: 7 },
          { _id: p2.id, price: 65 },
        ],
      },
      token: admin.token,
    })
    expect(bulk.status).toBe(200)
    expect((await entriesOf(p1.id)).map((e) => [e.action, e.before, e.after])).toEqual([['bulk_update', { stock: 2 }, { stock: 7 }]])
    // A new MRP alone keeps the selling price (api/modules/product/bulk.ts), so the discount moves.
    expect((await entriesOf(p2.id)).map((e) => [e.action, e.before, e.after])).toEqual([
      ['bulk_update', { price: 60, discount: 0 }, { price: 65, discount: 7.69 }],
    ])

    const image = await storeTestImage(t)
    const added = await t.call('category/add-category', { method: 'POST', json: { name: 'Audit Snacks', image }, token: admin.token })
    const id = added.body.data._id
    await t.call('category/update', { method: 'PUT', json: { _id: id, name: 'Audit Namkeen', image }, token: admin.token })
    await t.call('category/delete', { method: 'DELETE', json: { _id: id }, token: admin.token })
    expect((await entriesOf(id)).map((e) => [e.action, e.before, e.after])).toEqual([
      ['create', null, { name: 'Audit Snacks', image }],
      ['update', { name: 'Audit Snacks' }, { name: 'Audit Namkeen' }],
      ['delete', { name: 'Audit Namkeen', image }, null],
    ])
  })

  it('record a store setting change and a role granted from the command line', async () => {
    const res = await t.call('store/update', {
      method: 'PUT',
      json: { _id: 'storeMumAndheriEast', pickers: 6, radiusKm: 4 },
      token: admin.token,
    })
    expect(res.status).toBe(200)
    expect((await entriesOf('storeMumAndheriEast')).at(-1)).toMatchObject({
      action: 'update',
      entity: 'store',
      before: { pickers: 4, radiusKm: 3 },
      after: { pickers: 6, radiusKm: 4 },
    })

    const shopper = await createShopper(t)
    expect(await grantRole(t.db, { email: shopper.user.email!, role: 'STAFF' })).toMatchObject({ action: 'granted', previousRole: 'USER' })
    expect(await entriesOf(shopper.user.id)).toEqual([
      {
        actor_id: null,
        actor_email: null,
        action: 'role',
        entity: 'user',
        entity_id: shopper.user.id,
        before: { role: 'USER' },
        after: { role: 'STAFF' },
      },
    ])
    expect((await grantRole(t.db, { email: shopper.user.email!, role: 'STAFF' })).action).toBe('unchanged')
    expect(await entriesOf(shopper.user.id)).toHaveLength(1)
  })

  it('record a store added, then deactivated, with its fields before and after', async () => {
    const store = { name: 'Domlur', area: 'Domlur', city: 'Bengaluru', addressLine: '1, Domlur Layout', pincode: '560071' }
    const added = await t.call('store/create', { method: 'POST', json: store, token: admin.token })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const id = added.body.data._id
    const off = await t.call('store/update', { method: 'PUT', json: { _id: id, active: false }, token: admin.token })
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    const [create, deactivate, ...more] = await entriesOf(id)
    expect(more).toEqual([])
    expect(create).toMatchObject({
      actor_id: admin.user.id,
      action: 'create',
      entity: 'store',
      before: null,
      after: { ...store, active: true },
    })
    expect(deactivate).toMatchObject({ action: 'update', entity: 'store', before: { active: true }, after: { active: false } })
  })

  it('record a sub category added, renamed and deleted, and a product added and deleted', async () => {
    const image = await storeTestImage(t)
    const category = await insertCategory(t.db, { name: 'Audit Shelf', image })
    const sub = await t.call('subcategory/create', {
      method: 'POST',
      json: { name: 'Audit Chips', image, category: [{ _id: category.id, name: category.name }] },
      token: admin.token,
    })
    expect(sub.status, JSON.stringify(sub.body)).toBe(201)
    const subId = sub.body.data._id
    await t.call('subcategory/update', {
      method: 'PUT',
      json: { _id: subId, name: 'Audit Nachos', image, category: [category.id] },
      token: admin.token,
    })
    const product = await t.call('product/create', {
      method: 'POST',
      json: {
        name: 'Audit Nachos Salted',
        image: [image],
        category: [category.id],
        subCategory: [subId],
        unit: '150 g',
        stock: '12',
        price: '60',
        discount: '0',
        description: 'Crisp.',
        more_details: {},
      },
      token: admin.token,
    })
    expect(product.status, JSON.stringify(product.body)).toBe(201)
    const productId = product.body.data._id
    expect((await t.call('product/delete-product', { method: 'DELETE', json: { _id: productId }, token: admin.token })).status).toBe(200)
    expect((await t.call('subcategory/delete', { method: 'DELETE', json: { _id: subId }, token: admin.token })).status).toBe(200)

    expect((await entriesOf(subId)).map((e) => [e.action, e.before && e.before.name, e.after])).toEqual([
      ['create', null, { name: 'Audit Chips', image, category: [category.id] }],
      ['update', 'Audit Chips', { name: 'Audit Nachos' }],
      ['delete', 'Audit Nachos', null],
    ])
    const [created, deleted, ...more] = await entriesOf(productId)
    expect(more).toEqual([])
    expect(created).toMatchObject({
      action: 'create',
      before: null,
      after: { name: 'Audit Nachos Salted', price: 60, sellingPrice: 60, stock: 12, subCategory: [subId] },
    })
    expect(deleted).toMatchObject({ action: 'delete', before: { name: 'Audit Nachos Salted', stock: 12 }, after: null })
  })

  it('record a CSV import per product it creates or changes (changed fields only), none for an unchanged row', async () => {
    const image = await storeTestImage(t)
    const category = await insertCategory(t.db, { name: 'Audit Import Shelf', image })
    const csv = (rows: string[]) => {
      const form = new FormData()
      const text = ['sku,name,unit,mrp,selling_price,stock,categories,images,description', ...rows].join('\r\n')
      form.append('file', new File([text], 'products.csv', { type: 'text/csv' }))
      return form
    }
    const importRows = async (rows: string[]) => {
      const checked = await t.call('product/import', { method: 'POST', body: csv(rows), token: admin.token })
      expect(checked.body.data?.errors, JSON.stringify(checked.body)).toEqual([])
      const applied = await t.call('product/import/apply', {
        method: 'POST',
        json: { upload: checked.body.data.upload },
        token: admin.token,
      })
      expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    }
    const row = (sku: string, mrp: number, stock: number) =>
      `${sku},Imported ${sku},1 kg,${mrp},${mrp},${stock},${category.name},${image},Plain.`
    await importRows([row('AUD-1', 100, 5), row('AUD-2', 50, 2)])
    await importRows([row('AUD-1', 110, 5), row('AUD-2', 50, 2)])
    const idOf = async (sku: string) => (await queryRows<{ id: string }>(t.db, sql`select id from products where sku = ${sku}`))[0]!.id
    expect((await entriesOf(await idOf('AUD-1'))).map((e) => [e.actor_id, e.action, e.before, e.after && e.after.price])).toEqual([
      [admin.user.id, 'import', null, 100],
      [admin.user.id, 'import', { price: 100, sellingPrice: 100 }, 110],
    ])
    expect((await entriesOf(await idOf('AUD-1')))[1]!.after).toEqual({ price: 110, sellingPrice: 110 })
    expect((await entriesOf(await idOf('AUD-2'))).map((e) => e.action)).toEqual(['import'])
  })

  it('leave no entry for a refused change (a taken name, a price above the MRP, an order that may not move)', async () => {
    const taken = await insertCategory(t.db, { name: 'Taken Name', image: await storeTestImage(t) })
    const other = await insertCategory(t.db, { name: 'Other Name', image: await storeTestImage(t) })
    const product = await insertProduct(t.db, { name: 'Not Above MRP', price: 100 })
    const order = await placeOrder()
    const before = await auditCount()
    const refusals = [
      await t.call('category/update', { method: 'PUT', json: { _id: other.id, name: taken.name, image: other.image }, token: admin.token }),
      await t.call('product/bulk-update', {
        method: 'POST',
        json: { items: [{ _id: product.id, sellingPrice: 120 }] },
        token: admin.token,
      }),
      await t.call('order/update-status', { method: 'PUT', json: { orderId: order._id, status: 'delivered' }, token: admin.token }),
      await t.call('store/update', { method: 'PUT', json: { _id: SEEDED_DEFAULT_STORE, version: 999, pickers: 2 }, token: admin.token }),
    ]
    expect(refusals.map((r) => r.status)).toEqual([409, 400, 409, 409])
    expect(await auditCount()).toBe(before)
  })

  it('are written in the change transaction: when the entry cannot be written, the change is undone', async () => {
    const product = await insertProduct(t.db, { name: 'Atomic Stock', stock: 4 })
    const order = await placeOrder()
    await t.db.execute(sql`alter table audit_log rename to audit_log_away`)
    try {
      const res = await t.call('inventory/update', {
        method: 'PUT',
        json: { rows: [{ storeId: SEEDED_DEFAULT_STORE, productId: product.id, stock: 40 }] },
        token: admin.token,
      })
      expect(res.status).toBeGreaterThanOrEqual(500)
      const moved = await t.call('order/update-status', {
        method: 'PUT',
        json: { orderId: order._id, status: 'packed' },
        token: staff.token,
      })
      expect(moved.status).toBeGreaterThanOrEqual(500)
      const bulk = await t.call('order/bulk-status', {
        method: 'POST',
        json: { orderIds: [order._id], status: 'cancelled' },
        token: staff.token,
      })
      expect(bulk.status).toBeGreaterThanOrEqual(500)
    } finally {
      await t.db.execute(sql`alter table audit_log_away rename to audit_log`)
    }
    expect(await stockIn(t.db, product.id)).toBe(4)
    const details = await t.call('order/details', { method: 'POST', json: { orderId: order._id }, token: admin.token })
    expect(details.body.data).toMatchObject({ status: 'placed', version: order.version })
  })
})

describe('GET /api/audit/list', () => {
  it('filters by actor, entity, action and IST dates, newest first, and pages', async () => {
    const list = (query: string) => t.call(`audit/list?${query}`, { token: admin.token })
    const byStaff = await list('actor=RAVI.STAFF')
    expect(byStaff.status).toBe(200)
    expect(byStaff.body.data.length).toBeGreaterThan(0)
    expect(byStaff.body.data.every((e: { actor: string }) => e.actor === 'ravi.staff@example.com')).toBe(true)

    const cancels = await list('entity=order&action=cancel')
    expect(cancels.body.data.map((e: { action: string; entity: string }) => `${e.entity}:${e.action}`)).toEqual(['order:cancel'])

    const all = await list('')
    const times = all.body.data.map((e: { at: string }) => e.at)
    expect([...times].sort().reverse()).toEqual(times)
    expect(all.body).toMatchObject({ page: 1, totalCount: expect.any(Number) })

    const today = new Date(Date.now() + 5.5 * 3600 * 1000).toISOString().slice(0, 10)
    expect((await list(`from=${today}&to=${today}`)).body.totalCount).toBe(all.body.totalCount)
    expect((await list('from=2020-01-01&to=2020-01-31')).body.totalCount).toBe(0)

    // Enough entries for a second page, then the second page starts where the first ended.
    const rows = Array.from({ length: AUDIT_PAGE_SIZE }, () => ({ storeId: SEEDED_DEFAULT_STORE, productId: '', stock: 0 }))
    const products = await Promise.all(rows.map((_, i) => insertProduct(t.db, { name: `Paged ${i}`, stock: 1 })))
    products.forEach((p, i) => (rows[i]!.productId = p.id))
    expect((await t.call('inventory/update', { method: 'PUT', json: { rows }, token: admin.token })).status).toBe(200)
    const first = await list('entity=inventory')
    const second = await list('entity=inventory&page=2')
    expect(first.body.data).toHaveLength(AUDIT_PAGE_SIZE)
    expect(second.body.totalNoPage).toBe(Math.ceil(first.body.totalCount / AUDIT_PAGE_SIZE))
    expect(second.body.data[0]._id).not.toBe(first.body.data[0]._id)
    expect(new Set([...first.body.data, ...second.body.data].map((e: { _id: string }) => e._id)).size).toBe(
      first.body.data.length + second.body.data.length,
    )
  })

  it('refuses bad filters with 400, and shoppers with 403', async () => {
    for (const query of ['entity=planet', 'action=launch', 'from=2026-02-30', 'from=2026-03-02&to=2026-03-01', 'page=0']) {
      const res = await t.call(`audit/list?${query}`, { token: admin.token })
      expect(res.status, query).toBe(400)
    }
    expect((await t.call('audit/list', { token: (await createShopper(t)).token })).status).toBe(403)
    expect((await t.call('audit/list')).status).toBe(401)
  })
})
