/**
 * A flash sale across instances (docs/decisions/0043-flash-sale-and-busy-pool.md): two production
 * processes of server.ts on one fresh PostgreSQL database, each with a small request pool
 * (DATABASE_POOL_MAX = 3) so that placements really wait for connections and for the product's row
 * lock. 40 shoppers, registered and signed in through the API, each with the same product (3 units
 * in the default store) in their cart, place a cash-on-delivery order at once, alternating between
 * the two instances. A busy pool is not an unavailable database: exactly 3 orders (201); every other
 * answer a 409 (the cart's `changes`, or ORDER_BUSY when the lock wait ran out) or a 429 POOL_BUSY;
 * no 5xx, no log line "database unavailable"; 3 orders in the database and the stock 0.
 *
 * No timing assertion: the waits are bounded by the server (lock_timeout, the pool's wait), and the
 * answers are judged by status and body only. Needs TEST_DATABASE_URL and a build (`npm run build`).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../api/db/client.ts'
import { POOL_BUSY } from '../../api/lib/faults.ts'
import { newId } from '../../api/lib/ids.ts'
import { ORDER_BUSY } from '../../api/modules/order/service.ts'
import { insertProduct, stockIn } from '../../api/testing/fixtures.ts'
import { orderIdsWithProduct, TEST_ADDRESS } from '../../api/testing/orders.ts'
import { createDatabase, startInstance, tearDown, waitReady, type Instance } from './cluster.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const dbName = `contention_${newId()}`
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-contention-'))
// Below Linux's ephemeral range (32768-60999, /proc/sys/net/ipv4/ip_local_port_range): a port in it
// can be held as the local port of an outgoing connection, and the instance then cannot listen.
const basePort = Number(process.env.CONTENTION_PORT ?? 3520)
const BUYERS = 40
const UNITS = 3
const PASSWORD = 'Flash-Sale-Pass-1'
let databaseUrl = ''
const instances: Instance[] = []

type Answer = { status: number; body: { data?: any; message?: string; changes?: unknown[] } }
/** POSTs `json` to `/api/<route>` of `base`; answers the status and the parsed envelope. */
async function call(base: string, route: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(json),
    // Generous: a placement may wait for the pool (5 s) and a lock (2 s) on a loaded machine.
    signal: AbortSignal.timeout(60_000),
  })
  return { status: res.status, body: (await res.json()) as Answer['body'] }
}

/** A shopper registered and signed in through `base`, with an address and one unit of `productId` in the cart. */
async function shopper(base: string, n: number, productId: string): Promise<{ base: string; token: string; addressId: string }> {
  const email = `flash-${n}@example.com`
  const registered = await call(base, 'user/register', { name: `Flash Buyer ${n}`, email, password: PASSWORD, confirmPassword: PASSWORD })
  expect(registered.status).toBe(201)
  const login = await call(base, 'user/login', { email, password: PASSWORD })
  expect(login.status).toBe(200)
  const auth = { authorization: `Bearer ${login.body.data.accessToken as string}` }
  const address = await call(base, 'address/create', TEST_ADDRESS, auth)
  expect(address.status).toBe(201)
  expect((await call(base, 'cart/create', { productId }, auth)).status).toBe(200)
  return { base, token: auth.authorization, addressId: address.body.data._id as string }
}

describe.skipIf(!serverUrl)('a flash sale on two instances with small pools (PostgreSQL)', () => {
  beforeAll(async () => {
    databaseUrl = (await createDatabase(serverUrl!, dbName)).url
    const env = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'contention-jwt-secret-0123456789abcdef',
      SESSION_SECRET: 'contention-session-secret-0123456789ab',
      SEED_CATALOG: '0',
      // 80 sign-ups and sign-ins from one address (127.0.0.1).
      RATE_LIMIT_IP_MULTIPLIER: '100',
      DATABASE_POOL_MAX: '3',
    }
    instances.push(startInstance('A', basePort, { ...env, DATA_DIR: path.join(dataDir, 'a') }))
    instances.push(startInstance('B', basePort + 1, { ...env, DATA_DIR: path.join(dataDir, 'b') }))
    await Promise.all(instances.map((i) => waitReady(i.url)))
  })

  afterAll(() => tearDown({ instances, serverUrl, database: dbName, dir: dataDir }))

  it(`${BUYERS} buyers of ${UNITS} units through both instances: ${UNITS} orders, the rest 409 or 429 busy, no 5xx`, async () => {
    const direct = await openDatabase({ url: databaseUrl })
    try {
      const product = await insertProduct(direct.db, {
        name: 'Alphonso Mango Box',
        unit: '1 dozen',
        price: 1200,
        sellingPrice: 999,
        stock: UNITS,
      })

      // Prepared a few at a time (each sign-up and sign-in hashes a password), alternating instances.
      const buyers: Awaited<ReturnType<typeof shopper>>[] = []
      for (let start = 0; start < BUYERS; start += 4) {
        const batch = Array.from({ length: Math.min(4, BUYERS - start) }, (_, k) => start + k)
        buyers.push(...(await Promise.all(batch.map((n) => shopper(instances[n % 2]!.url, n, product.id)))))
      }

      // All at once, buyer n on instance n % 2.
      const answers = await Promise.all(
        buyers.map((who, n) =>
          call(
            who.base,
            'order/cash-on-delivery',
            { addressId: who.addressId },
            {
              authorization: who.token,
              'Idempotency-Key': `contention-${dbName}-${n}`,
            },
          ),
        ),
      )

      const statuses = answers.map((a) => a.status)
      const count = (status: number) => statuses.filter((s) => s === status).length
      // Every answer that is not an order is one of the busy or sold-out refusals.
      const refusalKind = (a: Answer) =>
        a.status === 409 && Array.isArray(a.body.changes) && a.body.changes.length > 0
          ? 'sold out'
          : a.status === 409 && a.body.message === ORDER_BUSY
            ? 'order busy'
            : a.status === 429 && a.body.message === POOL_BUSY
              ? 'pool busy'
              : `${a.status} ${a.body.message}`
      const refusals = answers.filter((a) => a.status !== 201).map(refusalKind)
      const tally = (list: (string | number)[]) =>
        JSON.stringify(Object.fromEntries([...new Set(list)].map((v) => [v, list.filter((x) => x === v).length])))
      // The figures of the run, for the report (before the fix: 3 × 201, 3 × 409, 34 × 503).
      console.log(`contention: ${tally(statuses)}; refusals ${tally(refusals)}`)

      expect({ created: count(201), serverErrors: statuses.filter((s) => s >= 500).length }).toEqual({ created: UNITS, serverErrors: 0 })
      expect(refusals.filter((r) => r !== 'sold out' && r !== 'order busy' && r !== 'pool busy')).toEqual([])
      for (const loser of answers.filter((a) => a.status === 409 && a.body.changes)) {
        expect(loser.body.changes).toEqual([{ productId: product.id, name: 'Alphonso Mango Box', kind: 'stock', before: 1, after: 0 }])
      }

      // Every 201 is an order in the database, and there is no other; the stock is gone.
      const placed = answers.filter((a) => a.status === 201).map((a) => a.body.data._id as string)
      expect(await orderIdsWithProduct(direct.db, product.id)).toEqual([...placed].sort())
      expect(await stockIn(direct.db, product.id)).toBe(0)

      // A busy pool is never logged as an unavailable database.
      const unavailable = instances.flatMap((i) =>
        i.log
          .join('')
          .split('\n')
          .filter((line) => /database unavailable/i.test(line)),
      )
      expect(unavailable).toEqual([])
    } finally {
      await direct.close()
    }
  })
})
