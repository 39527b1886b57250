/**
 * A property-based fuzzer over every API route (fast-check): malformed bodies of every kind — wrong
 * types, huge and deeply nested values, NUL and control characters, unpaired surrogates, prototype
 * keys, extreme and fractional numbers, invalid JSON, wrong content types, empty bodies, unknown
 * methods — sent as a visitor, a shopper and an admin. The routes are read from the Hono app itself,
 * so an endpoint added later is fuzzed without touching this file.
 *
 * It asserts, for every input: no 5xx; no secret in the answer (an argon2 hash, a token, another
 * user's email); and, at the end, that the API still answers, that the captured log holds no secret,
 * and that the catalogue's invariants hold (every product has a category, no link rows point at
 * nothing).
 *
 * Seeded and reproducible: `FUZZ_SEED` (default 20261122) and `FUZZ_RUNS` (default 3000) choose the
 * run; `npm run fuzz -- --runs 50000` is the long run. A failure prints fast-check's counterexample
 * and the seed and path to replay it.
 */
import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from './db/query.ts'
import { createRateLimits } from './lib/rate-limit.ts'
import { createTestApp, type TestApp } from './testing/app.ts'
import { captureLog } from './testing/log-capture.ts'
import { createAdmin, createShopper } from './testing/auth.ts'
import { insertCategory, insertProduct, insertSubCategory } from './testing/fixtures.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

const { logger, lines: logLines } = captureLog()

let t: TestApp
let tokens: { visitor: undefined; shopper: string; admin: string }
/** Secrets that must never appear in an answer or the log. */
let secrets: string[]
let routes: { method: string; path: string }[]
let ids: string[]

beforeAll(async () => {
  const roomy = { points: 1_000_000, duration: 60 }
  t = await createTestApp({
    logger,
    jsonBodyMaxBytes: 64 * 1024,
    rateLimits: createRateLimits({
      loginFailByIp: roomy,
      loginFailByEmailIp: roomy,
      registerByIp: roomy,
      otpByIp: roomy,
      otpCooldownByEmail: roomy,
      otpVerifyByIp: roomy,
    }),
  })
  const shopper = await createShopper(t, { email: 'fuzz-shopper@example.com' })
  const admin = await createAdmin(t, { email: 'fuzz-admin@example.com' })
  const other = await createShopper(t, { email: 'someone-else@example.com' })
  tokens = { visitor: undefined, shopper: shopper.token, admin: admin.token }
  secrets = [shopper.user.passwordHash!, admin.user.passwordHash!, other.user.passwordHash!, other.user.email!, admin.token]
  const category = await insertCategory(t.db, { name: 'Dairy' })
  const sub = await insertSubCategory(t.db, { name: 'Milk', categoryIds: [category.id] })
  const product = await insertProduct(t.db, { name: 'Toned Milk', categoryIds: [category.id], subCategoryIds: [sub.id] })
  ids = [category.id, sub.id, product.id, shopper.user.id]
  const seen = new Set<string>()
  routes = t.app.routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`))
    .map((r) => ({ method: r.method, path: r.path }))
}, 60_000)
afterAll(() => t?.close())

/** Text that tries the edges: control characters, unpaired surrogates, prototype words, huge. */
const nastyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udc00x',
    '\u001b[31m',
    '__proto__',
    'constructor',
    '{"$ne":null}',
    '../../etc/passwd',
    '<script>',
    "'; drop table products; --",
    '',
  ),
  fc.string({ minLength: 300, maxLength: 3000 }),
)
/** Numbers at the edges: fractions, exponents, huge, negative, not finite (as text). */
const nastyNumber = fc.oneof(
  fc.double({ noNaN: false }),
  fc.constantFrom(0, -1, 1e-9, 1e-7, 99.9999999999, 2 ** 53, -(2 ** 63), 1e308, 0.1 + 0.2),
  fc.constantFrom('1e-7', '0.0000001', 'NaN', 'Infinity', '-0', '0x10', '1,000'),
  fc.integer(),
)
const idLike = fc
  .oneof(fc.constantFrom(...['x', '0'.repeat(24)]), fc.constant(null))
  .chain((fixed) => fc.oneof(fc.constant(fixed), fc.constantFrom(...(ids.length ? ids : ['x']))))
/** Any JSON value, with the nasty leaves mixed in and prototype keys among the object keys. */
const nastyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyText,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    idLike,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom('__proto__', 'constructor', 'prototype', '_id', 'name', 'image', 'page', 'limit'),
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value
/** A body shaped like the API's own: its usual field names with nasty values. */
const FIELDS = [
  '_id',
  'name',
  'email',
  'password',
  'confirmPassword',
  'image',
  'category',
  'subCategory',
  'unit',
  'stock',
  'price',
  'discount',
  'description',
  'more_details',
  'page',
  'limit',
  'search',
  'productId',
  'categoryId',
  'subCategoryId',
  'id',
  'otp',
  'newPassword',
  'refreshToken',
  'qty',
  'addressId',
  'orderId',
  'status',
]
const shapedBody = fc.dictionary(fc.constantFrom(...FIELDS), nastyValue, { maxKeys: 8 })

/** A whole request: route, who sends it, and a body in one of many malformed encodings. */
const requestArb = fc.record({
  route: fc.nat(),
  who: fc.constantFrom('visitor', 'shopper', 'admin') as fc.Arbitrary<keyof typeof tokens>,
  method: fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  ),
  body: fc.oneof(
    { weight: 5, arbitrary: shapedBody.map((v) => ({ type: 'application/json', text: JSON.stringify(v) })) },
    { weight: 2, arbitrary: nastyValue.map((v) => ({ type: 'application/json', text: JSON.stringify(v) ?? 'null' })) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ({ type: 'application/json', text })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '{"a":', '[1,2', 'nul', '{"__proto__":{"isAdmin":true}}', `${'['.repeat(3000)}${']'.repeat(3000)}`)
        .map((text) => ({ type: 'application/json', text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', ''),
          fc.string({ maxLength: 100 }),
        )
        .map(([type, text]) => ({ type, text })),
    },
    { weight: 1, arbitrary: fc.constant({ type: '', text: '' }) },
  ),
})

type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never

async function send(req: FuzzRequest) {
  const route = routes[req.route % routes.length]
  const method = req.method ?? route.method
  const headers = new Headers()
  // Signing out would end the session the rest of the run needs: logout is fuzzed as a visitor.
  const token = route.path.endsWith('/logout') ? undefined : tokens[req.who]
  if (token) headers.set('Authorization', `Bearer ${token}`)
  if (req.body.type) headers.set('Content-Type', req.body.type)
  const hasBody = !['GET', 'HEAD'].includes(method) && req.body.text !== ''
  const res = await t.app.request(route.path, { method, headers, body: hasBody ? req.body.text : undefined })
  return { route: `${method} ${route.path}`, status: res.status, text: await res.text() }
}

describe('fuzzing every API route', () => {
  it(`answers ${RUNS} malformed requests without a 5xx or a leaked secret`, async () => {
    expect(routes.length).toBeGreaterThan(20)
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        const res = await send(req)
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        expect(res.status, `${res.route} answered ${res.status}: ${res.text.slice(0, 300)}`).toBeLessThan(500)
        for (const secret of secrets) expect(res.text.includes(secret), `${res.route} leaked a secret`).toBe(false)
        expect(res.text).not.toMatch(/\$argon2id\$/)
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    console.log(
      `fuzz: ${RUNS} requests over ${routes.length} routes, seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    )
  }, 600_000)

  it('leaves the API healthy, the log clean and the catalogue consistent', async () => {
    expect((await t.call('category/get')).status).toBe(200)
    const log = logLines.join('')
    expect(log).not.toMatch(/\$argon2/)
    for (const secret of secrets) expect(log.includes(secret)).toBe(false)
    const [orphans] = await queryRows<{ products_without_category: number; dangling_links: number }>(
      t.db,
      sql`select
            (select count(*)::int from products p where not exists (select 1 from product_categories pc where pc.product_id = p.id)) as products_without_category,
            (select count(*)::int from product_sub_categories psc where not exists (select 1 from products p where p.id = psc.product_id)) as dangling_links`,
    )
    expect(orphans).toEqual({ products_without_category: 0, dangling_links: 0 })
  })
})
