/**
 * Set-up and clean-up for the admin's catalogue tests (admin.spec.ts), through the API as the demo
 * admin: a test that proves one capability (add, list, edit, delete) starts from a catalogue made
 * here instead of from the steps of the test before it. Names are unique per project and run
 * (category and sub category names must be unique: docs/product.md, "Category admin").
 */
import fs from 'node:fs'
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test'
import { ADMIN, FIXTURES, api, fillLogin, openAccountMenu, uniqueName, type Category, type Product, type SubCategory } from './helpers.ts'

/** The names one test's category, sub category and product get. */
export interface ShelfNames {
  category: string
  subCategory: string
  product: string
}

/** Names unique to this project and run. */
export function shelfNames(testInfo: TestInfo): ShelfNames {
  return {
    category: uniqueName(testInfo, 'Category'),
    subCategory: uniqueName(testInfo, 'Sub'),
    product: uniqueName(testInfo, 'Product'),
  }
}

/** Signs the demo admin in through /login; the account menu names them with " (Admin)" (docs/product.md, "Account menu"). */
export async function signInAsAdmin(page: Page) {
  await page.goto('/login')
  await fillLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)
  const menu = await openAccountMenu(page)
  await expect(page.getByRole('banner').getByText(`${ADMIN.name} (Admin)`, { exact: true })).toBeVisible()
  // docs/product.md, "Roles and permissions": only an admin's menu has the four admin links.
  for (const name of ['Category', 'Sub Category', 'Upload Product', 'Product']) {
    await expect(menu.getByRole('link', { name, exact: true })).toBeVisible()
  }
}

/** The admin's Bearer header for the API. */
export async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
  return { Authorization: `Bearer ${login.data.accessToken}` }
}

/** POSTs `data` to `/api<path>` as the admin and returns the answer's `data` (expects 201). */
async function created<T>(request: APIRequestContext, headers: Record<string, string>, path: string, data: unknown): Promise<T> {
  const response = await request.post(`/api${path}`, { headers, data })
  expect(response.status(), `${path}: ${await response.text()}`).toBe(201)
  return ((await response.json()) as { data: T }).data
}

/** What `createShelfViaApi` made: ids, the stored image url, and what else was asked for. */
export interface Shelf {
  category: Category
  subCategory?: SubCategory
  /** The stored copy of FIXTURES.png the three share (an /uploads/ url). */
  image: string
  product?: Product
}

/**
 * Creates a category with an uploaded image; with `make.subCategory` a sub category under it; with
 * `make.product` also a product in both (unit "1 pack", 25 in stock, MRP = selling price =
 * `make.product.price` rupees). All share one stored image. Remove them with `cleanUpViaApi`.
 */
export async function createShelfViaApi(
  request: APIRequestContext,
  names: ShelfNames,
  make: { subCategory?: boolean; product?: { price: number } } = {},
): Promise<Shelf> {
  const headers = await adminHeaders(request)
  const upload = await request.post('/api/file/upload', {
    headers,
    multipart: { image: { name: 'image.png', mimeType: 'image/png', buffer: fs.readFileSync(FIXTURES.png) } },
  })
  expect(upload.status(), await upload.text()).toBe(201)
  const image = ((await upload.json()) as { data: { url: string } }).data.url
  const category = await created<Category>(request, headers, '/category/add-category', { name: names.category, image })
  const shelf: Shelf = { category, image }
  if (!make.subCategory && !make.product) return shelf
  const subCategory = await created<SubCategory>(request, headers, '/subcategory/create', {
    name: names.subCategory,
    image,
    category: [category._id],
  })
  shelf.subCategory = subCategory
  const product = make.product
  if (product) {
    shelf.product = await created<Product>(request, headers, '/product/create', {
      name: names.product,
      image: [image],
      category: [category._id],
      subCategory: [subCategory._id],
      unit: '1 pack',
      stock: 25,
      price: product.price,
      sellingPrice: product.price,
      discount: 0,
      description: 'Made by the e2e suite.',
    })
  }
  return shelf
}

/**
 * Removes what a test left behind, through the API as the admin: products named `names.product`,
 * then the sub category, then the category (the order the API requires). Signs in only when needed.
 */
export async function cleanUpViaApi(request: APIRequestContext, names: ShelfNames) {
  const category = (await api<Category[]>(request, '/category/get')).data.find((c) => c.name === names.category)
  const subCategory = (await api<SubCategory[]>(request, '/subcategory/get', {})).data.find((s) => s.name === names.subCategory)
  const products = (await api<Product[]>(request, '/product/get', { page: 1, limit: 10, search: names.product })).data.filter(
    (p) => p.name === names.product,
  )
  if (!category && !subCategory && products.length === 0) return
  const headers = await adminHeaders(request)
  const remove = async (path: string, _id: string) => {
    const response = await request.delete(`/api${path}`, { data: { _id }, headers })
    expect(response.ok(), `clean-up ${path} ${_id} answered ${response.status()}: ${await response.text()}`).toBe(true)
  }
  for (const product of products) await remove('/product/delete-product', product._id)
  if (subCategory) await remove('/subcategory/delete', subCategory._id)
  if (category) await remove('/category/delete', category._id)
}

/**
 * Opens a store around the clock (00:00-24:00 IST) until the returned function puts its hours back.
 * The demo stores but Indiranagar open at 06:00 IST (migration 0010_dark_stores; docs/stores.md,
 * "Opening hours"), so a journey through one of them would fail between midnight and 06:00 IST, when
 * a closed store shows "Closed now" and takes no order. Tests of a closed store set hours of their own.
 */
export async function openAroundTheClock(
  request: APIRequestContext,
  headers: Record<string, string>,
  storeId: string,
): Promise<() => Promise<void>> {
  const list = await request.get('/api/store/list', { headers })
  expect(list.ok(), await list.text()).toBe(true)
  const store = ((await list.json()) as { data: Array<{ _id: string; opensAt: string; closesAt: string }> }).data.find(
    (s) => s._id === storeId,
  )
  expect(store, `store ${storeId}`).toBeTruthy()
  const setHours = async (opensAt: string, closesAt: string) => {
    const response = await request.put('/api/store/update', { data: { _id: storeId, opensAt, closesAt }, headers })
    expect(response.ok(), await response.text()).toBe(true)
  }
  await setHours('00:00', '24:00')
  return () => setHours(store!.opensAt, store!.closesAt)
}
