/**
 * The catalogue at volume, the admin's pages (docs/product-csv.md, "The admin grid"), with JavaScript
 * on and off: on /dashboard/product the admin filters by out of stock and brand, searches by SKU and
 * bulk edits prices and stock (a selling price above a product's MRP is said under that row and
 * nothing is written); exports the filtered grid and imports the exported file back (the dry run
 * finds 0 errors and changes nothing, the apply says so); a file with bad rows lists every error by
 * line, column and message and writes nothing. Each test makes its own products (unique SKUs and
 * brand per run) through the API's import, so the runs of both projects never meet.
 */
import fs from 'node:fs'
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test'
import { ADMIN, api, fillLogin, isJs, toast, waitForHydration } from './helpers.ts'

const HEADER = 'sku,name,brand,unit,mrp,selling_price,stock,publish,categories,sub_categories,images,description'

interface Fixture {
  run: string
  brand: string
  headers: Record<string, string>
  /** A category, one of its sub categories and an image url the catalogue already has. */
  shelf: { category: string; subCategory: string; image: string }
  out: { sku: string; name: string }
  stocked: { sku: string; name: string }
}

interface GridRow {
  _id: string
  sku: string | null
  name: string
  price: number
  sellingPrice: number
  stock: number
}

/** The import page naming a job (docs/product-csv.md, "Imports as jobs"). */
const JOB_PAGE = /\/dashboard\/product\/import\?job=[0-9a-f]{24}$/

/** One CSV line (RFC 4180): every cell quoted, its quotes doubled (shelf names hold commas). */
const csvLine = (cells: (string | number)[]) => cells.map((c) => `"${String(c).replace(/"/g, '""')}"`).join(',')

/** A CSV file as the import's multipart field. */
const csvFile = (text: string) => ({ file: { name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(text) } })

/** Two new products of a brand of their own (one out of stock), imported through the API. */
async function makeFixture(request: APIRequestContext, testInfo: TestInfo): Promise<Fixture> {
  const run = `${testInfo.project.name}-${Date.now().toString(36)}`
  const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
  const headers = { Authorization: `Bearer ${login.data.accessToken}` }
  const found = await api<{ image: string[]; category: { name: string; _id: string }[]; subCategory: { name: string }[] }[]>(
    request,
    '/product/get',
    { page: 1, limit: 1, search: 'oil' },
  )
  const sample = found.data[0]!
  const shelf = { category: sample.category[0]!.name, subCategory: sample.subCategory[0]!.name, image: sample.image[0]! }
  const brand = `Catui ${run}`
  const out = { sku: `CATUI-${run}-1`, name: `Catui Mustard Oil ${run}` }
  const stocked = { sku: `CATUI-${run}-2`, name: `Catui Sesame Oil ${run}` }
  const line = (p: { sku: string; name: string }, mrp: number, sp: number, stock: number) =>
    csvLine([p.sku, p.name, brand, '1 L', mrp, sp, stock, 'true', shelf.category, shelf.subCategory, shelf.image, 'Cold pressed.'])
  const csv = [HEADER, line(out, 100, 90, 0), line(stocked, 200, 180, 40)].join('\r\n') + '\r\n'
  const checked = await request.post('/api/product/import', { multipart: csvFile(csv), headers })
  const body = (await checked.json()) as { data: { upload: string; errorCount: number; errors: unknown[] } }
  expect(body.data.errorCount, JSON.stringify(body.data.errors)).toBe(0)
  const applied = await request.post('/api/product/import/apply', { data: { upload: body.data.upload }, headers })
  expect(applied.ok(), await applied.text()).toBe(true)
  return { run, brand, headers, shelf, out, stocked }
}

/** The fixture's products as the grid's API has them, by SKU. */
async function gridRows(request: APIRequestContext, f: Fixture): Promise<Map<string, GridRow>> {
  const res = await request.post('/api/product/admin-list', { data: { brand: f.brand, limit: 10 }, headers: f.headers })
  const rows = ((await res.json()) as { data: GridRow[] }).data
  return new Map(rows.map((r) => [r.sku ?? r._id, r]))
}

async function signInAsAdmin(page: Page) {
  await page.goto('/login')
  await fillLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)
}

const gridItems = (page: Page) => page.getByRole('list', { name: 'Products' }).locator('li[data-card="product"]')

test('the grid filters by out of stock and brand, searches by SKU and bulk edits prices and stock', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const f = await makeFixture(request, testInfo)
  await signInAsAdmin(page)

  // Search by SKU (any case): the search box submits itself with JavaScript, Enter without.
  await page.goto('/dashboard/product')
  const search = page.getByRole('search').getByPlaceholder('Search product here ...')
  if (isJs(testInfo)) {
    await waitForHydration(search)
    await search.fill(f.out.sku.toLowerCase())
  } else {
    await search.fill(f.out.sku.toLowerCase())
    await search.press('Enter')
  }
  await expect(page).toHaveURL(/\/dashboard\/product\?q=catui-/)
  await expect(gridItems(page)).toHaveCount(1)
  await expect(gridItems(page)).toContainText(f.out.name)
  await expect(gridItems(page)).toContainText(`SKU ${f.out.sku}`)
  await expect(gridItems(page)).toContainText(f.brand)

  // Out of stock within the brand: the filter form (a GET form) keeps the search out.
  await page.goto('/dashboard/product')
  const filters = page.getByRole('form', { name: 'Filter products' })
  await filters.getByLabel('Stock').selectOption('out')
  await filters.getByLabel('Brand').fill(f.brand)
  await filters.getByRole('button', { name: 'Apply filters' }).click()
  await expect(page).toHaveURL(/[?&]stock=out(&|$)/)
  await expect(gridItems(page)).toHaveCount(1)
  await expect(gridItems(page)).toContainText(f.out.name)
  await expect(gridItems(page)).toContainText('Out of stock')
  await expect(page.getByText('1 product', { exact: true })).toBeVisible()

  // Bulk edit of the brand's two products: a selling price of ₹150 is above the first one's MRP
  // (₹100): said under that row, and nothing is written, not even for the other.
  await page.goto(`/dashboard/product?${new URLSearchParams({ brand: f.brand, sort: 'name' })}`)
  await expect(gridItems(page)).toHaveCount(2)
  const bulk = page.getByRole('group', { name: /Bulk edit the ticked products/ })
  if (isJs(testInfo)) await waitForHydration(bulk.getByRole('button', { name: 'Apply to ticked products' }))
  await page.getByRole('checkbox', { name: `Select ${f.out.name}` }).check()
  await page.getByRole('checkbox', { name: `Select ${f.stocked.name}` }).check()
  await bulk.getByLabel('New selling price (₹)').fill('150')
  await bulk.getByRole('button', { name: 'Apply to ticked products' }).click()
  const outRow = gridItems(page).filter({ hasText: f.out.name })
  await expect(outRow.getByRole('alert')).toContainText('Selling price cannot be above')
  await expect(gridItems(page).filter({ hasText: f.stocked.name }).getByRole('alert')).toHaveCount(0)
  let rows = await gridRows(request, f)
  expect(rows.get(f.out.sku)).toMatchObject({ price: 100, sellingPrice: 90, stock: 0 })
  expect(rows.get(f.stocked.sku)).toMatchObject({ price: 200, sellingPrice: 180, stock: 40 })

  // The ticks survive the refusal; a new MRP, selling price and stock for both is written.
  await expect(page.getByRole('checkbox', { name: `Select ${f.out.name}` })).toBeChecked()
  await bulk.getByLabel('New MRP (₹)').fill('300')
  await bulk.getByLabel('New selling price (₹)').fill('150.50')
  await bulk.getByLabel('New stock (units)').fill('7')
  await bulk.getByRole('button', { name: 'Apply to ticked products' }).click()
  await expect(toast(page, '2 products updated')).toBeVisible()
  await expect(gridItems(page).first()).toContainText('₹300')
  await expect(gridItems(page).first()).toContainText('₹150.50')
  rows = await gridRows(request, f)
  expect(rows.get(f.out.sku)).toMatchObject({ price: 300, sellingPrice: 150.5, stock: 7 })
  expect(rows.get(f.stocked.sku)).toMatchObject({ price: 300, sellingPrice: 150.5, stock: 7 })

  // A bulk edit without a tick is refused by the form.
  await bulk.getByLabel('New stock (units)').fill('9')
  await bulk.getByRole('button', { name: 'Apply to ticked products' }).click()
  await expect(bulk.getByText('Tick at least one product')).toBeVisible()
})

test('the filtered export imports back unchanged: the dry run finds 0 errors, then the apply', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const f = await makeFixture(request, testInfo)
  await signInAsAdmin(page)
  await page.goto(`/dashboard/product?${new URLSearchParams({ brand: f.brand })}`)
  await expect(gridItems(page)).toHaveCount(2)

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/)
  const file = testInfo.outputPath('export.csv')
  await download.saveAs(file)
  const text = fs.readFileSync(file, 'utf8')
  // The byte order mark Excel needs for ₹ comes through the BFF's download as it left the API.
  expect(text.charCodeAt(0), 'a UTF-8 byte order mark first').toBe(0xfeff)
  const lines = text.trim().split('\r\n')
  expect(lines).toHaveLength(3)
  expect(lines[0]).toMatch(/^sku,id,name,brand,/)
  expect(text).toContain(f.out.sku)
  expect(text).toContain(f.stocked.sku)

  await page.getByRole('link', { name: 'Import CSV' }).click()
  await expect(page).toHaveURL(/\/dashboard\/product\/import$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Import products (CSV)')
  const check = page.getByRole('button', { name: 'Check file' })
  if (isJs(testInfo)) await waitForHydration(check)
  await page.getByLabel('CSV file').setInputFiles(file)
  await check.click()
  // The check runs as a job: the page's address names it, and the page shows its progress or, once
  // done (a two-row file is quick), its result.
  await expect(page).toHaveURL(JOB_PAGE)
  await expect(page.locator('[data-card="import-progress"], [data-card="import-result"]').first()).toBeVisible()
  const result = page.locator('[data-card="import-result"]')
  await expect(result.getByRole('status')).toHaveText('2 rows: 0 to create, 0 to update, 2 unchanged; 0 errors.', { timeout: 30_000 })
  await expect(result.getByRole('table', { name: 'Errors' })).toHaveCount(0)
  const checkedAt = page.url()
  await result.getByRole('button', { name: 'Apply' }).click()
  // The apply is a job of its own; when it is done the page says so with the counts.
  await expect(page).not.toHaveURL(checkedAt)
  await expect(toast(page, 'Import applied: 0 created, 0 updated, 2 unchanged')).toBeVisible({ timeout: 30_000 })
  await expect(page).toHaveURL(/\/dashboard\/product\/import\?created=0&updated=0&unchanged=2$/)
  await expect(page.locator('[data-card="import-summary"]')).toContainText('Import applied')
  const rows = await gridRows(request, f)
  expect(rows.get(f.out.sku)).toMatchObject({ price: 100, sellingPrice: 90, stock: 0 })
  expect(rows.get(f.stocked.sku)).toMatchObject({ price: 200, sellingPrice: 180, stock: 40 })
})

test('a file with bad rows lists line, column and message and writes nothing', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const f = await makeFixture(request, testInfo)
  const newSku = `CATUI-${f.run}-new`
  const csv =
    [
      HEADER,
      // A good new row (it would be created)…
      csvLine([
        newSku,
        `Catui New Oil ${f.run}`,
        f.brand,
        '1 L',
        120,
        110,
        5,
        'true',
        f.shelf.category,
        f.shelf.subCategory,
        f.shelf.image,
        'New.',
      ]),
      // …an MRP that is not a number, and a selling price above the MRP…
      csvLine([f.out.sku, f.out.name, f.brand, '1 L', 'abc', 90, 0, 'true', f.shelf.category, f.shelf.subCategory, f.shelf.image, 'x']),
      csvLine([
        f.stocked.sku,
        f.stocked.name,
        f.brand,
        '1 L',
        200,
        250,
        40,
        'true',
        f.shelf.category,
        f.shelf.subCategory,
        f.shelf.image,
        'x',
      ]),
      // …and a category that does not exist.
      csvLine([`CATUI-${f.run}-x`, 'Nowhere', f.brand, '1 L', 10, 10, 1, 'true', `No Such Category ${f.run}`, '', f.shelf.image, 'x']),
      // Then 3,000 good new rows, so that the check takes long enough for its progress to show.
      ...Array.from({ length: 3000 }, (_, i) =>
        csvLine([
          `CATUI-${f.run}-bulk-${i}`,
          `Catui Bulk ${i}`,
          f.brand,
          '1 L',
          50,
          45,
          1,
          'true',
          f.shelf.category,
          '',
          f.shelf.image,
          'x',
        ]),
      ),
    ].join('\r\n') + '\r\n'
  const file = testInfo.outputPath('bad.csv')
  fs.writeFileSync(file, csv)

  await signInAsAdmin(page)
  await page.goto('/dashboard/product/import')
  const check = page.getByRole('button', { name: 'Check file' })
  if (isJs(testInfo)) await waitForHydration(check)
  await page.getByLabel('CSV file').setInputFiles(file)
  await check.click()
  // A file of thousands of rows is checked for a while: the page shows the job's progress (with
  // JavaScript by asking for it every second, without by refreshing itself), then the result.
  await expect(page).toHaveURL(JOB_PAGE)
  const progress = page.locator('[data-card="import-progress"]')
  await expect(progress.getByRole('progressbar', { name: 'Checking rows' })).toBeVisible()
  await expect(progress.getByRole('status')).toContainText(/of 3004 rows done|Reading the file/)
  if (!isJs(testInfo)) await expect(progress.locator('noscript')).toHaveCount(1)
  const result = page.locator('[data-card="import-result"]')
  await expect(result.getByRole('alert')).toContainText('Nothing was written', { timeout: 60_000 })
  await expect(progress).toHaveCount(0)
  await expect(result.getByRole('status')).toContainText(/^3004 rows: 3001 to create, 0 to update, 0 unchanged; \d+ errors\.$/)
  const errors = result.getByRole('table', { name: 'Errors' }).locator('tbody tr')
  const cells = async () =>
    (await errors.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')))) as string[][]
  await expect(errors.first()).toBeVisible()
  const table = await cells()
  expect(table.map(([line, column]) => `${line}:${column}`)).toEqual(expect.arrayContaining(['3:mrp', '4:selling_price', '5:categories']))
  for (const [, , message] of table) expect(message!.length).toBeGreaterThan(3)
  expect(table.some(([line]) => line === '2')).toBe(false)
  await expect(result.getByRole('button', { name: 'Apply' })).toHaveCount(0)

  // Nothing was written: no new product, the others as they were.
  const rows = await gridRows(request, f)
  expect(rows.has(newSku)).toBe(false)
  expect(rows.get(f.stocked.sku)).toMatchObject({ price: 200, sellingPrice: 180, stock: 40 })

  // Without a file the form says so.
  await page.goto('/dashboard/product/import')
  if (isJs(testInfo)) await waitForHydration(page.getByRole('button', { name: 'Check file' }))
  await page.getByRole('button', { name: 'Check file' }).click()
  await expect(page.getByText('Choose a CSV file')).toBeVisible()
})

test('the sub category admin searches by name and filters by category', async ({ page }, testInfo) => {
  await signInAsAdmin(page)
  await page.goto('/dashboard/subcategory')
  const search = page.getByRole('search', { name: 'Search sub categories' })
  // Typed after hydration: a value typed into the server's HTML may be lost when React takes the form over.
  if (isJs(testInfo)) await waitForHydration(search.getByRole('button', { name: 'Search' }))
  await search.getByLabel('Search').fill('oil')
  await search.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\/dashboard\/subcategory\?q=oil/)
  const names = page.getByRole('main').getByRole('table').locator('tbody tr')
  await expect(names.first()).toBeVisible()
  // Retried: with JavaScript the address changes a moment before React draws the new rows.
  await expect(names.filter({ hasNotText: /oil/i })).toHaveCount(0)
})
