/**
 * POST /api/subcategory/get on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * categories expanded in the admin's order, sorted by name, and the catalogue cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Category } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { insertCategory, insertSubCategory } from '../../testing/fixtures.ts'

let t: TestApp
let dairy: Category
let snacks: Category

beforeAll(async () => {
  t = await createTestApp()
  dairy = await insertCategory(t.db, { name: 'Dairy', image: '/uploads/dairy.webp' })
  snacks = await insertCategory(t.db, { name: 'Snacks', image: '/uploads/snacks.webp' })
  await insertSubCategory(t.db, { name: 'Paneer & Tofu', categoryIds: [dairy.id] })
  // Listed under two categories, Snacks first: the answer keeps that order, not the names' order.
  await insertSubCategory(t.db, { name: 'Chocolates', image: '/uploads/chocolates.webp', categoryIds: [snacks.id, dairy.id] })
  await insertSubCategory(t.db, { name: 'Unfiled', categoryIds: [] })
})
afterAll(() => t?.close())

describe('POST /api/subcategory/get', () => {
  it('answers every sub category by name with category expanded to { _id, name, image }', async () => {
    const res = await t.call('subcategory/get', { method: 'POST' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ error: false, success: true, message: expect.any(String) })
    const data = res.body.data
    expect(data.map((s: { name: string }) => s.name)).toEqual(['Chocolates', 'Paneer & Tofu', 'Unfiled'])
    expect(Object.keys(data[0]).sort()).toEqual(['_id', 'category', 'createdAt', 'image', 'name', 'updatedAt'])
    expect(data[0].image).toBe('/uploads/chocolates.webp')
    expect(data[0].category).toEqual([
      { _id: snacks.id, name: 'Snacks', image: '/uploads/snacks.webp' },
      { _id: dairy.id, name: 'Dairy', image: '/uploads/dairy.webp' },
    ])
    expect(data[1].category).toEqual([{ _id: dairy.id, name: 'Dairy', image: '/uploads/dairy.webp' }])
    expect(data[2].category).toEqual([])
    expect(data[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })

  it('also answers GET, and ignores a body it does not need', async () => {
    const get = await t.call('subcategory/get')
    expect(get.status).toBe(200)
    expect(get.body.data).toHaveLength(3)
    const post = await t.call('subcategory/get', { json: { anything: { $ne: null } } })
    expect(post.status).toBe(200)
    expect(post.body.data).toEqual(get.body.data)
  })

  it('serves a repeated read from the cache until the cache is invalidated', async () => {
    await t.call('subcategory/get', { method: 'POST' })
    const hits = t.deps.cache.stats.hits
    await t.call('subcategory/get', { method: 'POST' })
    expect(t.deps.cache.stats.hits).toBe(hits + 1)

    await insertSubCategory(t.db, { name: 'Butter & Ghee', categoryIds: [dairy.id] })
    const stale = await t.call('subcategory/get', { method: 'POST' })
    expect(stale.body.data).toHaveLength(3)

    t.deps.cache.invalidate()
    const fresh = await t.call('subcategory/get', { method: 'POST' })
    expect(fresh.body.data.map((s: { name: string }) => s.name)).toEqual(['Butter & Ghee', 'Chocolates', 'Paneer & Tofu', 'Unfiled'])
  })
})
