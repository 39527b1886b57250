/**
 * `npx tsx bench/order-address-search.ts`: the order desk's search at volume (docs/commerce-api.md,
 * "Admin orders at volume"), on PostgreSQL (`--db pglite` on the embedded engine). Kept out of
 * `npm test`. Inserts BENCH_ORDERS (100,000) orders of 5,000 shoppers whose delivery addresses vary
 * (200 streets, 50 landmarks, 8 cities), then for a few searches (an address word, a landmark, a city,
 * a name, a phone) prints the plan of the list's page query (EXPLAIN ANALYZE) and the median time of
 * POST /api/order/admin-list over BENCH_RUNS (5) runs; and, for the same searches, the median of the
 * count and of the first page's ids with the search as one `or` of the ways of matching (the clause
 * before the address search, plus the address) against `searchClause`'s `o.id in (… union all …)`.
 * `--no-index` drops the address index first.
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { createApp } from '../api/app.ts'
import { createTestDatabase } from '../api/testing/db.ts'
import { createDiskStorage } from '../api/lib/storage.ts'
import { createMailer } from '../api/lib/mail.ts'
import { signedInAs } from '../api/testing/auth.ts'
import { ADDRESS_TEXT, adminOrderBy, adminOrderWhere, escapeLike, phoneDigits, searchClause } from '../api/modules/order/admin-filter.ts'
import type { SQL } from 'drizzle-orm'
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs'

const { values: args } = parseArgs({ options: { db: { type: 'string', default: 'postgres' }, 'no-index': { type: 'boolean' } } })
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const USERS = 5000
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL

/** The search as one `or` (the form before the address search), with the address added: the comparison. */
function orSearch(q: string): SQL {
  const text = escapeLike(q.toLowerCase())
  const pattern = q.length >= 3 ? `%${text}%` : `${text}%`
  const phone = phoneDigits(q)
  const people = sql`select id from users where lower(name) like ${pattern} or email like ${pattern}${phone ? sql` or mobile like ${`%${phone}%`}` : sql``}`
  return sql`(o.user_id in (${people})${phone ? sql` or (o.delivery_address->>'mobile') like ${`%${phone}%`}` : sql``} or ${ADDRESS_TEXT} like ${pattern} or o.order_number = ${q.toUpperCase()})`
}

/** Milliseconds since `start`, one decimal. */
const since = (start: number) => Math.round((performance.now() - start) * 10) / 10

async function main() {
  if (args.db === 'postgres') {
    if (!serverUrl) throw new Error('Set BENCH_DATABASE_URL or TEST_DATABASE_URL')
    process.env.TEST_DATABASE_URL = serverUrl
  } else delete process.env.TEST_DATABASE_URL
  const database = await createTestDatabase()
  const db = database.db
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-address-'))
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
        jsonb_build_object('address_line', (g % 97 + 1) || ', ' || (g % 40 + 1) || 'th Cross, Street ' || (g % 200) || ' Layout',
          'landmark', 'Near ' || (array['Temple','Park','Metro','School','Hospital'])[g % 5 + 1] || ' ' || (g % 50),
          'city', (array['Bengaluru','Mumbai','Chennai','Hyderabad','Pune','Delhi','Kolkata','Mysuru'])[g % 8 + 1],
          'state', 'Karnataka', 'pincode', '560038', 'country', 'India', 'mobile', '98' || lpad((g % ${USERS} + 1)::text, 8, '0')),
        30000 + g % 5000, 25000 + g % 5000, 2500, 0, 27500 + g % 5000, 'k' || g,
        now() - (g || ' minutes')::interval, now(), 'storeBlrIndiranagar'
      from generate_series(1, ${ORDERS}) g`)
    if (args['no-index']) await db.execute(sql`drop index orders_address_trgm_idx`)
    await db.execute(sql`analyze`)
    console.log(`${args.db}: inserted ${ORDERS} orders in ${since(start)} ms${args['no-index'] ? ' (address index dropped)' : ''}`)

    const { app, deps } = createApp({
      db,
      jwtSecret: randomBytes(32).toString('hex'),
      storage: createDiskStorage(path.join(tmp, 'uploads')),
      mailer: createMailer({ outboxDir: path.join(tmp, 'outbox') }),
    })
    const admin = await signedInAs({ db, deps }, 'ADMIN')
    const headers = { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' }

    for (const q of ['Street 137 ', 'near park 7', 'mysuru', 'iyer', '+91 98000 01234']) {
      const plan = (await db.execute(
        sql`explain (analyze, costs off) select o.id from orders o ${adminOrderWhere({ q: q.trim() })} ${adminOrderBy('newest')} limit 20`,
      )) as unknown as { rows?: Record<string, string>[] } | Record<string, string>[]
      const rows = Array.isArray(plan) ? plan : (plan.rows ?? [])
      console.log(`\nplan q=${JSON.stringify(q)}:\n${rows.map((r) => `  ${Object.values(r)[0]}`).join('\n')}`)
      const times: number[] = []
      let count = 0
      for (let i = 0; i < RUNS; i++) {
        start = performance.now()
        const res = await app.request('/api/order/admin-list', { method: 'POST', headers, body: JSON.stringify({ q, limit: 20 }) })
        count = ((await res.json()) as { totalCount: number }).totalCount
        times.push(since(start))
      }
      times.sort((a, b) => a - b)
      console.log(`list q=${JSON.stringify(q)}: ${count} orders, median ${times[Math.floor(times.length / 2)]} ms`)
      for (const [name, clause] of [
        ['or', orSearch(q.trim())],
        ['union', searchClause(q.trim())],
      ] as const) {
        const median = async (query: SQL) => {
          const runs: number[] = []
          for (let i = 0; i < RUNS; i++) {
            const s = performance.now()
            await db.execute(query)
            runs.push(since(s))
          }
          return runs.sort((a, b) => a - b)[Math.floor(RUNS / 2)]
        }
        const countMs = await median(sql`select count(*) from orders o where ${clause}`)
        const pageMs = await median(sql`select o.id from orders o where ${clause} order by o.created_at desc, o.id desc limit 20`)
        console.log(`  ${name}: count median ${countMs} ms, first page median ${pageMs} ms`)
      }
    }
  } finally {
    await database.close()
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
