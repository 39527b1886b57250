/**
 * One store's stock as CSV (docs/store-stock-csv.md) on a fresh database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): the export's byte order mark, columns and formula guard; the dry run
 * listing changes and row errors (unknown SKU, stock not a whole number 0..STOCK_MAX, the same SKU
 * twice, a missing column) and writing nothing; a bad file refused with 400; the apply writing every
 * change in one transaction, audited, or nothing at all; export → import unchanged; staff allowed,
 * a shopper refused; a new store created with another store's stock; and a file of thousands of
 * changes (the availability bits rebuilt once, ./stock-bits.ts).
 */
import { and, eq, sql } from 'drizzle-orm'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, inventory, products, stores, type Product } from '../../db/schema.ts'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from '../../testing/auth.ts'
import { insertProduct, insertProducts, setStockIn, stockIn } from '../../testing/fixtures.ts'
import { STOCK_CSV_COLUMNS } from '../../../contract/stock-csv.ts'
import { BULK_BITS_FROM } from './import.ts'

const KORAMANGALA = 'storeBlrKoramangala'
let t: TestApp
let admin: SignedIn
let staff: SignedIn
let shopper: SignedIn
let rice: Product
let dal: Product
let noSku: Product

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  staff = await createStaff(t)
  shopper = await createShopper(t)
  rice = await insertProduct(t.db, { name: 'Sona Masoori Rice', unit: '5 kg', stock: 5, storeStock: { [KORAMANGALA]: 12 } })
  dal = await insertProduct(t.db, { name: 'Toor Dal', unit: '1 kg', stock: 2, storeStock: { [KORAMANGALA]: 40 } })
  // No SKU, and a name a spreadsheet would run as a formula.
  noSku = await insertProduct(t.db, { name: '=HYPERLINK("x")', unit: '1 pc', stock: 0, storeStock: { [KORAMANGALA]: 3 } })
  await t.db.update(products).set({ sku: 'RICE-5' }).where(eq(products.id, rice.id))
  await t.db.update(products).set({ sku: '+DAL-1' }).where(eq(products.id, dal.id))
})
afterAll(() => t?.close())

const HEADER = STOCK_CSV_COLUMNS.join(',')
const csvFile = (text: string) => {
  const form = new FormData()
  form.append('file', new File([text], 'stock.csv', { type: 'text/csv' }))
  return form
}
const dryRun = (text: string, storeId = KORAMANGALA, token = admin.token) =>
  t.call(`inventory/import?storeId=${storeId}`, { method: 'POST', body: csvFile(text), token })
const apply = (text: string, storeId = KORAMANGALA, token = admin.token) =>
  t.call(`inventory/import/apply?storeId=${storeId}`, { method: 'POST', body: csvFile(text), token })
const exportCsv = async (storeId = KORAMANGALA, token = admin.token) => {
  const answer = await t.app.request(`/api/inventory/export?storeId=${storeId}`, { headers: { Authorization: `Bearer ${token}` } })
  return { status: answer.status, headers: answer.headers, bytes: new Uint8Array(await answer.arrayBuffer()) }
}
const textOf = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
/** Every stock row of a store, `productId stock`, sorted. */
const stockRows = async (storeId: string) =>
  (await t.db.select().from(inventory).where(eq(inventory.storeId, storeId))).map((r) => `${r.productId} ${r.stock}`).sort()

describe('GET /api/inventory/export', () => {
  it('writes the byte order mark, the header and every product by SKU, each cell guarded', async () => {
    const answer = await exportCsv()
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(answer.headers.get('content-disposition')).toMatch(/attachment; filename="stock-storeBlrKoramangala-/)
    expect([...answer.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const rows = parse(textOf(answer.bytes), { bom: true }) as string[][]
    expect(rows[0]).toEqual([...STOCK_CSV_COLUMNS])
    // Without SKU first, then by SKU; guarded cells carry one more `'`.
    expect(rows.slice(1)).toEqual([
      ['', noSku.id, `'=HYPERLINK("x")`, '1 pc', '3'],
      ["'+DAL-1", dal.id, 'Toor Dal', '1 kg', '40'],
      ['RICE-5', rice.id, 'Sona Masoori Rice', '5 kg', '12'],
    ])
  })

  it('is allowed to staff, refused to a shopper (403), 404 for an unknown store, 400 without storeId', async () => {
    expect((await exportCsv(KORAMANGALA, staff.token)).status).toBe(200)
    expect((await exportCsv(KORAMANGALA, shopper.token)).status).toBe(403)
    expect((await exportCsv('noSuchStore')).status).toBe(404)
    const missing = await t.call('inventory/export', { token: admin.token })
    expect(missing.status).toBe(400)
  })
})

describe('POST /api/inventory/import (dry run)', () => {
  it('lists the changes and every row error, and writes nothing', async () => {
    const before = await stockRows(KORAMANGALA)
    const file = [
      HEADER,
      `RICE-5,,,,20`,
      `'+DAL-1,,,,40`,
      `NOPE-1,,,,3`,
      `RICE-5,,,,21`,
      `,${noSku.id},,,1.5`,
      `,${noSku.id},,,-1`,
      `,${noSku.id},,,1000001`,
      `,,,,4`,
      `RICE-5,,`,
    ].join('\n')
    const res = await dryRun(file, KORAMANGALA, staff.token)
    expect(res.status).toBe(200)
    const answer = res.body.data
    expect(answer.applied).toBe(false)
    expect(answer.counts).toEqual({ rows: 9, changed: 1, unchanged: 1 })
    expect(answer.changes).toEqual([{ line: 2, sku: 'RICE-5', productId: rice.id, name: 'Sona Masoori Rice', before: 12, after: 20 }])
    expect(answer.errors).toEqual([
      { line: 4, column: 'sku', message: 'Unknown SKU "NOPE-1"' },
      { line: 5, column: 'sku', message: 'SKU "RICE-5" is also on line 2' },
      { line: 6, column: 'stock', message: 'Stock must be a whole number from 0 to 10,00,000' },
      { line: 7, column: 'stock', message: 'Stock must be a whole number from 0 to 10,00,000' },
      { line: 8, column: 'stock', message: 'Stock must be a whole number from 0 to 10,00,000' },
      { line: 9, column: 'sku', message: 'SKU is required' },
      { line: 10, column: '', message: 'Expected 5 cells, found 3' },
    ])
    expect(answer.errorCount).toBe(7)
    expect(await stockRows(KORAMANGALA)).toEqual(before)
  })

  it('says which column the header lacks (line 1), reads a file with or without the byte order mark', async () => {
    const noStock = await dryRun('sku,name\nRICE-5,Rice\n')
    expect(noStock.status).toBe(200)
    expect(noStock.body.data.errors).toEqual([{ line: 1, column: 'stock', message: 'The header must have a "stock" column' }])
    for (const text of ['\uFEFFsku,stock\r\nRICE-5,13\r\n', 'SKU,Stock\nRICE-5,13\n']) {
      const res = await dryRun(text)
      expect(res.status).toBe(200)
      expect(res.body.data.changes).toMatchObject([{ sku: 'RICE-5', before: 12, after: 13 }])
    }
  })

  it('refuses a bad file with 400 and a clear message, never 500', async () => {
    const latin1 = new Uint8Array([0x73, 0x6b, 0x75, 0x0a, 0xe9, 0xff])
    const form = new FormData()
    form.append('file', new File([latin1], 'stock.csv'))
    const notUtf8 = await t.call(`inventory/import?storeId=${KORAMANGALA}`, { method: 'POST', body: form, token: admin.token })
    expect(notUtf8.status).toBe(400)
    expect(notUtf8.body.message).toMatch(/not UTF-8/)
    const unreadable = await dryRun('sku,stock\n"RICE-5,1\n')
    expect(unreadable.status).toBe(400)
    expect(unreadable.body.message).toMatch(/Not a readable CSV/)
    const empty = await dryRun('\n\n')
    expect(empty.status).toBe(400)
    const noFile = await t.call(`inventory/import?storeId=${KORAMANGALA}`, { method: 'POST', body: new FormData(), token: admin.token })
    expect(noFile.status).toBe(400)
    expect((await dryRun(`${HEADER}\nRICE-5,,,,1\n`, 'noSuchStore')).status).toBe(404)
  })

  it('refuses a visitor (401) and a shopper (403)', async () => {
    const visitor = await t.call(`inventory/import?storeId=${KORAMANGALA}`, { method: 'POST', body: csvFile('sku,stock\nRICE-5,1\n') })
    expect(visitor.status).toBe(401)
    expect((await dryRun(`sku,stock\nRICE-5,1\n`, KORAMANGALA, shopper.token)).status).toBe(403)
    expect((await apply(`sku,stock\nRICE-5,1\n`, KORAMANGALA, shopper.token)).status).toBe(403)
  })
})

describe('POST /api/inventory/import/apply', () => {
  it('writes nothing when one row has an error (one transaction), and says each error', async () => {
    const before = await stockRows(KORAMANGALA)
    const res = await apply(`sku,stock\nRICE-5,99\nNOPE-2,1\n`)
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/nothing was written/)
    expect(res.body.issues).toEqual([{ path: 'line 3, sku', message: 'Unknown SKU "NOPE-2"' }])
    expect(await stockRows(KORAMANGALA)).toEqual(before)
  })

  it('is atomic: a failure mid-write rolls every row back', async () => {
    const before = await stockRows(KORAMANGALA)
    // A trigger refusing the second product's write, inside the apply's transaction.
    await t.db.execute(sql`create or replace function stock_csv_test_refuse() returns trigger language plpgsql as $$
      begin if new.product_id = '${sql.raw(dal.id)}' then raise exception 'refused for the test'; end if; return new; end $$`)
    await t.db.execute(
      sql`create trigger stock_csv_test_refuse before insert or update on inventory for each row execute function stock_csv_test_refuse()`,
    )
    try {
      const res = await apply(`sku,stock\nRICE-5,77\n'+DAL-1,78\n`)
      expect(res.status).toBe(500)
    } finally {
      await t.db.execute(sql`drop trigger stock_csv_test_refuse on inventory`)
      await t.db.execute(sql`drop function stock_csv_test_refuse()`)
    }
    expect(await stockRows(KORAMANGALA)).toEqual(before)
  })

  it('writes every changed stock for staff, only in that store, audited like a stock edit', async () => {
    const res = await apply(`sku,id,stock\nRICE-5,,30\n'+DAL-1,,40\n,${noSku.id},7\n`, KORAMANGALA, staff.token)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ applied: true, counts: { rows: 3, changed: 2, unchanged: 1 }, errorCount: 0 })
    expect(await stockIn(t.db, rice.id, KORAMANGALA)).toBe(30)
    expect(await stockIn(t.db, noSku.id, KORAMANGALA)).toBe(7)
    expect(await stockIn(t.db, rice.id)).toBe(5)
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'inventory'), eq(auditLog.entityId, `${KORAMANGALA}/${rice.id}`)))
    expect(entries.map((e) => [e.action, e.actorId, e.before, e.after])).toContainEqual([
      'stock',
      staff.user.id,
      { stock: 12 },
      { stock: 30 },
    ])
  })

  it('two applies of the same product at once serialise: the last writer wins and the audit trail chains, nothing lost', async () => {
    await setStockIn(t.db, rice.id, 11, KORAMANGALA)
    const results = await Promise.all([apply('sku,id,stock\nRICE-5,,21\n'), apply('sku,id,stock\nRICE-5,,22\n')])
    expect(results.map((r) => r.status)).toEqual([200, 200])
    const final = await stockIn(t.db, rice.id, KORAMANGALA)
    expect([21, 22]).toContain(final)
    const entries = (
      await t.db
        .select({ before: auditLog.before, after: auditLog.after })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'inventory'), eq(auditLog.entityId, `${KORAMANGALA}/${rice.id}`)))
    ).filter((e) => [21, 22].includes((e.after as { stock: number }).stock))
    // Each apply read the stock after the other committed (row locks): 11 → first → second.
    const first = entries.find((e) => (e.before as { stock: number }).stock === 11)!
    const second = entries.find((e) => e !== first)!
    expect((second.before as { stock: number }).stock).toBe((first.after as { stock: number }).stock)
    expect((second.after as { stock: number }).stock).toBe(final)
  })

  it('export → import round trip changes nothing', async () => {
    const exported = await exportCsv()
    const before = await stockRows(KORAMANGALA)
    const form = new FormData()
    form.append('file', new File([exported.bytes], 'stock.csv', { type: 'text/csv' }))
    const checked = await t.call(`inventory/import?storeId=${KORAMANGALA}`, { method: 'POST', body: form, token: admin.token })
    expect(checked.status).toBe(200)
    expect(checked.body.data).toMatchObject({ counts: { rows: 3, changed: 0, unchanged: 3 }, errorCount: 0, changes: [] })
    const again = new FormData()
    again.append('file', new File([exported.bytes], 'stock.csv', { type: 'text/csv' }))
    const applied = await t.call(`inventory/import/apply?storeId=${KORAMANGALA}`, { method: 'POST', body: again, token: admin.token })
    expect(applied.status).toBe(200)
    expect(await stockRows(KORAMANGALA)).toEqual(before)
    expect(textOf((await exportCsv()).bytes)).toBe(textOf(exported.bytes))
  })
})

describe('POST /api/store/create with copyStockFrom', () => {
  const newStore = (extra: Record<string, unknown>) =>
    t.call('store/create', {
      method: 'POST',
      json: { name: 'HSR Layout', area: 'HSR Layout', city: 'Bengaluru', addressLine: '27th Main', pincode: '560102', ...extra },
      token: admin.token,
    })

  it('starts the new store with a copy of the chosen store’s stock, in the create’s transaction, audited', async () => {
    await setStockIn(t.db, dal.id, 9, KORAMANGALA)
    const res = await newStore({ copyStockFrom: KORAMANGALA })
    expect(res.status).toBe(201)
    const id = res.body.data._id as string
    const strip = (rows: string[]) => rows.map((r) => r.split(' ').slice(0, 2).join(' '))
    expect(strip(await stockRows(id))).toEqual(strip(await stockRows(KORAMANGALA)))
    expect(await stockIn(t.db, dal.id, id)).toBe(9)
    // Its availability bits (docs/stores.md, "Availability bits"), built once for the copy, agree with its stock.
    const [bits] = await queryRows<{ wrong: number }>(
      t.db,
      sql`select count(*)::int as wrong from products p left join inventory i on i.store_id = ${id} and i.product_id = p.id
          where stock_bit((select b.in_stock from store_stock_bits b where b.store_id = ${id}), p.stock_seq) <> (coalesce(i.stock, 0) > 0)`,
    )
    expect(bits!.wrong).toBe(0)
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'store'), eq(auditLog.entityId, id)))
    expect(entry!.after).toMatchObject({ stockCopiedFrom: KORAMANGALA, stockRowsCopied: 3 })
    // Copied, not shared: the source's later change stays there.
    await setStockIn(t.db, dal.id, 1, KORAMANGALA)
    expect(await stockIn(t.db, dal.id, id)).toBe(9)
  })

  it('without it the new store starts empty; an unknown source is 400 on copyStockFrom and no store is made', async () => {
    const empty = await newStore({ name: 'Empty Store' })
    expect(empty.status).toBe(201)
    expect(await stockRows(empty.body.data._id)).toEqual([])
    const count = async () => (await t.db.select({ id: stores.id }).from(stores)).length
    const storesBefore = await count()
    const bad = await newStore({ name: 'Bad Copy', copyStockFrom: 'noSuchStore' })
    expect(bad.status).toBe(400)
    expect(bad.body.issues).toEqual([{ path: 'copyStockFrom', message: 'Choose an existing store to copy the stock from' }])
    expect(await count()).toBe(storesBefore)
  })

  it('stays ADMIN only (staff 403)', async () => {
    const res = await t.call('store/create', {
      method: 'POST',
      json: { name: 'Staff Store', area: 'A', city: 'Bengaluru', addressLine: 'x', pincode: '560102', copyStockFrom: KORAMANGALA },
      token: staff.token,
    })
    expect(res.status).toBe(403)
  })
})

describe('a file of thousands of changes', () => {
  it('is written in one apply, with the store’s availability bits rebuilt once and agreeing with its stock', async () => {
    const many = await insertProducts(
      t.db,
      Array.from({ length: BULK_BITS_FROM + 50 }, (_, i) => ({ name: `Bulk Stock ${i}`, stock: 1, storeStock: { [KORAMANGALA]: 0 } })),
    )
    await t.db.execute(sql`update products set sku = 'BULK-' || id where name like 'Bulk Stock %'`)
    const file = ['sku,stock', ...many.map((p, i) => `BULK-${p.id},${(i % 3) + 1}`)].join('\r\n')
    const res = await apply(file)
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200)
    expect(res.body.data.counts).toEqual({ rows: many.length, changed: many.length, unchanged: 0 })
    expect(await stockIn(t.db, many[4]!.id, KORAMANGALA)).toBe(2)
    const [bits] = await queryRows<{ wrong: number }>(
      t.db,
      sql`select count(*)::int as wrong from products p left join inventory i on i.store_id = ${KORAMANGALA} and i.product_id = p.id
          where stock_bit((select b.in_stock from store_stock_bits b where b.store_id = ${KORAMANGALA}), p.stock_seq) <> (coalesce(i.stock, 0) > 0)`,
    )
    expect(bits!.wrong).toBe(0)
    const [audited] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_log where entity = 'inventory' and entity_id like ${`${KORAMANGALA}/%`} and after->>'stock' is not null
          and entity_id in (select ${KORAMANGALA} || '/' || id from products where name like 'Bulk Stock %')`,
    )
    expect(audited!.n).toBe(many.length)
  }, 90_000) // the fixture's 2,000 products take about 10 s (the search's triggers); the apply under 1 s
})
