/**
 * Sub category writes on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL), as an
 * admin: create (categories as ids or `{ _id, name }` objects), update (links replaced in one
 * transaction), delete (409 while a product uses it); bad bodies and unknown category ids (400 with
 * issues, nothing written); image files removed only when unused; the list answering the change at
 * once (cache invalidated). The 401/403 matrix is in api/authz.test.ts.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subCategories, subCategoryCategories, type Category } from '../../db/schema.ts'
import { storedImageKeys } from '../../lib/images.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { catalogSnapshot, insertCategory, insertProduct, storedFiles, storeTestImage } from '../../testing/fixtures.ts'
import { SUB_CATEGORY_CREATED, SUB_CATEGORY_DELETED, SUB_CATEGORY_NOT_FOUND, SUB_CATEGORY_UPDATED } from './service.ts'

let t: TestApp
let admin: SignedIn
let dairy: Category
let snacks: Category
let frozen: Category
let image: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  image = await storeTestImage(t)
  dairy = await insertCategory(t.db, { name: 'Dairy', image })
  snacks = await insertCategory(t.db, { name: 'Snacks', image })
  frozen = await insertCategory(t.db, { name: 'Frozen', image })
})
afterAll(() => t?.close())

const create = (json: unknown) => t.call('subcategory/create', { method: 'POST', json, token: admin.token })
const update = (json: unknown) => t.call('subcategory/update', { method: 'PUT', json, token: admin.token })
const remove = (json: unknown) => t.call('subcategory/delete', { method: 'DELETE', json, token: admin.token })
type Listed = { _id: string; name: string; image: string; category: { _id: string; name: string }[] }
const listed = async () => (await t.call('subcategory/get', { method: 'POST' })).body.data as Listed[]
const ref = (c: Category) => ({ _id: c.id, name: c.name, image: c.image })
const filesExist = (url: string) => storedImageKeys(t.deps.storage, url).every((key) => storedFiles(t.tmpDir).includes(key))
const filesGone = (url: string) => storedImageKeys(t.deps.storage, url).every((key) => !storedFiles(t.tmpDir).includes(key))
const paths = (body: { issues?: { path: string }[] }) => (body.issues ?? []).map((i) => i.path)
const UNKNOWN = 'f'.repeat(24)

async function expectNothingWritten(send: () => Promise<{ status: number; body: any }>, status: number) {
  const before = await catalogSnapshot(t.db)
  const files = storedFiles(t.tmpDir)
  const res = await send()
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body).toMatchObject({ success: false, error: true, message: expect.any(String) })
  expect(await catalogSnapshot(t.db)).toEqual(before)
  expect(storedFiles(t.tmpDir)).toEqual(files)
  return res
}

describe('POST /api/subcategory/create', () => {
  it('creates a sub category from category ids, answers it expanded with 201, and lists it at once', async () => {
    await listed() // fills the cache: the create must invalidate it
    const res = await create({ name: ' Paneer & Tofu ', image, category: [dairy.id] })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ message: SUB_CATEGORY_CREATED, success: true, error: false })
    expect(Object.keys(res.body.data).sort()).toEqual(['_id', 'category', 'createdAt', 'image', 'name', 'updatedAt'])
    expect(res.body.data).toMatchObject({ name: 'Paneer & Tofu', image, category: [ref(dairy)] })
    expect(await listed()).toContainEqual(expect.objectContaining({ _id: res.body.data._id, category: [ref(dairy)] }))
  })

  it("accepts the original client's { _id, name } objects, keeps their order and drops repeats", async () => {
    const res = await create({
      name: 'Chocolates',
      image,
      category: [{ _id: snacks.id, name: 'Snacks' }, dairy.id, { _id: snacks.id, name: 'again' }],
    })
    expect(res.status).toBe(201)
    expect(res.body.data.category).toEqual([ref(snacks), ref(dairy)])
    const links = await t.db.select().from(subCategoryCategories).where(eq(subCategoryCategories.subCategoryId, res.body.data._id))
    expect(links.sort((a, b) => a.position - b.position).map((l) => [l.categoryId, l.position])).toEqual([
      [snacks.id, 0],
      [dairy.id, 1],
    ])
  })

  it('answers 400 naming each unknown category id, and writes nothing', async () => {
    const res = await expectNothingWritten(() => create({ name: 'Ghost shelf', image, category: [dairy.id, UNKNOWN, 'nope'] }), 400)
    expect(res.body.issues).toEqual([
      { path: 'category.1', message: `Unknown category: ${UNKNOWN}` },
      { path: 'category.2', message: 'Unknown category: nope' },
    ])
  })

  it.each([
    ['no body', undefined, ['category', 'image', 'name']],
    ['a missing category', { name: 'Milk', image: 'IMAGE' }, ['category']],
    ['an empty category list', { name: 'Milk', image: 'IMAGE', category: [] }, ['category']],
    ['one id instead of a list', { name: 'Milk', image: 'IMAGE', category: 'DAIRY' }, ['category']],
    ['a query object in the list', { name: 'Milk', image: 'IMAGE', category: [{ $ne: null }] }, ['category.0']],
    ['an object without _id', { name: 'Milk', image: 'IMAGE', category: [{ name: 'Dairy' }] }, ['category.0']],
    ['a number in the list', { name: 'Milk', image: 'IMAGE', category: [42] }, ['category.0']],
    ['an object as _id', { name: 'Milk', image: 'IMAGE', category: [{ _id: { $gt: '' } }] }, ['category.0']],
    ['a missing name', { image: 'IMAGE', category: ['DAIRY'] }, ['name']],
    ['an object as name', { name: { $ne: null }, image: 'IMAGE', category: ['DAIRY'] }, ['name']],
    ['a missing image', { name: 'Milk', category: ['DAIRY'] }, ['image']],
    ['a javascript: image', { name: 'Milk', image: 'javascript:alert(1)', category: ['DAIRY'] }, ['image']],
    ['an image never uploaded', { name: 'Milk', image: '/uploads/0123456789abcdef01234567.webp', category: ['DAIRY'] }, ['image']],
  ])('answers 400 with issues for %s and writes nothing', async (_label, body, expectedPaths) => {
    const json = body && JSON.parse(JSON.stringify(body).replaceAll('IMAGE', image).replaceAll('DAIRY', dairy.id))
    const res = await expectNothingWritten(() => create(json), 400)
    expect(paths(res.body).sort(), JSON.stringify(res.body.issues)).toEqual(expectedPaths)
  })
})

describe('PUT /api/subcategory/update', () => {
  it('replaces name, image and every category link; the list shows it at once; the old image files go', async () => {
    const oldImage = await storeTestImage(t)
    const created = (await create({ name: 'Ice Cream', image: oldImage, category: [dairy.id, snacks.id] })).body.data
    await listed()
    const newImage = await storeTestImage(t)
    const res = await update({
      _id: created._id,
      name: 'Ice Creams & Desserts',
      image: newImage,
      category: [{ _id: frozen.id, name: 'Frozen' }],
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: SUB_CATEGORY_UPDATED, success: true })
    expect(res.body.data).toMatchObject({ _id: created._id, name: 'Ice Creams & Desserts', image: newImage, category: [ref(frozen)] })
    const links = await t.db.select().from(subCategoryCategories).where(eq(subCategoryCategories.subCategoryId, created._id))
    expect(links.map((l) => l.categoryId)).toEqual([frozen.id])
    expect((await listed()).find((s) => s._id === created._id)).toMatchObject({ name: 'Ice Creams & Desserts', category: [ref(frozen)] })
    expect(filesGone(oldImage)).toBe(true)
    expect(filesExist(newImage)).toBe(true)
  })

  it('keeps the old links when a new category id is unknown (one transaction), with 400', async () => {
    const created = (await create({ name: 'Butter', image, category: [dairy.id] })).body.data
    const res = await expectNothingWritten(() => update({ _id: created._id, name: 'Butter', image, category: [frozen.id, UNKNOWN] }), 400)
    expect(res.body.issues).toEqual([{ path: 'category.1', message: `Unknown category: ${UNKNOWN}` }])
    expect((await listed()).find((s) => s._id === created._id)?.category).toEqual([ref(dairy)])
  })

  it('answers 404 for an unknown id and 400 when a field is missing, writing nothing', async () => {
    const created = (await create({ name: 'Ghee', image, category: [dairy.id] })).body.data
    const res = await expectNothingWritten(() => update({ _id: UNKNOWN, name: 'Ghee', image, category: [dairy.id] }), 404)
    expect(res.body.message).toBe(SUB_CATEGORY_NOT_FOUND)
    expect(paths((await expectNothingWritten(() => update({ _id: created._id, name: 'Ghee', image }), 400)).body)).toEqual(['category'])
    expect(paths((await expectNothingWritten(() => update({ name: 'Ghee', image, category: [dairy.id] }), 400)).body)).toEqual(['_id'])
    expect(
      paths((await expectNothingWritten(() => update({ _id: created._id, name: '', image, category: [dairy.id] }), 400)).body),
    ).toEqual(['name'])
  })
})

describe('DELETE /api/subcategory/delete', () => {
  it('deletes an unused sub category with its links and image files; the list drops it at once', async () => {
    const own = await storeTestImage(t)
    const created = (await create({ name: 'Yoghurt', image: own, category: [dairy.id, snacks.id] })).body.data
    expect((await listed()).map((s) => s._id)).toContain(created._id)
    const res = await remove({ _id: created._id })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: SUB_CATEGORY_DELETED, success: true, data: null })
    expect(await t.db.select().from(subCategories).where(eq(subCategories.id, created._id))).toEqual([])
    expect(await t.db.select().from(subCategoryCategories).where(eq(subCategoryCategories.subCategoryId, created._id))).toEqual([])
    expect((await listed()).map((s) => s._id)).not.toContain(created._id)
    expect(filesGone(own)).toBe(true)
    // The categories' shared image is still used by them.
    expect(filesExist(image)).toBe(true)
  })

  it('answers 409 while products use it, and deletes nothing', async () => {
    const created = (await create({ name: 'Cheese', image, category: [dairy.id] })).body.data
    await insertProduct(t.db, { name: 'Cheddar', categoryIds: [dairy.id], subCategoryIds: [created._id] })
    await insertProduct(t.db, { name: 'Mozzarella', categoryIds: [dairy.id], subCategoryIds: [created._id] })
    const res = await expectNothingWritten(() => remove({ _id: created._id }), 409)
    expect(res.body.message).toBe('Sub category is still used by 2 products: remove it from them or delete them first')
  })

  it('answers 404 for an unknown id and 400 without an id', async () => {
    expect((await expectNothingWritten(() => remove({ _id: UNKNOWN }), 404)).body.message).toBe(SUB_CATEGORY_NOT_FOUND)
    expect(paths((await expectNothingWritten(() => remove({}), 400)).body)).toEqual(['_id'])
  })
})
