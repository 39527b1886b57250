/**
 * The stores' availability bits (migration 0020_store_stock_bits; docs/stores.md, "Availability
 * bits"), on PGlite and on PostgreSQL with TEST_DATABASE_URL: after any write the bits of every store
 * equal `inventory` (stock > 0), kept by the deferred triggers at commit; a rolled-back write changes
 * nothing; a product numbered past a store's bits grows them; a bulk write with the triggers off is
 * made right by `refreshStockBits`, or for the products it wrote by `setStockBitsOf`; two
 * transactions of one store crossing 0 at once both land, as do two bulk writes of one slice at once
 * beside orders; and a search ranks by them.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Category } from '../../db/schema.ts'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { SEEDED_DEFAULT_STORE, insertCategory, insertProduct, insertProducts, setStockIn } from '../../testing/fixtures.ts'
import { bulkStockWrites, refreshStockBits, setStockBitsOf } from './stock-bits.ts'

const KORAMANGALA = 'storeBlrKoramangala'
let t: TestApp
let shelf: Category

beforeAll(async () => {
  t = await createTestApp()
  shelf = await insertCategory(t.db, { name: 'Bits Pantry' })
})
afterAll(() => t?.close())

/** Every (store, product) pair whose bit disagrees with its stock, as `store/product stock bit`. */
async function disagreements(): Promise<string[]> {
  const rows = await queryRows<{ pair: string }>(
    t.db,
    sql`select s.id || '/' || p.id || ' ' || coalesce(i.stock, 0) || ' ' || stock_bit(b.in_stock, p.stock_seq) as pair
        from stores s cross join products p
        left join inventory i on i.store_id = s.id and i.product_id = p.id
        left join store_stock_bits b on b.store_id = s.id
        where stock_bit(b.in_stock, p.stock_seq) <> (coalesce(i.stock, 0) > 0)`,
  )
  return rows.map((r) => r.pair)
}

/** The bit of `productId` in `storeId`. */
async function bit(productId: string, storeId = SEEDED_DEFAULT_STORE): Promise<boolean> {
  const [row] = await queryRows<{ on: boolean }>(
    t.db,
    sql`select stock_bit((select in_stock from store_stock_bits where store_id = ${storeId}), p.stock_seq) as on
        from products p where p.id = ${productId}`,
  )
  return row!.on
}

describe('store availability bits', () => {
  it('equal the stock of every store and product after inserts, updates and deletes', async () => {
    const made = await insertProducts(
      t.db,
      Array.from({ length: 30 }, (_, i) => ({
        name: `Bits Product ${i}`,
        categoryIds: [shelf.id],
        stock: i % 3 === 0 ? 0 : i,
        storeStock: { [KORAMANGALA]: i % 2 },
      })),
    )
    expect(await disagreements()).toEqual([])
    await setStockIn(t.db, made[0]!.id, 4)
    await setStockIn(t.db, made[1]!.id, 0)
    await setStockIn(t.db, made[2]!.id, 0, KORAMANGALA)
    await t.db.execute(sql`delete from inventory where product_id = ${made[4]!.id}`)
    expect(await bit(made[0]!.id)).toBe(true)
    expect(await bit(made[1]!.id)).toBe(false)
    expect(await bit(made[4]!.id)).toBe(false)
    expect(await disagreements()).toEqual([])
    // Deleting a product takes its stock with it; the others' bits stay right.
    await t.db.execute(sql`delete from products where id = ${made[5]!.id}`)
    expect(await disagreements()).toEqual([])
  })

  it('change at commit only: a rolled-back sale of the last unit leaves the bit set', async () => {
    const product = await insertProduct(t.db, { name: 'Bits Last Unit', categoryIds: [shelf.id], stock: 1 })
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`update inventory set stock = 0 where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${product.id}`)
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await bit(product.id)).toBe(true)
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`update inventory set stock = 0 where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${product.id}`)
      // Back in stock within the same transaction: the commit sees the final stock.
      await tx.execute(sql`update inventory set stock = 2 where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${product.id}`)
      await tx.execute(sql`update inventory set stock = 0 where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${product.id}`)
    })
    expect(await bit(product.id)).toBe(false)
  })

  it('grow for a product numbered past a store’s bits', async () => {
    // A store whose bits were built before the product existed: shorter than its number.
    await refreshStockBits(t.db, [KORAMANGALA])
    await t.db.execute(sql`select setval(pg_get_serial_sequence('products', 'stock_seq'), (select max(stock_seq) from products) + 500)`)
    const late = await insertProduct(t.db, {
      name: 'Bits Late Arrival',
      categoryIds: [shelf.id],
      stock: 0,
      storeStock: { [KORAMANGALA]: 3 },
    })
    const [lengths] = await queryRows<{ seq: number; bits: number }>(
      t.db,
      sql`select p.stock_seq as seq, length(b.in_stock) as bits from products p, store_stock_bits b
          where p.id = ${late.id} and b.store_id = ${KORAMANGALA}`,
    )
    expect(lengths!.bits).toBeGreaterThan(lengths!.seq)
    expect(await bit(late.id, KORAMANGALA)).toBe(true)
    expect(await bit(late.id)).toBe(false)
    expect(await disagreements()).toEqual([])
  })

  it('a bulk write with the triggers off is set right by refreshStockBits', async () => {
    const made = await insertProducts(
      t.db,
      Array.from({ length: 20 }, (_, i) => ({ name: `Bits Bulk ${i}`, categoryIds: [shelf.id], stock: 5 })),
    )
    await t.db.transaction(async (tx) => {
      await bulkStockWrites(tx)
      await tx.execute(sql`update inventory set stock = 0 where product_id = any(${`{${made.map((p) => p.id).join(',')}}`}::text[])`)
    })
    // Off for that transaction: the bits still say in stock …
    expect(await bit(made[0]!.id)).toBe(true)
    expect((await disagreements()).length).toBeGreaterThanOrEqual(made.length)
    await refreshStockBits(t.db)
    expect(await disagreements()).toEqual([])
    // … and only for that transaction: the next write is followed again.
    await setStockIn(t.db, made[0]!.id, 7)
    expect(await bit(made[0]!.id)).toBe(true)
  })

  it('a bulk write with the triggers off is set right for the products it names by setStockBitsOf, the others left as they are', async () => {
    const made = await insertProducts(
      t.db,
      Array.from({ length: 12 }, (_, i) => ({ name: `Bits Slice ${i}`, categoryIds: [shelf.id], stock: i % 2 === 0 ? 4 : 0 })),
    )
    // A product numbered past the store's bits (added after they were last written in full).
    await t.db.execute(sql`select setval(pg_get_serial_sequence('products', 'stock_seq'), (select max(stock_seq) from products) + 300)`)
    const [late] = await insertProducts(t.db, [{ name: 'Bits Slice Late', categoryIds: [shelf.id], stock: 0 }])
    const named = [...made.slice(0, 8), late!]
    const flipped = made.slice(8)
    await t.db.transaction(async (tx) => {
      await bulkStockWrites(tx)
      // Every product's stock crosses 0: in stock becomes out, out becomes in.
      for (const p of [...named, ...flipped]) {
        await tx.execute(sql`update inventory set stock = case when stock > 0 then 0 else 9 end
                             where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${p.id}`)
      }
      await tx.execute(sql`insert into inventory (store_id, product_id, stock) values (${SEEDED_DEFAULT_STORE}, ${late!.id}, 5)
                           on conflict (store_id, product_id) do update set stock = 5`)
      await setStockBitsOf(
        tx,
        SEEDED_DEFAULT_STORE,
        named.map((p) => p.id),
      )
    })
    // The named ones follow their stock, the late one included (the bits grew to its number) …
    for (const [i, p] of made.slice(0, 8).entries()) expect(await bit(p.id)).toBe(i % 2 !== 0)
    expect(await bit(late!.id)).toBe(true)
    // … the ones not named still say what they said before the write …
    for (const [i, p] of flipped.entries()) expect(await bit(p.id)).toBe((8 + i) % 2 === 0)
    expect((await disagreements()).length).toBe(flipped.length)
    // … and an empty list writes nothing.
    await setStockBitsOf(t.db, SEEDED_DEFAULT_STORE, [])
    await refreshStockBits(t.db)
    expect(await disagreements()).toEqual([])
  })

  it('two transactions of one store selling out different products at once both land, without a deadlock', async () => {
    const [a, b] = await insertProducts(t.db, [
      { name: 'Bits Race A', categoryIds: [shelf.id], stock: 1 },
      { name: 'Bits Race B', categoryIds: [shelf.id], stock: 1 },
    ])
    const sellOut = (productId: string, pauseMs: number) =>
      t.db.transaction(async (tx) => {
        await tx.execute(sql`update inventory set stock = 0 where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${productId}`)
        await new Promise((r) => setTimeout(r, pauseMs))
      })
    await Promise.all([sellOut(a!.id, 50), sellOut(b!.id, 10)])
    expect(await bit(a!.id)).toBe(false)
    expect(await bit(b!.id)).toBe(false)
    expect(await disagreements()).toEqual([])
  })

  it('bulk writes of one slice run twice at once and orders selling out other products meanwhile all land, without a deadlock', async () => {
    const slice = await insertProducts(
      t.db,
      Array.from({ length: 8 }, (_, i) => ({ name: `Bits Slice Race ${i}`, categoryIds: [shelf.id], stock: 3 })),
    )
    const others = await insertProducts(
      t.db,
      Array.from({ length: 6 }, (_, i) => ({ name: `Bits Order Race ${i}`, categoryIds: [shelf.id], stock: 1 })),
    )
    // An import's slice: stock written with the triggers off, then its products' bits set, with a
    // pause inside so the others run while it holds its rows.
    const bulk = (stock: number, pauseMs: number) =>
      t.db.transaction(async (tx) => {
        await bulkStockWrites(tx)
        for (const p of slice) {
          await tx.execute(sql`update inventory set stock = ${stock} where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${p.id}`)
        }
        await new Promise((r) => setTimeout(r, pauseMs))
        await setStockBitsOf(
          tx,
          SEEDED_DEFAULT_STORE,
          slice.map((p) => p.id),
        )
      })
    // Each buyer takes the last unit of another product (the deferred trigger writes the store's bits at commit).
    const sellOut = (productId: string, pauseMs: number) =>
      t.db.transaction(async (tx) => {
        await tx.execute(sql`update inventory set stock = 0 where store_id = ${SEEDED_DEFAULT_STORE} and product_id = ${productId}`)
        await new Promise((r) => setTimeout(r, pauseMs))
      })
    await Promise.all([bulk(0, 40), bulk(0, 10), ...others.map((p, i) => sellOut(p.id, i * 7))])
    for (const p of [...slice, ...others]) expect(await bit(p.id)).toBe(false)
    expect(await disagreements()).toEqual([])
    // And back: the same slice twice restocking, while the sold-out products stay out.
    await Promise.all([bulk(5, 25), bulk(5, 5)])
    for (const p of slice) expect(await bit(p.id)).toBe(true)
    expect(await disagreements()).toEqual([])
  })

  it('rank a search: the product sold out in the store comes after the one in stock', async () => {
    const [first, second] = await insertProducts(t.db, [
      { name: 'Zanzibar Bitsberry Jam', categoryIds: [shelf.id], stock: 0 },
      { name: 'Zanzibar Bitsberry Jam Pack', categoryIds: [shelf.id], stock: 6 },
    ])
    t.deps.cache.invalidate()
    const search = async () =>
      (await t.call('product/search-product', { method: 'POST', json: { search: 'bitsberry', page: 1, limit: 10 } })).body.data.map(
        (p: { _id: string }) => p._id,
      )
    expect(await search()).toEqual([second!.id, first!.id])
    await setStockIn(t.db, first!.id, 3)
    await setStockIn(t.db, second!.id, 0)
    t.deps.cache.invalidate()
    expect(await search()).toEqual([first!.id, second!.id])
  })
})
