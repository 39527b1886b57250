/**
 * The dark-store admin journeys (docs/stores.md, "Admin"), with JavaScript on and off, as the demo
 * admin: add a store at pincode 560095 (coordinates filled from the pincode, the messages of contract/location.ts
 * for a bad pincode), edit its radius, see a stale edit refused (409), deactivate it after the
 * confirmation; set a product's stock in Koramangala to 0 from the product's edit dialog and see the
 * stock page list it as out of stock, then set it from the stock page itself; a shopper located in
 * Koramangala (560034) sees what the admin sets there ("Out of stock", "Only 2 left", the stepper
 * stopping at 2) while a shopper located in Indiranagar (560038) still sees it in stock and
 * Indiranagar's stock of the product stays; at 360 px the pages do
 * not scroll sideways; a shopper gets "Do not have permission" (403). Whatever a test changes is put
 * back through the API afterwards.
 */
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import {
  ADMIN,
  productBuyBox,
  signInWithPassword,
  isJs,
  newUser,
  openAccountMenu,
  registerViaApi,
  signIn,
  toast,
  uniqueName,
  waitForHydration,
} from './helpers.ts'
import { adminHeaders, openAroundTheClock } from './admin-fixtures.ts'

const KORAMANGALA = 'storeBlrKoramangala'

interface StoreAnswer {
  _id: string
  name: string
  version: number
  active: boolean
}
interface StockRow {
  productId: string
  name: string
  stock: number
}

/** Every store, as the admin API lists it. */
async function listStores(request: APIRequestContext, headers: Record<string, string>): Promise<StoreAnswer[]> {
  const response = await request.get('/api/store/list', { headers })
  expect(response.ok()).toBe(true)
  return ((await response.json()) as { data: StoreAnswer[] }).data
}

/** Sets stock through the API (set-up and clean-up). */
async function setStock(request: APIRequestContext, headers: Record<string, string>, productId: string, stock: number) {
  const response = await request.put('/api/inventory/update', { data: { rows: [{ storeId: KORAMANGALA, productId, stock }] }, headers })
  expect(response.ok(), await response.text()).toBe(true)
}

/** Checks that the page is no wider than its viewport and no open dialog is wider than itself (nothing scrolls sideways). */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
    // An open dialog scrolls on its own: it must not scroll sideways either.
    dialogs: [...document.querySelectorAll('dialog[open]')].map((d) => d.scrollWidth - d.clientWidth),
  }))
  expect(widths.page, `page ${widths.page} px wide in a ${widths.viewport} px viewport`).toBeLessThanOrEqual(widths.viewport)
  for (const extra of widths.dialogs) expect(extra, 'a dialog scrolls sideways').toBeLessThanOrEqual(0)
}

test.describe('store admin', () => {
  // Long journeys of many page loads each (several minutes of a loaded 2-core machine were measured).
  test.describe.configure({ timeout: 120_000 })
  let storeName = ''

  test.afterEach(async ({ request }) => {
    if (!storeName) return
    // A failed run must not leave an active store at 560095 that the shopper journeys would meet.
    const headers = await adminHeaders(request)
    for (const store of (await listStores(request, headers)).filter((s) => s.name === storeName && s.active)) {
      await request.put('/api/store/update', { data: { _id: store._id, active: false }, headers })
    }
  })

  test('adds a store at 560095, edits its radius and deactivates it', async ({ page, request }, testInfo) => {
    storeName = uniqueName(testInfo, 'Store')
    await signInWithPassword(page, ADMIN)
    const menu = await openAccountMenu(page)
    await menu.getByRole('link', { name: 'Stores', exact: true }).click()
    await expect(page).toHaveURL(/\/dashboard\/stores$/)
    await expect(page.getByRole('heading', { name: 'Stores', level: 1 })).toBeVisible()

    // Add: a bad pincode first gets the message of contract/location.ts, then the store is saved.
    await page.getByRole('link', { name: 'Add Store', exact: true }).click()
    const add = page.getByRole('dialog', { name: 'Add Store' })
    await expect(add).toBeVisible()
    if (isJs(testInfo)) await waitForHydration(add.getByRole('button', { name: 'Save' }))
    await add.getByLabel('Name', { exact: true }).fill(storeName)
    await add.getByLabel('Area', { exact: true }).fill('Koramangala 6th Block')
    await add.getByLabel('City', { exact: true }).fill('Bengaluru')
    await add.getByLabel('Address', { exact: true }).fill('1, 80 Feet Road')
    await add.getByLabel('Pincode', { exact: true }).fill('56009')
    await add.getByRole('button', { name: 'Save' }).click()
    await expect(add.getByText('Enter a valid 6-digit pincode')).toBeVisible()
    await add.getByLabel('Pincode', { exact: true }).fill('560095')
    await add.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/dashboard\/stores$/)
    await expect(toast(page, `${storeName} added`)).toBeVisible()
    const card = page.locator('[data-card="store"]').filter({ has: page.getByRole('heading', { name: storeName }) })
    await expect(card).toContainText('Koramangala 6th Block, Bengaluru 560095')
    await expect(card).toContainText('from the pincode')
    await expect(card).toContainText('3 km')
    await expect(card).toContainText('Active')

    // Edit the radius; the dialog says where the coordinates came from.
    await card.getByRole('link', { name: `Edit ${storeName}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Store' })
    await expect(edit.getByText(/Filled from the pincode: \d+\.\d{4}, \d+\.\d{4}/)).toBeVisible()
    if (isJs(testInfo)) await waitForHydration(edit.getByRole('button', { name: 'Save' }))
    await edit.getByLabel('Radius (km)', { exact: true }).fill('4.5')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(toast(page, `${storeName} saved`)).toBeVisible()
    await expect(card.locator('[data-field="radius"]')).toHaveText('4.5 km')

    // A stale edit: someone else saves the store while the dialog is open.
    await card.getByRole('link', { name: `Edit ${storeName}` }).click()
    await expect(edit).toBeVisible()
    if (isJs(testInfo)) await waitForHydration(edit.getByRole('button', { name: 'Save' }))
    const headers = await adminHeaders(request)
    const created = (await listStores(request, headers)).find((s) => s.name === storeName)!
    expect((await request.put('/api/store/update', { data: { _id: created._id, pickers: 6 }, headers })).ok()).toBe(true)
    await edit.getByLabel('Radius (km)', { exact: true }).fill('5')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(edit.getByText('This store was changed by someone else. Reload it and try again.').first()).toBeVisible()
    await expect(edit.getByRole('link', { name: `Load the latest version of ${storeName}` })).toBeVisible()
    await edit.getByRole('link', { name: 'Cancel' }).click()
    await expect(card.locator('[data-field="radius"]')).toHaveText('4.5 km')

    // Deactivate after the confirmation.
    await card.getByRole('link', { name: `Deactivate ${storeName}` }).click()
    const confirm = page.getByRole('dialog', { name: `Deactivate ${storeName}?` })
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: 'Deactivate' }).click()
    await expect(toast(page, `${storeName} is deactivated`)).toBeVisible()
    await expect(card).toContainText('Inactive')
    await expect(card.getByRole('link', { name: `Activate ${storeName}` })).toBeVisible()
  })

  test("sets a product's stock in Koramangala to 0 and the stock page shows it out of stock", async ({ page, request }, testInfo) => {
    const headers = await adminHeaders(request)
    const list = await request.post('/api/inventory/list', { data: { storeId: KORAMANGALA, filter: 'all', page: 1, limit: 50 }, headers })
    expect(list.ok()).toBe(true)
    const rows = ((await list.json()) as { data: StockRow[] }).data
    // One product per project, so the two runs never share one.
    const product = rows.filter((row) => row.stock > 5)[isJs(testInfo) ? 0 : 1]
    expect(product, 'a product in stock at Koramangala').toBeTruthy()
    try {
      await signInWithPassword(page, ADMIN)

      // From the product's edit dialog: "Stock per store".
      await page.goto(`/dashboard/product?edit=${product.productId}`)
      const section = page.getByRole('region', { name: 'Stock per store' })
      await expect(section).toBeVisible()
      const box = section.getByLabel(/Koramangala/)
      await expect(box).toHaveValue(String(product.stock))
      if (isJs(testInfo)) await waitForHydration(section.getByRole('button', { name: 'Save stock' }))
      await box.fill('0')
      await section.getByRole('button', { name: 'Save stock' }).click()
      await expect(toast(page, 'Stock per store saved')).toBeVisible()
      await expect(section.getByLabel(/Koramangala/)).toHaveValue('0')

      // The store's stock page: out of stock, found by the filter.
      await page.goto(`/dashboard/stores/${KORAMANGALA}/stock`)
      await page.getByRole('link', { name: 'Out of stock', exact: true }).click()
      await expect(page).toHaveURL(/filter=out/)
      await page.getByRole('searchbox').fill(product.name)
      await page.getByRole('button', { name: 'Search', exact: true }).click()
      await expect(page).toHaveURL(/q=/)
      const card = page.locator(`[data-card="stock"][data-product-id="${product.productId}"]`)
      await expect(card.getByTestId('stock-level')).toHaveText('Out of stock')

      // And back from the stock page's own row form: 3 left is low stock.
      await page.goto(`/dashboard/stores/${KORAMANGALA}/stock?q=${encodeURIComponent(product.name)}`)
      const row = page.locator(`[data-card="stock"][data-product-id="${product.productId}"]`)
      if (isJs(testInfo)) await waitForHydration(row.getByRole('button', { name: 'Save' }))
      await row.getByRole('spinbutton', { name: `Stock of ${product.name}` }).fill('-1')
      await row
        .getByRole('spinbutton', { name: `Stock of ${product.name}` })
        .evaluate((input: HTMLInputElement) => input.removeAttribute('min'))
      await row.getByRole('button', { name: 'Save' }).click()
      await expect(row.getByText('Stock cannot be negative')).toBeVisible()
      await row.getByRole('spinbutton', { name: `Stock of ${product.name}` }).fill('3')
      await row.getByRole('button', { name: 'Save' }).click()
      await expect(row.getByTestId('stock-level')).toHaveText('Low stock · 3')
    } finally {
      await setStock(request, headers, product.productId, product.stock)
    }
  })

  test("a shopper in Koramangala sees the stock the admin sets in Koramangala's stock page, and Indiranagar's stays", async ({
    page,
    browser,
    request,
  }, testInfo) => {
    // Two shoppers and the admin, a dozen page loads each way, on a loaded 2-core machine.
    test.setTimeout(240_000)
    const js = isJs(testInfo)
    const headers = await adminHeaders(request)
    const list = await request.post('/api/inventory/list', { data: { storeId: KORAMANGALA, filter: 'all', page: 1, limit: 50 }, headers })
    const rows = ((await list.json()) as { data: StockRow[] }).data
    // A product in stock in both stores, one per project; Indiranagar (the default store) is read through the public API.
    const inIndiranagar = async (productId: string) => {
      const response = await request.post('/api/product/get-product-details', { data: { productId } })
      return ((await response.json()) as { data: { stock: number } }).data.stock
    }
    const candidates = rows.filter((row) => row.stock > 5).slice(2, 12)
    const product = (await Promise.all(candidates.map(async (row) => ({ row, indiranagar: await inIndiranagar(row.productId) })))).filter(
      (c) => c.indiranagar > 5,
    )[js ? 0 : 1]
    expect(product, 'a product in stock at Koramangala and Indiranagar').toBeTruthy()
    const { productId, name } = product!.row
    // Two shoppers: one located in Koramangala, one in Indiranagar, each in their own browser.
    const shopperContext = await browser.newContext({ javaScriptEnabled: js })
    const shopper = await shopperContext.newPage()
    const neighbourContext = await browser.newContext({ javaScriptEnabled: js })
    const neighbour = await neighbourContext.newPage()
    const locate = async (who: Page, pincode: string, place: string) => {
      await who.goto('/location')
      const submit = who.getByRole('main').getByRole('button', { name: 'Check and save' })
      if (js) await waitForHydration(submit)
      await who.getByRole('main').getByLabel('Pincode').fill(pincode)
      await submit.click()
      await expect(who.getByRole('banner').getByTestId('location-link')).toContainText(place)
    }
    const productPage = `/product/x-${productId}`
    /** The Indiranagar shopper still sees the product in stock, with no stock note. */
    const neighbourUnaffected = async () => {
      await neighbour.goto(productPage)
      await expect(productBuyBox(neighbour).getByRole('button', { name: /^Add .+ to cart$/ })).toBeVisible()
      await expect(productBuyBox(neighbour).getByText(/Out of stock|Only \d+ left/)).toHaveCount(0)
    }
    try {
      // The shoppers pick their pincodes and see the product in stock.
      await locate(shopper, '560034', 'Koramangala, 560034')
      await locate(neighbour, '560038', 'Indiranagar, 560038')
      await shopper.goto(productPage)
      await expect(productBuyBox(shopper).getByRole('button', { name: /^Add .+ to cart$/ })).toBeVisible()
      await neighbourUnaffected()

      // The admin sets it to 0 on Koramangala's stock page.
      await signInWithPassword(page, ADMIN)
      const setFromStockPage = async (stock: number) => {
        await page.goto(`/dashboard/stores/${KORAMANGALA}/stock?q=${encodeURIComponent(name)}`)
        const row = page.locator(`[data-card="stock"][data-product-id="${productId}"]`)
        if (js) await waitForHydration(row.getByRole('button', { name: 'Save' }))
        await row.getByRole('spinbutton', { name: `Stock of ${name}` }).fill(String(stock))
        await row.getByRole('button', { name: 'Save' }).click()
        await expect(row.getByTestId('stock-level')).toHaveText(stock === 0 ? 'Out of stock' : `Low stock · ${stock}`)
      }
      await setFromStockPage(0)
      // The shopper's next page load says so (the page cache is keyed by store: docs/stores.md).
      await shopper.goto(productPage)
      await expect(productBuyBox(shopper).getByText('Out of stock')).toBeVisible()
      await expect(productBuyBox(shopper).getByRole('button', { name: /^Add .+ to cart$/ })).toHaveCount(0)
      await neighbourUnaffected()

      // Two units: "Only 2 left", and the stepper stops at two.
      await setFromStockPage(2)
      await shopper.goto(productPage)
      await expect(productBuyBox(shopper).getByText('Only 2 left')).toBeVisible()
      const add = productBuyBox(shopper).getByRole('button', { name: /^Add .+ to cart$/ })
      if (js) await waitForHydration(add)
      await add.click()
      const more = productBuyBox(shopper).getByRole('button', { name: /^Add one more / })
      await more.click()
      await expect(productBuyBox(shopper).locator('output')).toContainText('2')
      await expect(more).toBeDisabled()
      await neighbourUnaffected()

      // Indiranagar's stock of it did not move.
      expect(await inIndiranagar(productId)).toBe(product!.indiranagar)
    } finally {
      await shopperContext.close()
      await neighbourContext.close()
      await setStock(request, headers, productId, product!.row.stock)
    }
  })

  test('pauses Koramangala with a note its shopper sees at once, and resumes it', async ({ page, browser, request }, testInfo) => {
    const js = isJs(testInfo)
    const headers = await adminHeaders(request)
    // Open whatever the hour: the headline must say "Delivery in" before the pause.
    const restoreHours = await openAroundTheClock(request, headers, KORAMANGALA)
    const shopperContext = await browser.newContext({ javaScriptEnabled: js })
    const shopper = await shopperContext.newPage()
    const headline = shopper.getByRole('banner').getByTestId('location-link')
    try {
      await shopper.goto('/location')
      const submit = shopper.getByRole('main').getByRole('button', { name: 'Check and save' })
      if (js) await waitForHydration(submit)
      await shopper.getByRole('main').getByLabel('Pincode').fill('560034')
      await submit.click()
      await expect(headline).toContainText('Koramangala, 560034')
      await expect(headline).toContainText('Delivery in')

      await signInWithPassword(page, ADMIN)
      await page.goto('/dashboard/stores')
      const card = page.locator(`[data-store-id="${KORAMANGALA}"]`)
      await card.getByRole('link', { name: 'Pause Koramangala' }).click()
      const dialog = page.getByRole('dialog', { name: 'Pause Koramangala?' })
      await expect(dialog.getByLabel('Note shown to shoppers')).toHaveValue('Closed for stock-taking')
      await dialog.getByRole('button', { name: 'Pause' }).click()
      await expect(toast(page, 'Koramangala is paused')).toBeVisible()
      await expect(card.locator('[data-field="paused"]')).toHaveText('Paused: Closed for stock-taking')

      // The shopper's next page says why, with no delivery time; the checkout refuses.
      await shopper.goto('/')
      await expect(headline).toContainText('Closed for stock-taking')
      await expect(headline).not.toContainText('Delivery in')

      await card.getByRole('link', { name: 'Resume Koramangala' }).click()
      await page.getByRole('dialog', { name: 'Resume Koramangala?' }).getByRole('button', { name: 'Resume' }).click()
      await expect(toast(page, 'Koramangala takes orders again')).toBeVisible()
      await expect(card.locator('[data-field="paused"]')).toHaveCount(0)
      await shopper.goto('/')
      await expect(headline).toContainText('Delivery in')
    } finally {
      // A failed run must not leave Koramangala paused for the shopper journeys after it.
      await request.put('/api/store/update', { data: { _id: KORAMANGALA, pausedNote: null }, headers })
      await restoreHours()
      await shopperContext.close()
    }
  })

  test("edits a store's GSTIN and invoice code, with the messages of a typo and of another state's GSTIN", async ({
    page,
    request,
  }, testInfo) => {
    // One store per project, so the two runs never edit the same one; put back afterwards.
    const store = isJs(testInfo)
      ? { id: 'storeMumAndheriEast', name: 'Andheri East', gstin: '27AAAAA0000A1Z2', code: 'MUM2', typo: '27AAAAA0000A1Z3' }
      : { id: 'storeDelHauzKhas', name: 'Hauz Khas', gstin: '07AAAAA0000A1Z4', code: 'DEL2', typo: '07AAAAA0000A1Z5' }
    const headers = await adminHeaders(request)
    try {
      await signInWithPassword(page, ADMIN)
      await page.goto(`/dashboard/stores?edit=${store.id}`)
      const edit = page.getByRole('dialog', { name: 'Edit Store' })
      await expect(edit.getByLabel('GSTIN (optional)')).toHaveValue(store.gstin)
      await expect(edit.getByLabel('Invoice code')).toHaveValue(store.code)
      if (isJs(testInfo)) await waitForHydration(edit.getByRole('button', { name: 'Save' }))
      // A typing mistake: the check character does not match (in the browser with JavaScript, else by the BFF).
      await edit.getByLabel('GSTIN (optional)').fill(store.typo)
      await edit.getByRole('button', { name: 'Save' }).click()
      await expect(edit.getByText(/check it for a typing mistake/)).toBeVisible()
      // A valid GSTIN of Karnataka for a store elsewhere: the API's message, on the field.
      await edit.getByLabel('GSTIN (optional)').fill('29AAAAA0000A1ZY')
      await edit.getByRole('button', { name: 'Save' }).click()
      await expect(edit.getByText(/This GSTIN is registered in Karnataka/).first()).toBeVisible()
      await edit.getByLabel('GSTIN (optional)').fill(store.gstin.toLowerCase())
      await edit.getByLabel('Invoice code').fill(`${store.code.slice(0, 3)}9`)
      await edit.getByRole('button', { name: 'Save' }).click()
      await expect(toast(page, `${store.name} saved`)).toBeVisible()
      const card = page.locator(`[data-store-id="${store.id}"]`)
      await expect(card.locator('[data-field="gstin"]')).toHaveText(store.gstin)
      await expect(card.locator('[data-field="invoice-code"]')).toHaveText(`${store.code.slice(0, 3)}9`)
    } finally {
      const back = await request.put('/api/store/update', { data: { _id: store.id, gstin: store.gstin, invoiceCode: store.code }, headers })
      expect(back.ok(), await back.text()).toBe(true)
    }
  })

  test('at 360 px nothing scrolls sideways', async ({ page, request }) => {
    const headers = await adminHeaders(request)
    const list = await request.post('/api/inventory/list', { data: { storeId: KORAMANGALA, page: 1, limit: 1 }, headers })
    const [first] = ((await list.json()) as { data: StockRow[] }).data
    await page.setViewportSize({ width: 360, height: 800 })
    await signInWithPassword(page, ADMIN)
    // The product edit dialog with its "Stock per store" section.
    await page.goto(`/dashboard/product?edit=${first!.productId}`)
    await expect(page.getByRole('region', { name: 'Stock per store' })).toBeVisible()
    await expectNoSidewaysScroll(page)
    for (const path of ['/dashboard/stores', '/dashboard/stores?dialog=add', `/dashboard/stores/${KORAMANGALA}/stock`]) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expectNoSidewaysScroll(page)
    }
    await page.goto(`/dashboard/stores?toggle=${KORAMANGALA}`)
    await expect(page.getByRole('dialog')).toBeVisible()
    await expectNoSidewaysScroll(page)
  })

  test('a shopper sees "Do not have permission" and no Stores link', async ({ page, request }, testInfo) => {
    const user = newUser(testInfo, 'stores')
    await registerViaApi(request, user)
    await signIn(page, user)
    const menu = await openAccountMenu(page)
    await expect(menu.getByRole('link', { name: 'Stores', exact: true })).toHaveCount(0)
    for (const path of ['/dashboard/stores', `/dashboard/stores/${KORAMANGALA}/stock`]) {
      const response = await page.goto(path)
      expect(response?.status()).toBe(403)
      await expect(page.getByRole('alert').filter({ hasText: 'Do not have permission' })).toBeVisible()
    }
  })
})
