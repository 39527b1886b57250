/**
 * Scale-out, for real (docs/scale-out.md, "Running more than one instance"): two production instances of server.ts on one PostgreSQL
 * database and one S3-compatible bucket (s3rver), each with its own DATA_DIR, behind a round-robin
 * proxy (tests/scale/cluster.ts). Started
 * together on an empty database, both come up; a sign-in on A works on B; an image uploaded through A
 * is served by B and the upload-then-save admin flow works across them; a price change through A is
 * answered by B within a second, and B's cached page of the product shows it as soon; an order
 * through A that leaves its product in stock keeps B's cached home and product pages, and one that
 * takes a product's last unit refreshes B's pages of it, which say "Out of stock", within a second; a create sent to both with one Idempotency-Key makes one product
 * (a proxy's retry on the other instance); when PostgreSQL cuts every connection under load (what a restart
 * does to its clients) both recover by themselves within 5 s; a rolling restart under load loses no
 * request. Needs TEST_DATABASE_URL and a build (`npm test` runs it after the build).
 *
 * Each test stands alone (vitest `-t` runs any one): what they all need, both instances ready and
 * the admin they sign in as, is set up before them.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../api/db/client.ts'
import { createUser } from '../../api/modules/user/service.ts'
import { newId } from '../../api/lib/ids.ts'
import S3rver from 's3rver'
import { startInstance, startLoad, startNginx, startProxy, waitReady, type Instance } from './cluster.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const dbName = `scale_${newId()}`
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-scale-'))
const basePort = Number(process.env.SCALE_PORT ?? 3470)
// nginx listens on a port that is not 80: its `Host` must keep the port, or every form post fails
// React Router's check of `Origin` against the request's own origin.
const nginxPort = Number(process.env.SCALE_NGINX_PORT ?? basePort + 10)
let databaseUrl = ''
let env: Record<string, string> = {}
let a: Instance
let b: Instance
let proxy: Awaited<ReturnType<typeof startProxy>>
let nginx: Awaited<ReturnType<typeof startNginx>> | undefined
let bucket: S3rver
let instances: Instance[] = []
const report: Record<string, number> = {}

const ADMIN = { name: 'Scale Admin', email: 'scale-admin@example.com', password: 'Scale-Admin-Pass-1' }

async function json(res: Response) {
  return (await res.json()) as { data: any; message: string }
}
async function login(url: string) {
  const res = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  })
  expect(res.status).toBe(200)
  return (await json(res)).data.accessToken as string
}
const authed = (token: string, body?: unknown) => ({
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
})

async function cutAllConnections() {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [dbName])
  await admin.end()
}

describe.skipIf(!serverUrl)('two instances behind a round-robin proxy (PostgreSQL)', () => {
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${dbName}`)
    await admin.end()
    const url = new URL(serverUrl!)
    url.pathname = `/${dbName}`
    databaseUrl = url.toString()
    bucket = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(dataDir, 's3'),
      configureBuckets: [{ name: 'grocery-scale', configs: [] }],
    })
    const { port: s3Port } = await bucket.run()
    env = {
      DATABASE_URL: databaseUrl,
      S3_BUCKET: 'grocery-scale',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      JWT_SECRET: 'scale-test-jwt-secret-0123456789abcdef',
      SESSION_SECRET: 'scale-test-session-secret-0123456789ab',
      SEED_CATALOG: '0',
      RATE_LIMIT_IP_MULTIPLIER: '100',
      SHUTDOWN_DELAY_MS: '500',
      SHUTDOWN_GRACE_MS: '10000',
      DATABASE_POOL_MAX: '5',
    }
    // Both at once on the empty database: one migrates, the other waits (advisory lock).
    // Each instance its own DATA_DIR: nothing on local disk is shared.
    a = startInstance('A', basePort, { ...env, DATA_DIR: path.join(dataDir, 'a') })
    b = startInstance('B', basePort + 1, { ...env, DATA_DIR: path.join(dataDir, 'b') })
    instances = [a, b]
    proxy = await startProxy(() => instances.map((i) => i.url))
    // What every test needs, set up here so each stands alone (vitest `-t` runs any one of them):
    // both instances ready, and the admin the tests sign in as.
    const [readyA, readyB] = await Promise.all([waitReady(a.url), waitReady(b.url)])
    report.startTogetherMs = Math.max(readyA, readyB)
    const database = await openDatabase({ url: databaseUrl })
    try {
      await createUser(database.db, { ...ADMIN, role: 'ADMIN' })
    } finally {
      await database.close()
    }
  })

  afterAll(async () => {
    await proxy?.close()
    await nginx?.close()
    for (const i of instances) i.process.kill('SIGKILL')
    await Promise.all(instances.map((i) => i.exited))
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await admin.end()
    await bucket?.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
    console.log(`scale-out figures: ${JSON.stringify(report)}`)
  })

  it('two instances started together on an empty database both come up', async () => {
    // Each answers ready on the shared PostgreSQL database (not a PGlite of its own DATA_DIR).
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.url}/readyz`)
      expect(res.status, instance.name).toBe(200)
      expect(await res.json(), instance.name).toEqual({ status: 'ready', database: 'postgres' })
    }
    // Started at once on the empty database, one migrated while the other waited (api/db/client.ts
    // `withStartupLock`): every migration of the journal is recorded exactly once.
    const journal = JSON.parse(fs.readFileSync('api/db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] }
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const { rows } = await client.query<{ hash: string; n: number }>(
        'select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash',
      )
      expect(rows).toHaveLength(journal.entries.length)
      expect(rows.filter((r) => r.n !== 1)).toEqual([])
    } finally {
      await client.end()
    }
    // And both serve the API: the admin set up before the tests signs in on each.
    for (const instance of [a, b]) expect(await login(instance.url)).toBeTruthy()
  })

  it('behind deploy/nginx.conf on a port that is not 80, a form post from that host:port passes', async () => {
    nginx = await startNginx(
      [a, b].map((i) => `127.0.0.1:${i.port}`),
      nginxPort,
      path.join(dataDir, 'nginx'),
    )
    // Both instances in turn (round robin): the shopper's sign-in form, as a browser posts it.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${nginx.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: nginx.url },
        body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
        redirect: 'manual',
      })
      expect(res.status).toBe(302)
      expect(res.headers.get('set-cookie')).toBeTruthy()
    }
  })

  it('a sign-in on A works on B', async () => {
    const token = await login(a.url)
    const res = await fetch(`${b.url}/api/user/user-details`, authed(token))
    expect(res.status).toBe(200)
    expect((await json(res)).data.email).toBe(ADMIN.email)
  })

  it('an image uploaded through A is served by B, and B saves a category with it; a price change through A reaches B, its API and its cached page, within a second', async () => {
    const token = await login(a.url)
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 40 } } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.set('image', new Blob([png], { type: 'image/png' }), 'leaf.png')
    const upload = await fetch(`${a.url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    expect(upload.status).toBe(201)
    const image = (await json(upload)).data.url as string
    const served = await fetch(`${b.url}${image}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/webp')

    const category = await fetch(`${b.url}/api/category/add-category`, {
      method: 'POST',
      ...authed(token, { name: 'Scale Greens', image }),
    })
    expect(category.status).toBe(201)
    const categoryId = (await json(category)).data._id
    const created = await fetch(`${a.url}/api/product/create`, {
      method: 'POST',
      ...authed(token, {
        name: 'Scale Spinach',
        image: [image],
        category: [categoryId],
        subCategory: [],
        unit: '250 g',
        stock: 10,
        price: 40,
        discount: 0,
        description: 'Fresh.',
        more_details: {},
      }),
    })
    expect(created.status).toBe(201)
    const productId = (await json(created)).data._id
    const priceOnB = async () =>
      (await json(await fetch(`${b.url}/api/product/get-product-details`, { method: 'POST', ...authed(token, { productId }) }))).data
        .sellingPrice
    expect(await priceOnB()).toBe(40)
    // B's page of the product, as a visitor without a session sees it, kept in B's page cache.
    const pageOnB = `${b.url}/product/Scale-Spinach-${productId}`
    // The create through A reaches B's caches by NOTIFY, which may land while B renders the page (a
    // render overtaken by a clear is not kept): render until B keeps it, within a bounded wait.
    const keptBy = Date.now() + 3000
    let cached = await fetch(pageOnB)
    while (cached.headers.get('x-page-cache') !== 'hit') {
      await cached.text()
      expect(Date.now()).toBeLessThan(keptBy)
      await new Promise((r) => setTimeout(r, 20))
      cached = await fetch(pageOnB)
    }
    expect(await cached.text()).toContain('₹40')
    const changed = await fetch(`${a.url}/api/product/update-product-details`, {
      method: 'PUT',
      ...authed(token, { _id: productId, sellingPrice: 35 }),
    })
    expect(changed.status).toBe(200)
    const started = Date.now()
    while ((await priceOnB()) !== 35) {
      expect(Date.now() - started).toBeLessThan(1000)
      await new Promise((r) => setTimeout(r, 10))
    }
    report.crossInstanceStalenessMs = Date.now() - started
    // The write through A cleared B's cached page too (the catalogue cache's clear, by LISTEN/NOTIFY).
    while (!(await (await fetch(pageOnB)).text()).includes('₹35')) {
      expect(Date.now() - started).toBeLessThan(1000)
      await new Promise((r) => setTimeout(r, 10))
    }
    report.crossInstancePageStalenessMs = Date.now() - started
  })

  it('an order through A that leaves stock keeps B’s cached pages; one that takes the last unit refreshes B’s pages of that product', async () => {
    const token = await login(a.url)
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 160, b: 40 } } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.set('image', new Blob([png], { type: 'image/png' }), 'grain.png')
    const image = (
      await json(await fetch(`${a.url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }))
    ).data.url as string
    const category = (
      await json(await fetch(`${a.url}/api/category/add-category`, { method: 'POST', ...authed(token, { name: 'Scale Pantry', image }) }))
    ).data._id as string
    const create = async (name: string, stock: number) => {
      const res = await fetch(`${a.url}/api/product/create`, {
        method: 'POST',
        ...authed(token, {
          name,
          image: [image],
          category: [category],
          subCategory: [],
          unit: '1 kg',
          stock,
          price: 90,
          discount: 0,
          description: 'Dry.',
          more_details: {},
        }),
      })
      expect(res.status).toBe(201)
      return (await json(res)).data._id as string
    }
    const rice = await create('Scale Rice', 10)
    const salt = await create('Scale Salt', 2)
    const address = (
      await json(
        await fetch(`${a.url}/api/address/create`, {
          method: 'POST',
          ...authed(token, {
            address_line: '4, CMH Road',
            city: 'Bengaluru',
            state: 'Karnataka',
            pincode: '560038',
            mobile: '9830012345',
          }),
        }),
      )
    ).data._id as string
    const order = async (productId: string, quantity: number) => {
      for (let i = 0; i < quantity; i++)
        expect((await fetch(`${a.url}/api/cart/create`, { method: 'POST', ...authed(token, { productId }) })).status).toBe(200)
      const res = await fetch(`${a.url}/api/order/cash-on-delivery`, {
        method: 'POST',
        headers: { ...authed(token).headers, 'idempotency-key': `scale-order-${newId()}` },
        body: JSON.stringify({ addressId: address }),
      })
      expect(res.status).toBe(201)
    }
    const stockOnB = async (productId: string) =>
      (await json(await fetch(`${b.url}/api/product/get-product-details`, { method: 'POST', ...authed(token, { productId }) }))).data.stock
    // B's pages as a visitor without a session sees them, kept in B's page cache.
    const pages = { home: `${b.url}/`, rice: `${b.url}/product/Scale-Rice-${rice}`, salt: `${b.url}/product/Scale-Salt-${salt}` }
    for (const url of Object.values(pages)) await (await fetch(url)).text()
    const cacheStatus = async (url: string) => {
      const res = await fetch(url)
      return { status: res.headers.get('x-page-cache'), html: await res.text() }
    }
    for (const url of Object.values(pages)) expect((await cacheStatus(url)).status).toBe('hit')

    await order(rice, 1)
    // The notice reached B (its answer of the product's details follows every stock move) …
    const started = Date.now()
    while ((await stockOnB(rice)) !== 9) {
      expect(Date.now() - started).toBeLessThan(1000)
      await new Promise((r) => setTimeout(r, 10))
    }
    // … and B's pages are still the cached ones: the rice is in stock either way.
    for (const url of Object.values(pages)) expect((await cacheStatus(url)).status).toBe('hit')

    await order(salt, 2)
    const soldOut = Date.now()
    let page = await cacheStatus(pages.salt)
    while (!page.html.includes('Out of stock')) {
      expect(Date.now() - soldOut).toBeLessThan(1000)
      await new Promise((r) => setTimeout(r, 10))
      page = await cacheStatus(pages.salt)
    }
    report.crossInstanceOutOfStockPageMs = Date.now() - soldOut
    // The home page shows the salt's card, so it was rendered again too; the rice's page was not,
    // though its similar rows put in-stock products first: a product it does not show running out
    // cannot move into them.
    expect((await cacheStatus(pages.home)).html).toContain('Out of stock')
    expect((await cacheStatus(pages.rice)).status).toBe('hit')
  })

  it('a create sent to both instances with one Idempotency-Key makes one product', async () => {
    const token = await login(a.url)
    const [category] = (await json(await fetch(`${a.url}/api/category/get`))).data as { _id: string; image: string }[]
    const key = `scale-retry-${Date.now()}`
    const body = {
      name: 'Scale Retried Basil',
      image: [category!.image],
      category: [category!._id],
      subCategory: [],
      unit: '100 g',
      stock: 3,
      price: 25,
      discount: 0,
      description: 'Sent twice.',
      more_details: {},
    }
    // As a proxy retrying on the other instance a request whose answer it lost.
    const send = (url: string) =>
      fetch(`${url}/api/product/create`, {
        method: 'POST',
        ...authed(token, body),
        headers: { ...authed(token).headers, 'Idempotency-Key': key },
      })
    const answers = await Promise.all([send(a.url), send(b.url)])
    expect(answers.map((r) => r.status)).toEqual([201, 201])
    const ids = await Promise.all(answers.map(async (r) => (await json(r)).data._id as string))
    expect(ids[0]).toBe(ids[1])
    const found = (
      await json(await fetch(`${b.url}/api/product/get`, { method: 'POST', ...authed(token, { search: body.name, page: 1, limit: 10 }) }))
    ).data as { name: string }[]
    expect(found.filter((p) => p.name === body.name)).toHaveLength(1)
  })

  it('when PostgreSQL cuts every connection under load, both instances serve again within 5 s by themselves', async () => {
    const load = startLoad(nginx!.url, ['/api/category/get', '/api/subcategory/get'], 4)
    await new Promise((r) => setTimeout(r, 300))
    const cutAt = Date.now()
    await cutAllConnections()
    const recovered = await Promise.all(
      [a, b].map(async (i) => {
        while (Date.now() - cutAt < 5000) {
          const res = await fetch(`${i.url}/api/category/get`).catch(() => null)
          if (res?.ok) return Date.now() - cutAt
          await new Promise((r) => setTimeout(r, 25))
        }
        return Infinity
      }),
    )
    const statuses = await load.stop()
    report.recoveryMsAfterConnectionsCut = Math.max(...recovered)
    console.log(`answers during the cut: ${JSON.stringify(Object.fromEntries(statuses))}`)
    expect(Math.max(...recovered)).toBeLessThan(5000)
    // Both processes are still the ones started (no crash, no restart).
    expect(a.process.exitCode).toBeNull()
    expect(b.process.exitCode).toBeNull()
    // Answers during the cut are 200 or 503, never a 500 or a dropped connection.
    expect([...statuses.keys()].every((s) => s === 200 || s === 503)).toBe(true)
  })

  it('a rolling restart under load loses no request', async () => {
    // POSTs too: a proxy never resends a POST that reached an instance, so one cut off by the restart
    // would show here as a 502.
    // Sign-ins are slow on purpose (argon2, tens of ms): there are always some in flight at SIGTERM.
    const signIn = { method: 'POST' as const, path: '/api/user/login', json: { email: ADMIN.email, password: ADMIN.password } }
    const load = startLoad(
      proxy.url,
      ['/api/category/get', { method: 'POST', path: '/api/product/get', json: { page: 1, limit: 12 } }, signIn, signIn],
      8,
    )
    await new Promise((r) => setTimeout(r, 300))
    for (const [index, old] of [a, b].entries()) {
      old.process.kill('SIGTERM')
      expect(await old.exited).toBe(0)
      const fresh = startInstance(`${old.name}2`, old.port, { ...env, DATA_DIR: path.join(dataDir, old.name.toLowerCase()[0]!) })
      instances = instances.map((i) => (i === old ? fresh : i))
      await waitReady(fresh.url)
      if (index === 0) a = fresh
      else b = fresh
    }
    await new Promise((r) => setTimeout(r, 300))
    const statuses = await load.stop()
    const total = [...statuses.values()].reduce((n, c) => n + c, 0)
    const failed = total - (statuses.get(200) ?? 0)
    report.rollingRestartRequests = total
    report.rollingRestartFailed = failed
    console.log(`answers during the rolling restart: ${JSON.stringify(Object.fromEntries(statuses))}`)
    expect(failed).toBe(0)
    expect(total).toBeGreaterThan(100)
  })
})
