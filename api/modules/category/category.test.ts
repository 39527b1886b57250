/**
 * GET /api/category/get on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
 * contract's shape, the order by name, and the catalogue cache with its invalidation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory } from '../../testing/fixtures.ts'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

describe('GET /api/category/get', () => {
  it('answers an empty list on an empty catalogue', async () => {
    const res = await t.call('category/get')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: expect.any(String), error: false, success: true, data: [] })
    // Cleared so that the categories inserted next are seen (they bypass the API's writes).
    t.deps.cache.invalidate()
  })

  it('answers every category sorted by name, with _id, name, image and ISO timestamps', async () => {
    const snacks = await insertCategory(t.db, { name: 'Snacks & Branded Foods', image: '/uploads/snacks.webp' })
    await insertCategory(t.db, { name: 'Beverages' })
    await insertCategory(t.db, { name: 'Bakery, Cakes & Dairy' })

    const res = await t.call('category/get')
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.data.map((c: { name: string }) => c.name)).toEqual(['Bakery, Cakes & Dairy', 'Beverages', 'Snacks & Branded Foods'])
    const answered = res.body.data[2]
    expect(Object.keys(answered).sort()).toEqual(['_id', 'createdAt', 'image', 'name', 'updatedAt'])
    expect(answered).toMatchObject({ _id: snacks.id, name: 'Snacks & Branded Foods', image: '/uploads/snacks.webp' })
    expect(answered.createdAt).toMatch(ISO)
    expect(new Date(answered.createdAt).getTime()).toBe(snacks.createdAt.getTime())
    expect(answered.updatedAt).toMatch(ISO)
  })

  it('breaks ties between equal names by id, the same way every time', async () => {
    const a = await insertCategory(t.db, { name: 'Zeta' })
    const b = await insertCategory(t.db, { name: 'Zeta' })
    t.deps.cache.invalidate()
    const res = await t.call('category/get')
    const zetas = res.body.data.filter((c: { name: string }) => c.name === 'Zeta').map((c: { _id: string }) => c._id)
    expect(zetas).toEqual([a.id, b.id].sort())
  })

  it('also answers POST (the route takes no body)', async () => {
    const res = await t.call('category/get', { method: 'POST' })
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(5)
  })

  it('serves a repeated read from the cache until the cache is invalidated', async () => {
    const first = await t.call('category/get')
    const hits = t.deps.cache.stats.hits
    const second = await t.call('category/get')
    expect(t.deps.cache.stats.hits).toBe(hits + 1)
    expect(second.body).toEqual(first.body)

    await insertCategory(t.db, { name: 'Aardvark Foods' })
    const stale = await t.call('category/get')
    expect(stale.body.data.map((c: { name: string }) => c.name)).not.toContain('Aardvark Foods')

    t.deps.cache.invalidate()
    const fresh = await t.call('category/get')
    expect(fresh.body.data[0].name).toBe('Aardvark Foods')
  })
})
