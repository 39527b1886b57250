/**
 * Product writes on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL), as an admin:
 * create (numbers as JSON numbers or numeric strings), update-product-details (partial, links
 * replaced), delete-product; bad bodies of every kind (400 with issues, nothing written); the
 * storefront's reads (product/get, get-product-by-category, details) answering each change at once
 * (cache invalidated); image files removed only when no other product uses them. The 401/403
 * matrix is in api/authz.test.ts.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productCategories, products, productSubCategories, type Category, type SubCategory } from '../../db/schema.ts'
import { storedImageKeys } from '../../lib/images.ts'
import { wireDiscount } from '../../lib/money.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { catalogSnapshot, insertCategory, insertSubCategory, storedFiles, storeTestImage } from '../../testing/fixtures.ts'
import { PRODUCT_CREATED, PRODUCT_DELETED, PRODUCT_NOT_FOUND, PRODUCT_UPDATED } from './service.ts'

let t: TestApp
let admin: SignedIn
let dairy: Category
let snacks: Category
let paneerTofu: SubCategory
let chips: SubCategory
let image: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  image = await storeTestImage(t)
  dairy = await insertCategory(t.db, { name: 'Dairy', image })
  snacks = await insertCategory(t.db, { name: 'Snacks', image })
  paneerTofu = await insertSubCategory(t.db, { name: 'Paneer & Tofu', image, categoryIds: [dairy.id] })
  chips = await insertSubCategory(t.db, { name: 'Chips', image, categoryIds: [snacks.id] })
})
afterAll(() => t?.close())

const create = (json: unknown) => t.call('product/create', { method: 'POST', json, token: admin.token })
const update = (json: unknown) => t.call('product/update-product-details', { method: 'PUT', json, token: admin.token })
const remove = (json: unknown) => t.call('product/delete-product', { method: 'DELETE', json, token: admin.token })
type Answered = { _id: string; name: string; price: number; category: { _id: string }[]; subCategory: { _id: string }[] }
/** The storefront's reads, through the cache. */
const allProducts = async () => (await t.call('product/get', { json: { page: 1, limit: 100 } })).body.data as Answered[]
const inCategory = async (id: string) => (await t.call('product/get-product-by-category', { json: { id } })).body.data as Answered[]
const details = (productId: string) => t.call('product/get-product-details', { json: { productId } })
const filesExist = (url: string) => storedImageKeys(t.deps.storage, url).every((key) => storedFiles(t.tmpDir).includes(key))
const filesGone = (url: string) => storedImageKeys(t.deps.storage, url).every((key) => !storedFiles(t.tmpDir).includes(key))
const paths = (body: { issues?: { path: string }[] }) => (body.issues ?? []).map((i) => i.path)
const UNKNOWN = 'f'.repeat(24)

/** A valid create body (strings for the numbers, as the original client sends them). */
async function validBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Malai Paneer',
    image: [await storeTestImage(t)],
    category: [{ _id: dairy.id, name: 'Dairy' }],
    subCategory: [{ _id: paneerTofu.id, name: 'Paneer & Tofu' }],
    unit: '200 g',
    stock: '25',
    price: '95.50',
    discount: '12',
    description: 'Soft fresh paneer.\nKeep refrigerated.',
    more_details: { Brand: 'Amul', 'Shelf Life': '7 days' },
    ...overrides,
  }
}

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

describe('POST /api/product/create', () => {
  it('creates a product from string numbers and objects, answers it expanded with 201, and every listing shows it at once', async () => {
    // Fill the caches: the create must invalidate them.
    await allProducts()
    await inCategory(dairy.id)
    const body = await validBody()
    const res = await create(body)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body).toMatchObject({ message: PRODUCT_CREATED, success: true, error: false })
    expect(res.body.data).toMatchObject({
      name: 'Malai Paneer',
      image: body.image,
      category: [{ _id: dairy.id, name: 'Dairy', image }],
      subCategory: [{ _id: paneerTofu.id, name: 'Paneer & Tofu', image }],
      unit: '200 g',
      stock: 25,
      price: 95.5,
      // 12 % off ₹95.50 is ₹84.04; the answer's discount is the one the original client's
      // arithmetic needs (docs/commerce-api.md, "The discount on the wire").
      sellingPrice: 84.04,
      discount: wireDiscount(9550, 8404),
      description: 'Soft fresh paneer.\nKeep refrigerated.',
      more_details: { Brand: 'Amul', 'Shelf Life': '7 days' },
      publish: true,
    })
    const id = res.body.data._id
    expect((await allProducts()).map((p) => p._id)).toContain(id)
    expect((await inCategory(dairy.id)).map((p) => p._id)).toContain(id)
    expect((await details(id)).body.data).toEqual(res.body.data)
  })

  it('accepts JSON numbers, ids as plain strings, no sub category and no extra fields; trims and drops repeats', async () => {
    const picture = await storeTestImage(t)
    const res = await create({
      name: '  Salted Chips ',
      image: [picture, picture],
      category: [snacks.id, snacks.id],
      unit: '  52 g ',
      stock: 0,
      price: 20,
      discount: 0,
      description: ' Crunchy. ',
      more_details: { ' Brand ': ' Lays ', Weight: 52 },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.data).toMatchObject({
      name: 'Salted Chips',
      image: [picture],
      category: [{ _id: snacks.id }],
      subCategory: [],
      unit: '52 g',
      stock: 0,
      price: 20,
      discount: 0,
      description: 'Crunchy.',
      more_details: { Brand: 'Lays', Weight: '52' },
    })
  })

  it('keeps a price with two decimals exactly and accepts the bounds (discount 100, price 1,00,00,000)', async () => {
    const res = await create(await validBody({ price: 1.15, discount: '100', stock: 1_000_000 }))
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.data).toMatchObject({ price: 1.15, sellingPrice: 0, stock: 1_000_000 })
    expect((await create(await validBody({ price: '10000000' }))).body.data.price).toBe(10_000_000)
  })

  it.each([['name'], ['image'], ['category'], ['unit'], ['stock'], ['price'], ['discount'], ['description']])(
    'answers 400 with an issue on %s when it is missing, and writes nothing',
    async (field) => {
      const { [field as 'name']: _, ...rest } = await validBody()
      const res = await expectNothingWritten(() => create(rest), 400)
      expect(paths(res.body)).toEqual([field])
    },
  )

  it.each([
    ['a price that is not a number', { price: 'abc' }, 'price', 'Price must be a number'],
    ['an empty price', { price: '' }, 'price', 'Price must be a number'],
    ['a price in exponent notation', { price: '1e3' }, 'price', 'Price must be a number'],
    ['a negative price', { price: -5 }, 'price', 'Price must be more than 0'],
    ['a price of 0', { price: '0' }, 'price', 'Price must be more than 0'],
    ['a price over one crore', { price: 10_000_000.01 }, 'price', 'Price cannot be more than 1,00,00,000'],
    ['a price with three decimals', { price: '12.345' }, 'price', 'Price can have at most 2 decimal places'],
    ['an object as price', { price: { $gt: 0 } }, 'price', 'Price must be a number'],
    ['a boolean as price', { price: true }, 'price', 'Price must be a number'],
    ['a negative stock', { stock: -1 }, 'stock', 'Stock cannot be negative'],
    ['a negative stock as text', { stock: '-3' }, 'stock', 'Stock cannot be negative'],
    ['a fractional stock', { stock: '12.5' }, 'stock', 'Stock must be a whole number'],
    ['a stock of letters', { stock: 'ten' }, 'stock', 'Stock must be a number'],
    ['a discount over 100', { discount: 101 }, 'discount', 'Discount cannot be more than 100'],
    ['a negative discount', { discount: '-1' }, 'discount', 'Discount cannot be negative'],
    ['a blank name', { name: '   ' }, 'name', 'Name is required'],
    ['an object as name', { name: { $ne: null } }, 'name', 'Name must be text'],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, 'name', 'Name must be at most 200 characters'],
    ['a unit of 51 characters', { unit: 'g'.repeat(51) }, 'unit', 'Unit must be at most 50 characters'],
    ['a list as unit', { unit: ['200 g'] }, 'unit', 'Unit must be text'],
    ['an empty description', { description: ' ' }, 'description', 'Description is required'],
    ['a description of 5001 characters', { description: 'd'.repeat(5001) }, 'description', 'Description must be at most 5000 characters'],
    ['one image url instead of a list', { image: '/uploads/0123456789abcdef01234567.webp' }, 'image', 'Expected a list of image urls'],
    ['no image', { image: [] }, 'image', 'Upload at least one image'],
    ['a javascript: image', { image: ['javascript:alert(1)'] }, 'image.0', expect.stringMatching(/upload/i)],
    ['an image never uploaded', { image: ['/uploads/0123456789abcdef01234567.webp'] }, 'image.0', expect.stringMatching(/upload/i)],
    ['no category', { category: [] }, 'category', 'Choose at least 1 category'],
    ['a query object as category', { category: [{ $ne: null }] }, 'category.0', expect.any(String)],
    ['an unknown category', { category: [UNKNOWN] }, 'category.0', `Unknown category: ${UNKNOWN}`],
    ['an unknown sub category', { subCategory: ['x1'] }, 'subCategory.0', 'Unknown sub category: x1'],
    ['one sub category id instead of a list', { subCategory: 'x1' }, 'subCategory', 'Expected a list of sub category ids'],
    [
      'a sub category of another category',
      { subCategory: ['CHIPS'] },
      'subCategory.0',
      'Sub category "Chips" is not under any of the chosen categories',
    ],
    ['more_details as a list', { more_details: [['Brand', 'Amul']] }, 'more_details', expect.any(String)],
    ['more_details as text', { more_details: 'Brand: Amul' }, 'more_details', expect.any(String)],
    ['an extra field without a name', { more_details: { '': 'Amul' } }, 'more_details.', 'Extra field names cannot be empty'],
    ['an extra field without a value', { more_details: { Brand: '  ' } }, 'more_details.Brand', 'Brand is required'],
    ['an object as an extra field value', { more_details: { Brand: { $ne: null } } }, 'more_details.Brand', 'Brand must be text'],
    [
      'two extra fields with one name',
      { more_details: { Brand: 'Amul', ' brand': 'Mother Dairy' } },
      'more_details. brand',
      'Two extra fields are named "brand"',
    ],
    [
      'an extra field named __proto__',
      { more_details: JSON.parse('{"__proto__": "x"}') },
      'more_details.__proto__',
      '"__proto__" cannot be a field name',
    ],
    [
      'an extra field name of 51 characters',
      { more_details: { ['n'.repeat(51)]: 'x' } },
      `more_details.${'n'.repeat(51)}`,
      expect.any(String),
    ],
  ])('answers 400 for %s, with the issue on the field, and writes nothing', async (_label, override, path, message) => {
    const body = await validBody(JSON.parse(JSON.stringify(override).replaceAll('CHIPS', chips.id)))
    const res = await expectNothingWritten(() => create(body), 400)
    expect(res.body.issues).toEqual([{ path, message }])
  })

  it('reports every unknown id at once', async () => {
    const body = await validBody({ category: [dairy.id, 'nope1'], subCategory: [paneerTofu.id, 'nope2'] })
    const res = await expectNothingWritten(() => create(body), 400)
    expect(paths(res.body)).toEqual(['category.1', 'subCategory.1'])
  })

  it('answers 400 for no body, a body that is not JSON, and a list', async () => {
    expect(paths((await expectNothingWritten(() => create(undefined), 400)).body).sort()).toEqual([
      'category',
      'description',
      'discount',
      'image',
      'name',
      'price',
      'stock',
      'unit',
    ])
    await expectNothingWritten(() => t.call('product/create', { json: '{"name": "x",', token: admin.token }), 400)
    const list = [await validBody()]
    await expectNothingWritten(() => create(list), 400)
  })
})

describe('PUT /api/product/update-product-details', () => {
  it('keeps MRP, selling price and discount consistent: a selling price wins, above the MRP is a 400', async () => {
    const created = (await create(await validBody({ name: 'Selling price paneer' }))).body.data
    const res = await update({ _id: created._id, price: 470, sellingPrice: 440 })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ price: 470, sellingPrice: 440, discount: wireDiscount(47000, 44000) })
    const discountOnly = await update({ _id: created._id, discount: 10 })
    expect(discountOnly.body.data).toMatchObject({ price: 470, sellingPrice: 423, discount: 10 })
    const above = await update({ _id: created._id, sellingPrice: 471 })
    expect(above.status).toBe(400)
    expect(above.body.message).toBe('Selling price cannot be above the price (MRP)')
    expect((await details(created._id)).body.data).toMatchObject({ price: 470, sellingPrice: 423 })
  })

  it('keeps the selling price to the paisa when a save leaves the price fields alone (stock only, the form sent back, the original client)', async () => {
    // Amul Butter 500 g as imported: MRP ₹255, selling price ₹251, the stored discount the whole
    // percent the import rounds 1.57 % to (2 %: ₹249.90 if applied again).
    const created = (await create(await validBody({ name: 'Amul Butter', price: 255, sellingPrice: 251, discount: 0 }))).body.data
    await t.db.update(products).set({ discount: 2 }).where(eq(products.id, created._id))
    const readBack = async () => (await details(created._id)).body.data
    expect(await readBack()).toMatchObject({ price: 255, sellingPrice: 251 })

    // The stock alone.
    expect((await update({ _id: created._id, stock: 7 })).status).toBe(200)
    expect(await readBack()).toMatchObject({ stock: 7, price: 255, sellingPrice: 251 })

    // The admin form sent back with a new stock: MRP and selling price as shown (strings, as a form posts them).
    const read = await readBack()
    const form = { _id: created._id, updatedAt: read.updatedAt, stock: '8', price: '255', sellingPrice: '251', discount: '1.56' }
    expect((await update(form)).status).toBe(200)
    expect(await readBack()).toMatchObject({ stock: 8, price: 255, sellingPrice: 251 })

    // The original client's edit form: every field as it read it, `price` and `discount` included, a new stock.
    await t.db.update(products).set({ discount: 2 }).where(eq(products.id, created._id))
    const answered = await readBack()
    const { _id, name, image, category, subCategory, unit, price, discount, description, more_details } = answered
    const original = {
      _id,
      name,
      image,
      category,
      subCategory,
      unit,
      stock: '9',
      price: String(price),
      discount: String(discount),
      description,
      more_details,
    }
    expect((await update(original)).status).toBe(200)
    expect(await readBack()).toMatchObject({ stock: 9, price: 255, sellingPrice: 251 })
    // …and with the stored whole percent, as an older answer gave it.
    await t.db.update(products).set({ discount: 2 }).where(eq(products.id, created._id))
    expect((await update({ ...original, stock: '10', discount: '2' })).status).toBe(200)
    expect(await readBack()).toMatchObject({ stock: 10, price: 255, sellingPrice: 251 })

    // A discount the admin did change still moves the selling price.
    expect((await update({ _id: created._id, discount: 10 })).body.data).toMatchObject({ price: 255, sellingPrice: 229.5 })
  })

  it('takes a selling price as given: MRP ₹289 selling at ₹260 goes live at ₹260, not ₹260.10', async () => {
    const res = await create(await validBody({ name: 'Ghee 200 ml', price: '289', sellingPrice: '260', discount: '10.03' }))
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.data).toMatchObject({ price: 289, sellingPrice: 260 })
    // The original client's arithmetic on the answer: ₹289 − ⌈289 × discount / 100⌉ = ₹260.
    const { discount } = res.body.data
    expect(289 - Math.ceil((289 * discount) / 100)).toBe(260)
    expect(Math.abs(289 * (1 - discount / 100) - 260)).toBeLessThan(0.005)
    // Without a selling price (the original client) the discount applies as before.
    const legacy = await create(await validBody({ name: 'Ghee 200 ml (10 %)', price: '289', discount: '10' }))
    expect(legacy.body.data).toMatchObject({ price: 289, sellingPrice: 260.1 })
  })

  it('accepts a discount of up to ten decimals (the answer sent back) and refuses more', async () => {
    const created = (await create(await validBody({ name: 'Ten decimals', price: 1000 }))).body.data
    const ok = await update({ _id: created._id, discount: '12.3456789012' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.data.sellingPrice).toBe(876.54)
    const res = await expectNothingWritten(() => update({ _id: created._id, discount: '12.34567890123' }), 400)
    expect(res.body.issues).toEqual([{ path: 'discount', message: 'Discount can have at most 10 decimal places' }])
  })

  it('changes the price alone; get, by-category and details answer the new price at once', async () => {
    const created = (await create(await validBody({ name: 'Price change paneer' }))).body.data
    // Fill the caches with the old price.
    expect((await allProducts()).find((p) => p._id === created._id)?.price).toBe(95.5)
    expect((await inCategory(dairy.id)).find((p) => p._id === created._id)?.price).toBe(95.5)
    expect((await details(created._id)).body.data.price).toBe(95.5)

    const res = await update({ _id: created._id, price: '120.25' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ message: PRODUCT_UPDATED, success: true })
    expect(res.body.data).toMatchObject({
      ...created,
      price: 120.25,
      sellingPrice: 105.82,
      discount: wireDiscount(12025, 10582),
      updatedAt: expect.any(String),
    })
    expect((await allProducts()).find((p) => p._id === created._id)?.price).toBe(120.25)
    expect((await inCategory(dairy.id)).find((p) => p._id === created._id)?.price).toBe(120.25)
    expect((await details(created._id)).body.data.price).toBe(120.25)
  })

  it('replaces the category and sub category links in one go; the old category no longer lists it', async () => {
    const created = (await create(await validBody({ name: 'Moving product' }))).body.data
    expect((await inCategory(dairy.id)).map((p) => p._id)).toContain(created._id)
    const res = await update({ _id: created._id, category: [snacks.id], subCategory: [{ _id: chips.id, name: 'Chips' }] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.category.map((c: { _id: string }) => c._id)).toEqual([snacks.id])
    expect(res.body.data.subCategory.map((c: { _id: string }) => c._id)).toEqual([chips.id])
    const links = await t.db.select().from(productCategories).where(eq(productCategories.productId, created._id))
    expect(links.map((l) => l.categoryId)).toEqual([snacks.id])
    const subLinks = await t.db.select().from(productSubCategories).where(eq(productSubCategories.productId, created._id))
    expect(subLinks.map((l) => l.subCategoryId)).toEqual([chips.id])
    expect((await inCategory(dairy.id)).map((p) => p._id)).not.toContain(created._id)
    expect((await inCategory(snacks.id)).map((p) => p._id)).toContain(created._id)
    const listing = await t.call('product/get-product-by-category-and-subcategory', {
      json: { categoryId: snacks.id, subCategoryId: chips.id },
    })
    expect(listing.body.data.map((p: Answered) => p._id)).toContain(created._id)
  })

  it('refuses new categories that leave the kept sub categories outside, and changes nothing', async () => {
    const created = (await create(await validBody({ name: 'Stays in dairy' }))).body.data
    const res = await expectNothingWritten(() => update({ _id: created._id, category: [snacks.id] }), 400)
    expect(res.body.issues).toEqual([
      { path: 'subCategory', message: 'Sub category "Paneer & Tofu" is not under any of the chosen categories' },
    ])
    // A sub category alone is checked against the categories the product keeps.
    const alone = await expectNothingWritten(() => update({ _id: created._id, subCategory: [chips.id] }), 400)
    expect(paths(alone.body)).toEqual(['subCategory.0'])
  })

  it('replaces the images; files no product uses any more are removed, shared ones kept', async () => {
    const [own, shared, fresh] = [await storeTestImage(t), await storeTestImage(t), await storeTestImage(t)]
    const created = (await create(await validBody({ name: 'Gallery', image: [own, shared] }))).body.data
    await create(await validBody({ name: 'Neighbour', image: [shared] }))
    const res = await update({ _id: created._id, image: [fresh] })
    expect(res.status).toBe(200)
    expect(res.body.data.image).toEqual([fresh])
    expect(filesGone(own)).toBe(true)
    expect(filesExist(shared)).toBe(true)
    expect(filesExist(fresh)).toBe(true)
  })

  it('validates each field given as on create, writing nothing', async () => {
    const created = (await create(await validBody({ name: 'Validated' }))).body.data
    const cases: [Record<string, unknown>, string][] = [
      [{ price: -1 }, 'price'],
      [{ price: 'abc' }, 'price'],
      [{ stock: -2 }, 'stock'],
      [{ discount: 150 }, 'discount'],
      [{ name: '' }, 'name'],
      [{ name: { $ne: null } }, 'name'],
      [{ image: [] }, 'image'],
      [{ image: ['data:image/png;base64,AAAA'] }, 'image.0'],
      [{ category: [] }, 'category'],
      [{ category: [UNKNOWN] }, 'category.0'],
      [{ more_details: { Brand: '' } }, 'more_details.Brand'],
      [{ unit: null }, 'unit'],
    ]
    for (const [fields, path] of cases) {
      const res = await expectNothingWritten(() => update({ _id: created._id, ...fields }), 400)
      expect(paths(res.body), JSON.stringify(fields)).toEqual([path])
    }
  })

  it('answers 400 when no field is given or _id is missing, and 404 for an unknown id', async () => {
    const created = (await create(await validBody({ name: 'Untouched' }))).body.data
    const empty = await expectNothingWritten(() => update({ _id: created._id }), 400)
    expect(empty.body.message).toMatch(/at least one field/)
    expect(paths((await expectNothingWritten(() => update({ price: 10 }), 400)).body)).toEqual(['_id'])
    const missing = await expectNothingWritten(() => update({ _id: UNKNOWN, price: 10 }), 404)
    expect(missing.body.message).toBe(PRODUCT_NOT_FOUND)
  })
})

describe('DELETE /api/product/delete-product', () => {
  it('deletes the product and its links; it is gone from every listing at once; its unused image files go', async () => {
    const own = await storeTestImage(t)
    const created = (await create(await validBody({ name: 'Short-lived', image: [own, image] }))).body.data
    expect((await allProducts()).map((p) => p._id)).toContain(created._id)
    expect((await inCategory(dairy.id)).map((p) => p._id)).toContain(created._id)
    expect((await details(created._id)).status).toBe(200)

    const res = await remove({ _id: created._id })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: PRODUCT_DELETED, success: true, data: null })
    expect(await t.db.select().from(products).where(eq(products.id, created._id))).toEqual([])
    expect(await t.db.select().from(productCategories).where(eq(productCategories.productId, created._id))).toEqual([])
    expect(await t.db.select().from(productSubCategories).where(eq(productSubCategories.productId, created._id))).toEqual([])
    expect((await allProducts()).map((p) => p._id)).not.toContain(created._id)
    expect((await inCategory(dairy.id)).map((p) => p._id)).not.toContain(created._id)
    expect((await details(created._id)).status).toBe(404)
    const search = await t.call('product/search-product', { json: { search: 'Short-lived' } })
    expect(search.body.data.map((p: Answered) => p._id)).not.toContain(created._id)
    expect(filesGone(own)).toBe(true)
    // The categories' picture is theirs too.
    expect(filesExist(image)).toBe(true)
  })

  it('keeps the image files while another product uses the same url', async () => {
    const shared = await storeTestImage(t)
    const first = (await create(await validBody({ name: 'Twin A', image: [shared] }))).body.data
    const second = (await create(await validBody({ name: 'Twin B', image: [shared] }))).body.data
    expect((await remove({ _id: first._id })).status).toBe(200)
    expect(filesExist(shared)).toBe(true)
    expect((await remove({ _id: second._id })).status).toBe(200)
    expect(filesGone(shared)).toBe(true)
  })

  it('answers 404 for an unknown or already deleted id and 400 without an id', async () => {
    const created = (await create(await validBody({ name: 'Deleted twice' }))).body.data
    expect((await remove({ _id: created._id })).status).toBe(200)
    expect((await expectNothingWritten(() => remove({ _id: created._id }), 404)).body.message).toBe(PRODUCT_NOT_FOUND)
    expect((await expectNothingWritten(() => remove({ _id: UNKNOWN }), 404)).status).toBe(404)
    expect(paths((await expectNothingWritten(() => remove({}), 400)).body)).toEqual(['_id'])
    expect(paths((await expectNothingWritten(() => remove({ _id: { $ne: null } }), 400)).body)).toEqual(['_id'])
  })
})
