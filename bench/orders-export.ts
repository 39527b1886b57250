/**
 * `npx tsx bench/orders-export.ts`: the admin's CSV export and list search at volume
 * (docs/commerce-api.md, "Admin orders at volume"), on PostgreSQL (and `--db pglite` on the embedded
 * engine). Kept out of `npm test`: it inserts BENCH_ORDERS (100,000) orders of 5,000 shoppers with
 * two lines each into a fresh database (SQL `generate_series`, about 20 s), then times
 *
 * - the whole export (GET /api/order/admin/export through the in-process API, read to the end):
 *   wall time, rows, bytes and the peak RSS growth (the export streams in keyset pages, so memory
 *   must stay flat);
 * - the export of one status (a fifth of the orders);
 * - the list's first page for a few searches (order-number prefix, phone, email, name), BENCH_RUNS
 *   (5) times each, median in milliseconds.
 *
 * Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a server URL: the bench creates and drops its own
 * database there). Options: `--db postgres|pglite`, env BENCH_ORDERS, BENCH_RUNS.
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { createApp } from '../api/app.ts'
import { createTestDatabase } from '../api/testing/db.ts'
import { createDiskStorage } from '../api/lib/storage.ts'
import { createMailer } from '../api/lib/mail.ts'
import { signedInAs } from '../api/testing/auth.ts'
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs'

const { values: args } = parseArgs({ options: { db: { type: 'string', default: 'postgres' } } })
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const USERS = 5000
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL

/** Milliseconds since `start` (performance.now()), one decimal. */
const since = (start: number) => Math.round((performance.now() - start) * 10) / 10

async function main() {
  if (args.db === 'postgres') {
    if (!serverUrl) throw new Error('Set BENCH_DATABASE_URL or TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)')
    process.env.TEST_DATABASE_URL = serverUrl
  } else delete process.env.TEST_DATABASE_URL
  const database = await createTestDatabase()
  const db = database.db
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-orders-'))
  try {
    let start = performance.now()
    await db.execute(sql`insert into users (id, name, email, password_hash, mobile)
      select 'benchu' || g, 'Shopper ' || g || ' ' || (array['Iyer','Rao','Kumar','Shah','Das'])[g % 5 + 1],
        'shopper' || g || '@example.com', 'x', '98' || lpad(g::text, 8, '0')
      from generate_series(1, ${USERS}) g`)
    await db.execute(sql`insert into orders (id, order_number, user_id, status, delivery_address, items_total_mrp_paise,
        items_total_paise, delivery_charge_paise, rounding_paise, grand_total_paise, idempotency_key, created_at, updated_at, store_id)
      select 'bencho' || g, 'OD26' || lpad((g % 300)::text, 4, '0') || lpad(g::text, 6, '0'), 'benchu' || (g % ${USERS} + 1),
        (array['placed','packed','out_for_delivery','delivered','cancelled'])[g % 5 + 1],
        jsonb_build_object('address_line', g || ', MG Road', 'city', 'Bengaluru', 'state', 'Karnataka', 'pincode', '560038',
          'country', 'India', 'mobile', '98' || lpad((g % ${USERS} + 1)::text, 8, '0')),
        30000 + g % 5000, 25000 + g % 5000, 2500, 0, 27500 + g % 5000, 'k' || g,
        now() - (g || ' minutes')::interval, now(), 'storeBlrIndiranagar'
      from generate_series(1, ${ORDERS}) g`)
    await db.execute(sql`insert into order_lines (id, order_id, position, name, brand, unit, quantity, unit_price_paise, mrp_paise,
        discount, line_total_paise)
      select 'benchl' || g || '-' || p, 'bencho' || g, p, 'Product ' || (g % 900), 'Brand', '1 kg', p, 12500, 15000, 16.67, 12500 * p
      from generate_series(1, ${ORDERS}) g, generate_series(1, 2) p`)
    await db.execute(sql`analyze`)
    console.log(`${args.db}: inserted ${ORDERS} orders of ${USERS} shoppers (2 lines each) in ${since(start)} ms`)

    const { app, deps } = createApp({
      db,
      jwtSecret: randomBytes(32).toString('hex'),
      storage: createDiskStorage(path.join(tmp, 'uploads')),
      mailer: createMailer({ outboxDir: path.join(tmp, 'outbox') }),
    })
    const admin = await signedInAs({ db, deps }, 'ADMIN')
    const headers = { Authorization: `Bearer ${admin.token}` }

    async function timeExport(query: string) {
      const rssBefore = process.memoryUsage().rss
      let peak = rssBefore
      const start = performance.now()
      const res = await app.request(`/api/order/admin/export${query}`, { headers })
      if (res.status !== 200) throw new Error(`export answered ${res.status}`)
      const reader = res.body!.getReader()
      let bytes = 0
      let newlines = 0
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        bytes += value.byteLength
        for (const b of value) if (b === 10) newlines++
        peak = Math.max(peak, process.memoryUsage().rss)
      }
      const ms = since(start)
      console.log(
        `export${query || ' (all)'}: ${newlines - 1} orders, ${(bytes / 1e6).toFixed(1)} MB in ${ms} ms ` +
          `(${Math.round(((newlines - 1) / ms) * 1000)} orders/s), RSS growth at most ${((peak - rssBefore) / 1e6).toFixed(0)} MB`,
      )
    }
    await timeExport('')
    await timeExport('?status=delivered')
    await timeExport('?sort=total_desc')

    for (const q of ['OD260042', '9800001234', 'shopper4321@example', 'iyer', 'Shopper 777 ']) {
      const times: number[] = []
      let count = 0
      for (let i = 0; i < RUNS; i++) {
        start = performance.now()
        const res = await app.request('/api/order/admin-list', {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ q, limit: 20 }),
        })
        count = ((await res.json()) as { totalCount: number }).totalCount
        times.push(since(start))
      }
      times.sort((a, b) => a - b)
      console.log(`list q=${JSON.stringify(q)}: ${count} orders, median ${times[Math.floor(times.length / 2)]} ms`)
    }
  } finally {
    await database.close()
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
