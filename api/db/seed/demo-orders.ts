/**
 * Demo order history (docs/recommendations.md, "Demo data"): on a fresh catalogue import the seed
 * adds one demo shopper with DEMO_ORDER_COUNT delivered orders whose baskets repeat a few everyday
 * combinations (onion, potato, tomato and ginger; eggs and butter; atta, dal and oil; paneer with
 * onion and tomato; tea with eggs), so "Frequently bought together" has rules to show on a fresh
 * start. The products are named by the catalogue's SKUs (`BB-<ProductID>`, api/db/seed/import-catalog.ts
 * `skuFor`); one missing from the catalogue is skipped.
 *
 * Idempotent and fast: nothing is written when the demo shopper exists; otherwise one insert of the
 * user, one of the orders and one of their lines, in one transaction. The orders take no stock
 * (they are history, delivered before the store's current stock was counted).
 */
import { eq, inArray, sql } from 'drizzle-orm'
import { products, users } from '../schema.ts'
import type { Db } from '../client.ts'
import { newId } from '../../lib/ids.ts'

/** The demo shopper's email: the marker that the history was seeded. */
export const DEMO_HISTORY_EMAIL = 'order-history@demo.invalid'
/** Delivered orders seeded. */
export const DEMO_ORDER_COUNT = 40
/** The store the history was delivered from (migration 0010_dark_stores). */
const DEMO_STORE = 'storeBlrIndiranagar'

/** The baskets, by SKU; order i uses basket i mod the count, dropping one product on every third pass so the rules are not all certain. */
const BASKETS: string[][] = [
  ['BB-3', 'BB-8', 'BB-34', 'BB-242'],
  ['BB-6', 'BB-136'],
  ['BB-14', 'BB-143', 'BB-1000'],
  ['BB-30', 'BB-3', 'BB-34'],
  ['BB-26', 'BB-6'],
]

/**
 * Seeds the demo history when absent.
 * @returns the delivered orders written (0 when already seeded or when no basket's products exist)
 */
export async function seedDemoOrders(db: Db, now: Date = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    // Two starts at once: the second waits here, then sees the history (PostgreSQL docs, "Advisory Locks").
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('demo-order-history'))`)
    const [seeded] = await tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_HISTORY_EMAIL))
    if (seeded) return 0
    const skus = [...new Set(BASKETS.flat())]
    const rows = await tx
      .select({
        id: products.id,
        sku: products.sku,
        name: products.name,
        unit: products.unit,
        mrp: products.price,
        selling: products.sellingPrice,
      })
      .from(products)
      .where(inArray(products.sku, skus))
    const bySku = new Map(rows.map((r) => [r.sku, r]))
    const userId = newId()
    await tx.execute(
      sql`insert into users (id, name, email, status, role) values (${userId}, 'Demo order history', ${DEMO_HISTORY_EMAIL}, 'Inactive', 'USER')`,
    )
    // A whole address snapshot, as placement copies one from the address book (contract/order.ts
    // OrderAddressSchema): the admin's order desk lists these orders too.
    const address = {
      address_line: '100 Feet Road, Indiranagar',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560038',
      country: 'India',
      mobile: '9000000000',
    }
    let written = 0
    for (let i = 0; i < DEMO_ORDER_COUNT; i++) {
      const basket = BASKETS[i % BASKETS.length]!
      const pass = Math.floor(i / BASKETS.length)
      // Every third pass leaves out the basket's last product: confidence below 1, as in real baskets.
      const skusOf = pass % 3 === 2 && basket.length > 2 ? basket.slice(0, -1) : basket
      const lines = skusOf.map((sku) => bySku.get(sku)).filter((r) => r !== undefined)
      if (lines.length < 2) continue
      const paise = (rupees: number) => Math.round(rupees * 100)
      const total = lines.reduce((sum, l) => sum + paise(l.selling), 0)
      const mrpTotal = lines.reduce((sum, l) => sum + paise(l.mrp), 0)
      const orderId = newId()
      const at = new Date(now.getTime() - (DEMO_ORDER_COUNT - i) * 6 * 60 * 60 * 1000)
      await tx.execute(sql`
        insert into orders (id, order_number, user_id, status, payment_method, delivery_address, items_total_mrp_paise, items_total_paise,
                            delivery_charge_paise, grand_total_paise, store_id, delivered_at, idempotency_key, created_at, updated_at)
        values (${orderId}, ${`ODDEMO${String(i + 1).padStart(4, '0')}`}, ${userId}, 'delivered', 'CASH ON DELIVERY', ${JSON.stringify(address)}::jsonb,
                ${mrpTotal}, ${total}, 0, ${total}, ${DEMO_STORE}, ${at}, ${`demo-history-${i}`}, ${at}, ${at})`)
      await tx.execute(sql`
        insert into order_lines (id, order_id, position, product_id, name, unit, quantity, unit_price_paise, mrp_paise, discount, line_total_paise)
        values ${sql.join(
          lines.map(
            (l, position) =>
              sql`(${newId()}, ${orderId}, ${position}, ${l.id}, ${l.name}, ${l.unit}, 1, ${paise(l.selling)}, ${paise(l.mrp)},
                   ${paise(l.mrp) > 0 ? Math.round((1 - paise(l.selling) / paise(l.mrp)) * 10000) / 100 : 0}, ${paise(l.selling)})`,
          ),
          sql`, `,
        )}`)
      written++
    }
    return written
  })
}
