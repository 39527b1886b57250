/**
 * Category writes on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL), as an admin:
 * add-category, update and delete; bad bodies (400 with issues, nothing written), duplicate names
 * (409), a category in use (409), image files removed only when unused, and the storefront's read
 * answering the change at once (cache invalidated). The 401/403 matrix is in api/authz.test.ts.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { categories } from '../../db/schema.ts'
import { storedImageKeys } from '../../lib/images.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { catalogSnapshot, insertCategory, insertProduct, insertSubCategory, storedFiles, storeTestImage } from '../../testing/fixtures.ts'
import { NOT_OUR_IMAGE } from '../file/service.ts'
import { CATEGORY_ADDED, CATEGORY_DELETED, CATEGORY_NOT_FOUND, CATEGORY_UPDATED } from './service.ts'

let t: TestApp
let admin: SignedIn

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
})
afterAll(() => t?.close())

const add = (json: unknown) => t.call('category/add-category', { method: 'POST', json, token: admin.token })
const update = (json: unknown) => t.call('category/update', { method: 'PUT', json, token: admin.token })
const remove = (json: unknown) => t.call('category/delete', { method: 'DELETE', json, token: admin.token })
/** The storefront's list (through the cache). */
const listed = async () => (await t.call('category/get')).body.data as { _id: string; name: string; image: string }[]
const filesExist = (url: string) => storedImageKeys(t.deps.storage, url).every((key) => storedFiles(t.tmpDir).includes(key))
const filesGone = (url: string) => storedImageKeys(t.deps.storage, url).every((key) => !storedFiles(t.tmpDir).includes(key))
const paths = (body: { issues?: { path: string }[] }) => (body.issues ?? []).map((i) => i.path)

/** Runs `send`, expects `status`, and checks that no catalogue row and no stored file changed. */
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

describe('POST /api/category/add-category', () => {
  it('adds a category with a trimmed name and a stored image, answers it with 201, and lists it at once', async () => {
    await listed() // fills the cache: the add must invalidate it
    const image = await storeTestImage(t)
    const res = await add({ name: '  Fruits & Vegetables ', image })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ message: CATEGORY_ADDED, success: true, error: false })
    expect(Object.keys(res.body.data).sort()).toEqual(['_id', 'createdAt', 'image', 'name', 'updatedAt'])
    expect(res.body.data).toMatchObject({ name: 'Fruits & Vegetables', image })
    expect(await listed()).toContainEqual(expect.objectContaining({ _id: res.body.data._id, name: 'Fruits & Vegetables', image }))
  })

  it('refuses a name another category has, in any case, with 409 and writes nothing', async () => {
    const image = await storeTestImage(t)
    expect((await add({ name: 'Beverages', image })).status).toBe(201)
    const res = await expectNothingWritten(() => add({ name: '  bEVERAGES ', image }), 409)
    expect(res.body.message).toBe('A category named "Beverages" already exists')
  })

  it('lets only one of two simultaneous adds of one name through', async () => {
    const image = await storeTestImage(t)
    const results = await Promise.all([add({ name: 'Snacks', image }), add({ name: 'SNACKS', image })])
    expect(results.map((r) => r.status).sort()).toEqual([201, 409])
    expect((await listed()).filter((c) => c.name.toLowerCase() === 'snacks')).toHaveLength(1)
  })

  it.each([
    ['no body at all', undefined, ['image', 'name']],
    ['a missing name', { image: 'IMAGE' }, ['name']],
    ['a blank name', { name: '   ', image: 'IMAGE' }, ['name']],
    ['a name of 81 characters', { name: 'x'.repeat(81), image: 'IMAGE' }, ['name']],
    ['a name on two lines', { name: 'Dairy\nEggs', image: 'IMAGE' }, ['name']],
    ['an object as name', { name: { $ne: null }, image: 'IMAGE' }, ['name']],
    ['a number as name', { name: 42, image: 'IMAGE' }, ['name']],
    ['a missing image', { name: 'Dairy' }, ['image']],
    ['an empty image', { name: 'Dairy', image: '' }, ['image']],
    ['a javascript: url', { name: 'Dairy', image: 'javascript:alert(1)//0123456789abcdef01234567.webp' }, ['image']],
    ['a data: url', { name: 'Dairy', image: 'data:image/png;base64,iVBORw0KGgo=' }, ['image']],
    ['an image of another site', { name: 'Dairy', image: 'https://evil.example/0123456789abcdef01234567.webp' }, ['image']],
    ['a protocol-relative url', { name: 'Dairy', image: '//evil.example/0123456789abcdef01234567.webp' }, ['image']],
    ['an upload that does not exist', { name: 'Dairy', image: '/uploads/0123456789abcdef01234567.webp' }, ['image']],
    ['a path that is not a stored image', { name: 'Dairy', image: '/uploads/../../etc/passwd' }, ['image']],
    ['a list as image', { name: 'Dairy', image: ['IMAGE'] }, ['image']],
  ])('answers 400 with issues for %s and writes nothing', async (_label, body, expectedPaths) => {
    const image = await storeTestImage(t)
    const json = body && JSON.parse(JSON.stringify(body).replaceAll('IMAGE', image))
    const res = await expectNothingWritten(() => t.call('category/add-category', { method: 'POST', json, token: admin.token }), 400)
    expect(paths(res.body).sort()).toEqual(expectedPaths)
  })

  it('says why an image url is refused', async () => {
    const res = await add({ name: 'Dairy', image: '/uploads/0123456789abcdef01234567.webp' })
    expect(res.body.issues).toEqual([{ path: 'image', message: NOT_OUR_IMAGE }])
  })

  it('answers 400 for a body that is not JSON or not an object', async () => {
    await expectNothingWritten(() => t.call('category/add-category', { method: 'POST', json: '{"name":', token: admin.token }), 400)
    await expectNothingWritten(() => add(['Dairy']), 400)
  })
})

describe('PUT /api/category/update', () => {
  it('renames a category and replaces its image; the old image files go when unused; the list shows it at once', async () => {
    const oldImage = await storeTestImage(t)
    const created = (await add({ name: 'Bakery', image: oldImage })).body.data
    await listed()
    const newImage = await storeTestImage(t)
    const res = await update({ _id: created._id, name: 'Bakery & Cakes', image: newImage })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: CATEGORY_UPDATED, success: true })
    expect(res.body.data).toMatchObject({ _id: created._id, name: 'Bakery & Cakes', image: newImage })
    expect(await listed()).toContainEqual(expect.objectContaining({ _id: created._id, name: 'Bakery & Cakes', image: newImage }))
    expect(filesGone(oldImage)).toBe(true)
    expect(filesExist(newImage)).toBe(true)
  })

  it('keeps the old image files while another category uses them', async () => {
    const shared = await storeTestImage(t)
    const a = (await add({ name: 'Shared A', image: shared })).body.data
    await add({ name: 'Shared B', image: shared })
    expect((await update({ _id: a._id, name: 'Shared A', image: await storeTestImage(t) })).status).toBe(200)
    expect(filesExist(shared)).toBe(true)
  })

  it("keeps its own name in another case, but refuses another category's name with 409", async () => {
    const image = await storeTestImage(t)
    const tea = (await add({ name: 'Tea', image })).body.data
    await add({ name: 'Coffee', image })
    expect((await update({ _id: tea._id, name: 'TEA', image })).body.data.name).toBe('TEA')
    const res = await expectNothingWritten(() => update({ _id: tea._id, name: 'coffee', image }), 409)
    expect(res.body.message).toBe('A category named "Coffee" already exists')
  })

  it('answers 404 for an unknown id and 400 for bad bodies, writing nothing', async () => {
    const image = await storeTestImage(t)
    const created = (await add({ name: 'Frozen', image })).body.data
    const res = await expectNothingWritten(() => update({ _id: 'f'.repeat(24), name: 'Ghost', image }), 404)
    expect(res.body.message).toBe(CATEGORY_NOT_FOUND)
    expect(paths((await expectNothingWritten(() => update({ name: 'Frozen', image }), 400)).body)).toEqual(['_id'])
    expect(paths((await expectNothingWritten(() => update({ _id: created._id, name: 'Frozen' }), 400)).body)).toEqual(['image'])
    expect(paths((await expectNothingWritten(() => update({ _id: created._id, image }), 400)).body)).toEqual(['name'])
    expect(paths((await expectNothingWritten(() => update({ _id: { $ne: null }, name: 'Frozen', image }), 400)).body)).toEqual(['_id'])
    await expectNothingWritten(() => update({ _id: created._id, name: 'Frozen', image: 'javascript:alert(1)' }), 400)
  })
})

describe('DELETE /api/category/delete', () => {
  it('deletes an unused category, removes its image files and drops it from the list at once', async () => {
    const image = await storeTestImage(t)
    const created = (await add({ name: 'Pet Care', image })).body.data
    expect((await listed()).map((c) => c._id)).toContain(created._id)
    const res = await remove({ _id: created._id })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: CATEGORY_DELETED, success: true, data: null })
    expect(await t.db.select().from(categories).where(eq(categories.id, created._id))).toEqual([])
    expect((await listed()).map((c) => c._id)).not.toContain(created._id)
    expect(filesGone(image)).toBe(true)
  })

  it('keeps the image files when a product still shows the same picture', async () => {
    const image = await storeTestImage(t)
    const created = (await add({ name: 'Baby Care', image })).body.data
    await insertProduct(t.db, { name: 'Baby wipes', image: [image] })
    expect((await remove({ _id: created._id })).status).toBe(200)
    expect(filesExist(image)).toBe(true)
  })

  it('answers 409 saying how many sub categories and products still use it, and deletes nothing', async () => {
    const image = await storeTestImage(t)
    const used = await insertCategory(t.db, { name: 'Dairy', image })
    const other = await insertCategory(t.db, { name: 'Household', image })
    const sub = await insertSubCategory(t.db, { name: 'Milk', image, categoryIds: [used.id] })
    const bySub = await expectNothingWritten(() => remove({ _id: used.id }), 409)
    expect(bySub.body.message).toBe('Category is still used by 1 sub category: remove it from them or delete them first')

    await insertProduct(t.db, { name: 'Toned milk', categoryIds: [used.id], subCategoryIds: [sub.id] })
    await insertProduct(t.db, { name: 'Curd', categoryIds: [other.id, used.id] })
    const both = await expectNothingWritten(() => remove({ _id: used.id }), 409)
    expect(both.body.message).toBe('Category is still used by 1 sub category and 2 products: remove it from them or delete them first')

    const byProducts = await insertCategory(t.db, { name: 'Cleaning', image })
    await insertProduct(t.db, { name: 'Mop', categoryIds: [byProducts.id] })
    expect((await expectNothingWritten(() => remove({ _id: byProducts.id }), 409)).body.message).toBe(
      'Category is still used by 1 product: remove it from them or delete them first',
    )
    expect(filesExist(image)).toBe(true)
  })

  it('answers 404 for an unknown id and 400 without an id', async () => {
    expect((await expectNothingWritten(() => remove({ _id: 'f'.repeat(24) }), 404)).body.message).toBe(CATEGORY_NOT_FOUND)
    expect(paths((await expectNothingWritten(() => remove({}), 400)).body)).toEqual(['_id'])
    expect(paths((await expectNothingWritten(() => remove({ _id: ['a'] }), 400)).body)).toEqual(['_id'])
  })
})
