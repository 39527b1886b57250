/**
 * Invoice numbers given by the database (migration 0026_tax_invoices;
 * docs/decisions/0042-invoice-and-credit-note-numbering.md) on a fresh database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL): one series per store and financial year (April-March in
 * India), consecutive, at most 16 characters, given once when an order becomes a placed
 * cash-on-delivery order or a paid one, none for an order awaiting payment, no gap left by a
 * rolled-back placement, and each number once when many placements race (on PostgreSQL, really
 * concurrent connections).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../db/query.ts'
import { newId } from '../../lib/ids.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper } from '../../testing/auth.ts'

let t: TestApp
let userId: string
let seq = 0

beforeAll(async () => {
  t = await createTestApp()
  userId = (await createShopper(t)).user.id
})
afterAll(() => t?.close())

type Runner = Pick<TestApp['db'], 'execute'>

/** Inserts an order row as placement does (the trigger numbers it); answers its id. */
async function insertOrder(
  db: Runner,
  input: { storeId: string; createdAt: string; status?: string; paymentState?: string },
): Promise<string> {
  const id = newId()
  const n = ++seq
  await db.execute(sql`insert into orders (id, order_number, user_id, status, payment_state, delivery_address, items_total_mrp_paise,
      items_total_paise, delivery_charge_paise, grand_total_paise, store_id, idempotency_key, created_at, updated_at)
    values (${id}, ${`NUMTEST${process.pid}${n}`}, ${userId}, ${input.status ?? 'placed'}, ${input.paymentState ?? 'cod'},
      ${JSON.stringify({ address_line: '1 Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', country: 'India', mobile: '9845012345' })}::jsonb,
      10000, 10000, 0, 10000, ${input.storeId}, ${`key-${n}`}, ${input.createdAt}::timestamptz, ${input.createdAt}::timestamptz)`)
  return id
}

async function numberOf(id: string): Promise<string | null> {
  const [row] = await queryRows<{ invoice_number: string | null }>(t.db, sql`select invoice_number from orders where id = ${id}`)
  return row!.invoice_number
}

describe('invoice numbers', () => {
  it('the financial year runs April to March in India', async () => {
    const fy = async (at: string) =>
      (await queryRows<{ fy: string }>(t.db, sql`select gst_financial_year(${at}::timestamptz) as fy`))[0]!.fy
    expect(await fy('2027-03-31T18:29:59Z')).toBe('26-27') // 23:59:59 on 31 March in India
    expect(await fy('2027-03-31T18:30:00Z')).toBe('27-28') // midnight, 1 April
    expect(await fy('2026-11-28T10:00:00Z')).toBe('26-27')
    expect(await fy('2099-12-01T00:00:00Z')).toBe('99-00')
  })

  it('numbers each store’s orders consecutively per financial year, at most 16 characters', async () => {
    const a1 = await insertOrder(t.db, { storeId: 'storeBlrKoramangala', createdAt: '2027-03-31T18:00:00Z' })
    const d1 = await insertOrder(t.db, { storeId: 'storeDelHauzKhas', createdAt: '2027-03-31T18:05:00Z' })
    const a2 = await insertOrder(t.db, { storeId: 'storeBlrKoramangala', createdAt: '2027-03-31T18:10:00Z' })
    const a3 = await insertOrder(t.db, { storeId: 'storeBlrKoramangala', createdAt: '2027-03-31T18:30:00Z' })
    expect(await numberOf(a1)).toBe('BLR2/26-27/00001')
    expect(await numberOf(a2)).toBe('BLR2/26-27/00002')
    expect(await numberOf(d1)).toBe('DEL2/26-27/00001')
    expect(await numberOf(a3)).toBe('BLR2/27-28/00001')
    for (const id of [a1, a2, a3, d1]) expect((await numberOf(id))!.length).toBeLessThanOrEqual(16)
  })

  it('an order awaiting payment has none; paying gives it the next number, once', async () => {
    const pending = await insertOrder(t.db, {
      storeId: 'storeMumBandraWest',
      createdAt: '2026-11-28T10:00:00Z',
      status: 'payment_pending',
      paymentState: 'pending',
    })
    expect(await numberOf(pending)).toBeNull()
    const expired = await insertOrder(t.db, {
      storeId: 'storeMumBandraWest',
      createdAt: '2026-11-28T10:00:00Z',
      status: 'cancelled',
      paymentState: 'expired',
    })
    expect(await numberOf(expired)).toBeNull()
    await t.db.execute(
      sql`update orders set status = 'placed', payment_state = 'paid', paid_at = '2026-11-28T10:05:00Z' where id = ${pending}`,
    )
    expect(await numberOf(pending)).toBe('MUM1/26-27/00001')
    await t.db.execute(sql`update orders set status = 'packed' where id = ${pending}`)
    await t.db.execute(sql`update orders set payment_state = 'paid' where id = ${pending}`)
    expect(await numberOf(pending)).toBe('MUM1/26-27/00001')
  })

  it('a placement rolled back gives its number back: the series has no gap', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await insertOrder(tx, { storeId: 'storeMumAndheriEast', createdAt: '2026-11-28T10:00:00Z' })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    const next = await insertOrder(t.db, { storeId: 'storeMumAndheriEast', createdAt: '2026-11-28T10:01:00Z' })
    expect(await numberOf(next)).toBe('MUM2/26-27/00001')
  })

  it('racing placements in one store get consecutive numbers, each once; racing payments of one order give it one', async () => {
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.db.transaction(async (tx) => {
          const id = await insertOrder(tx, {
            storeId: 'storeDelConnaughtPlace',
            createdAt: `2026-11-28T10:00:${String(i).padStart(2, '0')}Z`,
          })
          // Holding the counter's row lock a moment longer makes the others wait on it (on PostgreSQL).
          await tx.execute(sql`select pg_sleep(0.01)`)
          return id
        }),
      ),
    )
    const numbers = (await Promise.all(ids.map(numberOf))).sort()
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => `DEL1/26-27/${String(i + 1).padStart(5, '0')}`))

    const order = await insertOrder(t.db, {
      storeId: 'storeBlrHsrLayout',
      createdAt: '2026-11-28T10:00:00Z',
      status: 'payment_pending',
      paymentState: 'pending',
    })
    await Promise.all(
      Array.from({ length: 6 }, () =>
        t.db.transaction(async (tx) => {
          await tx.execute(sql`update orders set status = 'placed', payment_state = 'paid', paid_at = now() where id = ${order}`)
        }),
      ),
    )
    expect(await numberOf(order)).toBe('BLR3/26-27/00001')
    const [counter] = await queryRows<{ last: number }>(
      t.db,
      sql`select last from gst_document_counters where series = 'BLR3' and kind = 'invoice'`,
    )
    expect(counter!.last).toBe(1)
  })
})
