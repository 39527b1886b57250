/**
 * Idempotent creates (api/lib/idempotency.ts) through the real endpoints, on a fresh database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL): a retried create with the same Idempotency-Key makes
 * one row and answers the first result, also when both requests arrive at once; a key reused for
 * another body is a 422 that writes nothing; a failed create does not burn its key; keys are per
 * admin and per endpoint, expire after a day, and a request without one behaves as it always did.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app.ts'
import { createAdmin, type SignedIn } from '../testing/auth.ts'
import { catalogSnapshot, insertCategory, insertSubCategory, storeTestImage } from '../testing/fixtures.ts'
import { queryRows } from '../db/query.ts'
import { IDEMPOTENT_REPLAYED_HEADER, KEY_REUSED } from './idempotency.ts'

let t: TestApp
let admin: SignedIn
let otherAdmin: SignedIn
let image: string
let categoryId: string
let subCategoryId: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  otherAdmin = await createAdmin(t, { email: 'second-admin@example.com', name: 'Second Admin' })
  image = await storeTestImage(t)
  categoryId = (await insertCategory(t.db, { name: 'Dairy', image })).id
  subCategoryId = (await insertSubCategory(t.db, { name: 'Milk', image, categoryIds: [categoryId] })).id
})
afterAll(() => t?.close())

let keySeq = 0
const newKey = () => `test-key-${Date.now()}-${++keySeq}`
const send = (path: string, json: unknown, key?: string, who: SignedIn = admin) =>
  t.call(path, { method: 'POST', json, token: who.token, headers: key === undefined ? {} : { 'Idempotency-Key': key } })
const count = async (table: 'categories' | 'sub_categories' | 'products', name: string) => {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from ${sql.identifier(table)} where name = ${name}`)
  return row!.n
}

const endpoints = [
  { path: 'category/add-category', table: 'categories' as const, body: (name: string) => ({ name, image }) },
  { path: 'subcategory/create', table: 'sub_categories' as const, body: (name: string) => ({ name, image, category: [categoryId] }) },
  {
    path: 'product/create',
    table: 'products' as const,
    body: (name: string) => ({
      name,
      image: [image],
      category: [categoryId],
      subCategory: [subCategoryId],
      unit: '500 ml',
      stock: 5,
      price: 30,
      discount: 0,
      description: 'Fresh.',
      more_details: {},
    }),
  },
]

describe.each(endpoints)('POST /api/$path with an Idempotency-Key', ({ path, table, body }) => {
  it('a retry makes one row and answers the first result, marked as a replay', async () => {
    const key = newKey()
    const name = `Retried ${path} ${key}`
    const first = await send(path, body(name), key)
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    expect(first.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBeNull()
    const again = await send(path, body(name), key)
    expect(again.status).toBe(201)
    expect(again.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBe('true')
    expect(again.body.data).toEqual(first.body.data)
    expect(await count(table, name)).toBe(1)
  })

  it('two identical requests at once make one row', async () => {
    const key = newKey()
    const name = `Concurrent ${path} ${key}`
    const answers = await Promise.all([send(path, body(name), key), send(path, body(name), key), send(path, body(name), key)])
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201])
    expect(new Set(answers.map((a) => a.body.data._id)).size).toBe(1)
    expect(answers.filter((a) => a.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true')).toHaveLength(2)
    expect(await count(table, name)).toBe(1)
  })

  it('a key reused for another body is refused with 422 and writes nothing', async () => {
    const key = newKey()
    expect((await send(path, body(`First ${key}`), key)).status).toBe(201)
    const before = await catalogSnapshot(t.db)
    const reused = await send(path, body(`Second ${key}`), key)
    expect(reused.status).toBe(422)
    expect(reused.body).toMatchObject({ success: false, error: true, message: KEY_REUSED })
    expect(await catalogSnapshot(t.db)).toEqual(before)
  })

  it('the same key is a new request for another admin', async () => {
    const key = newKey()
    const name = `Per admin ${path} ${key}`
    const mine = await send(path, body(name), key)
    expect(mine.status).toBe(201)
    // Categories refuse a second "name": the other admin's create must run (409), not replay mine.
    const theirs = await send(path, body(table === 'categories' ? `${name} too` : name), key, otherAdmin)
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBeNull()
    expect(theirs.body.data._id).not.toBe(mine.body.data._id)
  })

  it('a key older than a day counts as new', async () => {
    const key = newKey()
    const name = `Expired ${path} ${key}`
    const first = await send(path, body(name), key)
    expect(first.status).toBe(201)
    await t.db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${key}`)
    const later = await send(path, body(table === 'categories' ? `${name} later` : name), key)
    expect(later.status).toBe(201)
    expect(later.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBeNull()
    expect(later.body.data._id).not.toBe(first.body.data._id)
  })
})

describe('idempotency keys: failures and requests without a key', () => {
  it('a create that failed does not keep its key: the same request runs again once it can succeed', async () => {
    const taken = await insertCategory(t.db, { name: 'Frozen', image })
    const key = newKey()
    const refused = await send('category/add-category', { name: 'frozen', image }, key)
    expect(refused.status).toBe(409)
    await t.db.execute(sql`delete from categories where id = ${taken.id}`)
    const retried = await send('category/add-category', { name: 'frozen', image }, key)
    expect(retried.status).toBe(201)
    expect(retried.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBeNull()
  })

  it('refuses a malformed key with 400 on idempotencyKey and writes nothing', async () => {
    const before = await catalogSnapshot(t.db)
    for (const [i, key] of ['short', 'has space in it', 'x'.repeat(129), 'semi;colon-key'].entries()) {
      const res = await send('subcategory/create', { name: `Bad key ${i}`, image, category: [categoryId] }, key)
      expect(res.status, key).toBe(400)
      expect(res.body.issues).toEqual([{ path: 'idempotencyKey', message: expect.any(String) }])
    }
    expect(await catalogSnapshot(t.db)).toEqual(before)
  })

  it('without a key every request creates, as for the original client', async () => {
    const name = 'No key sub category'
    expect((await send('subcategory/create', { name, image, category: [categoryId] })).status).toBe(201)
    expect((await send('subcategory/create', { name, image, category: [categoryId] })).status).toBe(201)
    expect(await count('sub_categories', name)).toBe(2)
  })

  it('removes keys older than a day as new ones are claimed', async () => {
    const stale = newKey()
    expect((await send('subcategory/create', { name: `Stale ${stale}`, image, category: [categoryId] }, stale)).status).toBe(201)
    await t.db.execute(sql`update idempotency_keys set created_at = now() - interval '2 days' where key = ${stale}`)
    expect((await send('subcategory/create', { name: `Fresh ${stale}`, image, category: [categoryId] }, newKey())).status).toBe(201)
    const left = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from idempotency_keys where key = ${stale}`)
    expect(left[0]!.n).toBe(0)
  })
})
