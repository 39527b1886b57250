/**
 * One store's stock as CSV (docs/store-stock-csv.md), with JavaScript on and off, as the demo admin,
 * on an inactive store made for the test as a copy of Koramangala's stock ("Copy stock from",
 * docs/stores.md, "Admin"; inactive, so no shopper journey meets it): "Export CSV" on the stock page
 * downloads the byte order mark, the header and one row per product, which checks back with nothing
 * to change; a file with an unknown SKU and a stock that is not a whole number lists both by line and
 * column and writes nothing; a clean file lists its changes (before → after), and Apply writes them,
 * says so in a toast and on the page, and the stock page shows the new numbers. A store added on the
 * store form with "Copy stock from" Koramangala starts with its stock (deactivated after). At 360 px the import
 * page with its tables does not scroll sideways. Assertions retry: with JavaScript the address
 * changes before React draws the page.
 */
import fs from 'node:fs'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ADMIN, isJs, signInWithPassword, toast, uniqueName, waitForHydration } from './helpers.ts'
import { adminHeaders } from './admin-fixtures.ts'

const KORAMANGALA = 'storeBlrKoramangala'

/** A new inactive store starting with Koramangala's stock; answers its id. */
async function storeCopiedFromKoramangala(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post('/api/store/create', {
    headers: await adminHeaders(request),
    data: {
      name,
      area: 'E2E Stock CSV',
      city: 'Bengaluru',
      addressLine: '1, Test Road',
      pincode: '560034',
      active: false,
      copyStockFrom: KORAMANGALA,
    },
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { data: { _id: string } }).data._id
}

/** A product's stock in `storeId`, found by SKU through the admin API. */
async function stockOf(request: APIRequestContext, storeId: string, sku: string): Promise<number | undefined> {
  const response = await request.post('/api/inventory/list', {
    headers: await adminHeaders(request),
    data: { storeId, search: sku, page: 1, limit: 50 },
  })
  const rows = ((await response.json()) as { data: { sku: string | null; stock: number }[] }).data
  return rows.find((r) => r.sku === sku)?.stock
}

/** The data rows of an exported file as [sku, id, name, unit, stock] (no cell of the real catalogue is quoted across lines). */
function exportedRows(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .slice(1)
}

/** Checks that the page is no wider than its viewport (nothing scrolls sideways). */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }))
  expect(widths.page, `page ${widths.page} px wide in a ${widths.viewport} px viewport`).toBeLessThanOrEqual(widths.viewport)
}

/** Picks `file` on the import page and presses "Check file". */
async function checkFile(page: Page, file: string, js: boolean) {
  const check = page.getByRole('button', { name: 'Check file' })
  if (js) await waitForHydration(check)
  await page.getByLabel('CSV file').setInputFiles(file)
  await check.click()
}

test.describe('store stock CSV', () => {
  // An export of the whole catalogue and a few page loads on a loaded 2-core machine.
  test.describe.configure({ timeout: 120_000 })

  test('export, check the export (nothing to change), a file with errors, then a clean file applied', async ({
    page,
    request,
  }, testInfo) => {
    const js = isJs(testInfo)
    const storeId = await storeCopiedFromKoramangala(request, uniqueName(testInfo, 'Stock CSV'))
    await signInWithPassword(page, ADMIN)
    await page.goto(`/dashboard/stores/${storeId}/stock`)
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Stock of E2E Stock CSV')

    // Export: an attachment with the byte order mark, the header and a row per product.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
    expect(download.suggestedFilename()).toMatch(new RegExp(`^stock-${storeId}-\\d{4}-\\d{2}-\\d{2}\\.csv$`))
    const exported = testInfo.outputPath('stock.csv')
    await download.saveAs(exported)
    const text = fs.readFileSync(exported, 'utf8')
    expect(text.charCodeAt(0), 'a UTF-8 byte order mark first').toBe(0xfeff)
    expect(text.slice(1).split('\r\n')[0]).toBe('sku,id,name,unit,stock')
    const rows = exportedRows(text)
    expect(rows.length).toBeGreaterThan(100)
    // Two products with a plain SKU of the longest kind (a search for it finds few others) and no quoted cell, for the files below.
    const split = rows.map((r) => r.split(',')).filter((cells) => cells.length === 5 && /^[\w-]+$/.test(cells[0]!))
    const longest = Math.max(...split.map((cells) => cells[0]!.length))
    const plain = split.filter((cells) => cells[0]!.length === longest)
    const [a, b] = [plain[0]!, plain[1]!]
    expect(await stockOf(request, storeId, a[0]!)).toBe(Number(a[4]))

    // The export checks back with nothing to change (and so no Apply).
    await page.getByRole('link', { name: 'Import CSV' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Import stock of E2E Stock CSV')
    await expect(page).toHaveURL(new RegExp(`/dashboard/stores/${storeId}/stock/import$`))
    await checkFile(page, exported, js)
    const result = page.locator('[data-card="stock-import-result"]')
    await expect(result.getByRole('status')).toHaveText(new RegExp(`^[\\d,]+ rows: 0 to change, [\\d,]+ unchanged; 0 errors\\.$`))
    await expect(result).toContainText('Nothing to change')
    await expect(result.getByRole('button', { name: 'Apply' })).toHaveCount(0)

    // Errors by line and column; nothing written.
    const bad = testInfo.outputPath('bad.csv')
    fs.writeFileSync(bad, `sku,stock\r\n${a[0]},7\r\nNO-SUCH-SKU-${Date.now()},5\r\n${b[0]},2.5\r\n`)
    await checkFile(page, bad, js)
    await expect(result.getByRole('status')).toHaveText('3 rows: 1 to change, 0 unchanged; 2 errors.')
    const errors = result.getByRole('table', { name: 'Errors' })
    await expect(errors.getByRole('row')).toHaveCount(3)
    await expect(errors.getByRole('row').nth(1)).toContainText(/3\s*sku\s*Unknown SKU "NO-SUCH-SKU-/)
    await expect(errors.getByRole('row').nth(2)).toContainText('4stockStock must be a whole number from 0 to 10,00,000')
    await expect(result.getByRole('button', { name: 'Apply' })).toHaveCount(0)
    expect(await stockOf(request, storeId, a[0]!)).toBe(Number(a[4]))

    // A clean file: its changes, then Apply.
    const [newA, newB] = [Number(a[4]) + 7, Number(b[4]) + 3]
    const good = testInfo.outputPath('good.csv')
    fs.writeFileSync(good, `\uFEFFsku,stock\r\n${a[0]},${newA}\r\n${b[0]},${newB}\r\n`)
    await checkFile(page, good, js)
    await expect(result.getByRole('status')).toHaveText('2 rows: 2 to change, 0 unchanged; 0 errors.')
    const changes = result.getByRole('table', { name: 'Changes' })
    await expect(changes.locator(`tr[data-sku="${a[0]}"]`)).toContainText(`${a[2]}`)
    await expect(changes.locator(`tr[data-sku="${a[0]}"] td`).nth(2)).toHaveText(String(newA))
    await expect(changes.locator(`tr[data-sku="${b[0]}"] td`).nth(1)).toHaveText(String(b[4]))
    const apply = result.getByRole('button', { name: 'Apply' })
    if (js) await waitForHydration(apply)
    await apply.click()
    await expect(toast(page, 'Stock imported: 2 products changed, 0 unchanged')).toBeVisible()
    await expect(page).toHaveURL(/\/stock\/import\?changed=2&unchanged=0$/)
    await expect(page.locator('[data-card="stock-import-summary"]')).toContainText('2 products changed, 0 unchanged')
    await expect.poll(() => stockOf(request, storeId, a[0]!)).toBe(newA)
    await expect.poll(() => stockOf(request, storeId, b[0]!)).toBe(newB)
    // Only this store: Koramangala keeps its stock.
    expect(await stockOf(request, KORAMANGALA, a[0]!)).toBe(Number(a[4]))

    // The stock page shows the new number.
    await page.goto(`/dashboard/stores/${storeId}/stock?q=${encodeURIComponent(a[0]!)}`)
    await expect(page.getByRole('list', { name: 'Stock' }).getByRole('listitem').first().getByTestId('stock-level')).toContainText(
      `· ${newA}`,
    )
  })

  test('a store added with "Copy stock from" starts with that store’s stock', async ({ page, request }, testInfo) => {
    const headers = await adminHeaders(request)
    const name = uniqueName(testInfo, 'Copied')
    /** The first 50 products by name with their stock in `storeId`, as `productId stock`. */
    const firstStock = async (storeId: string) => {
      const answer = await request.post('/api/inventory/list', { headers, data: { storeId, page: 1, limit: 50 } })
      return ((await answer.json()) as { data: { productId: string; stock: number }[] }).data.map((r) => `${r.productId} ${r.stock}`)
    }
    const koramangala = await firstStock(KORAMANGALA)
    expect(
      koramangala.some((r) => !r.endsWith(' 0')),
      'Koramangala has some stock to copy',
    ).toBe(true)
    let storeId = ''
    try {
      await signInWithPassword(page, ADMIN)
      await page.goto('/dashboard/stores?dialog=add')
      const add = page.getByRole('dialog', { name: 'Add Store' })
      await expect(add).toBeVisible()
      if (isJs(testInfo)) await waitForHydration(add.getByRole('button', { name: 'Save' }))
      await add.getByLabel('Name', { exact: true }).fill(name)
      await add.getByLabel('Area', { exact: true }).fill('E2E Copy')
      await add.getByLabel('City', { exact: true }).fill('Pune')
      await add.getByLabel('Address', { exact: true }).fill('1, Test Road')
      await add.getByLabel('Pincode', { exact: true }).fill('411001')
      await add.getByLabel('Copy stock from (optional)').selectOption(KORAMANGALA)
      await add.getByRole('button', { name: 'Save' }).click()
      await expect(toast(page, `${name} added`)).toBeVisible()
      await expect(page).toHaveURL(/\/dashboard\/stores$/)
      const stores = await request.get('/api/store/list', { headers })
      storeId = ((await stores.json()) as { data: { _id: string; name: string }[] }).data.find((s) => s.name === name)!._id
      expect(await firstStock(storeId)).toEqual(koramangala)
    } finally {
      // Not left serving Pune for the other journeys.
      if (storeId) {
        const off = await request.put('/api/store/update', { headers, data: { _id: storeId, active: false } })
        expect(off.ok(), await off.text()).toBe(true)
      }
    }
  })

  test('at 360 px the import page with its result does not scroll sideways', async ({ page, request }, testInfo) => {
    const js = isJs(testInfo)
    const storeId = await storeCopiedFromKoramangala(request, uniqueName(testInfo, 'Stock CSV narrow'))
    await page.setViewportSize({ width: 360, height: 800 })
    await signInWithPassword(page, ADMIN)
    await page.goto(`/dashboard/stores/${storeId}/stock/import`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expectNoSidewaysScroll(page)
    const file = testInfo.outputPath('narrow.csv')
    fs.writeFileSync(file, `sku,stock\nA-VERY-LONG-UNKNOWN-SKU-THAT-DOES-NOT-EXIST-ANYWHERE-${Date.now()},1\n`)
    await checkFile(page, file, js)
    await expect(page.locator('[data-card="stock-import-result"]').getByRole('status')).toHaveText(
      '1 row: 0 to change, 0 unchanged; 1 error.',
    )
    await expectNoSidewaysScroll(page)
    await page.goto(`/dashboard/stores/${storeId}/stock`)
    await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible()
    await expectNoSidewaysScroll(page)
  })
})
