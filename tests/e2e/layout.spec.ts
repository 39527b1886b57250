/**
 * Layout at every width (docs/product.md, "Look and feel": every page works at 360 px wide, nothing
 * scrolls sideways, nothing leaves its card): every route and state a shopper or an admin reaches
 * (cart and checkout holding the catalogue's longest product names, form errors, My Orders, an order,
 * the admin pages) at 360, 390, 768 and 1366 px with JavaScript on, and at 360 px with it off. Each view
 * must keep `document.documentElement.scrollWidth <= innerWidth`, and nothing inside an element marked
 * `data-card` may be drawn outside that card (1 px of slack for rounding).
 *
 * One test per width; each reuses one signed-in context per role (storage state made once in
 * `beforeAll`), so the catalogue is imported once and each view costs one page load.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test'
import { adminHeaders } from './admin-fixtures.ts'
import {
  ADMIN,
  productBuyBox,
  api,
  fillLogin,
  findListing,
  isJs,
  newUser,
  registerViaApi,
  signIn,
  waitForHydration,
  type Product,
} from './helpers.ts'

/** The widths checked: two phones, a tablet, a laptop (CSS px). */
const WIDTHS = [360, 390, 768, 1366] as const
/**
 * The width also checked with JavaScript off. The server's HTML is the page the JavaScript-on run
 * checks before hydration, with the same stylesheet, so the other widths add little there; the
 * narrowest is where a layout breaks first (docs/product.md, "Look and feel").
 */
const NO_JS_WIDTH = 360

/** The bundled catalogue (api/db/seed/ensure.ts, BUNDLED_CATALOG_CSV). */
const CATALOG_CSV = path.resolve(import.meta.dirname, '../../api/db/seed/data/bigbasket-products.csv')

/**
 * The products whose names are hardest to lay out: the three longest names and the name with the
 * longest single word (no space to wrap at), read from the bundled CSV.
 */
function hardestNames(): string[] {
  const rows = parse(fs.readFileSync(CATALOG_CSV), { columns: true, skip_empty_lines: true }) as { ProductName: string }[]
  const names = [...new Set(rows.map((row) => row.ProductName.trim()).filter(Boolean))]
  const longest = [...names].sort((a, b) => b.length - a.length).slice(0, 3)
  const longestWord = (name: string) => Math.max(...name.split(/\s+/).map((word) => word.length))
  const unbroken = [...names].sort((a, b) => longestWord(b) - longestWord(a))[0]!
  return [...new Set([...longest, unbroken])]
}

/** Whitespace-insensitive name comparison (the import may fold the CSV's double spaces). */
const sameName = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim()

interface Fixture {
  /** A delivered order of the cheapest long name with a problem report on it (docs/help-after-delivery.md). */
  reportedOrderId: string
  products: Product[]
  listingPath: string
  shopperState: string
  adminState: string
  orderPath: string
  orderNumber: string
  adminOrderPath: string
}
let fixture: Fixture

/** A context of this project (JavaScript on or off) at `width`, optionally signed in from `storageState`. */
async function newContext(browser: Browser, testInfo: TestInfo, width: number, storageState?: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: isJs(testInfo),
    locale: 'en-IN',
    viewport: { width, height: 800 },
    ...(storageState ? { storageState } : {}),
  })
}

/** Opens the product page and presses ADD; waits until the header counts `count` items. */
async function addToCart(page: Page, product: Product, count: number, js: boolean) {
  await page.goto(`/product/p-${product._id}`)
  const add = productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })
  if (js) await waitForHydration(add)
  await add.click()
  await expect(page.getByTestId('cart-button')).toContainText(`${count} item`)
}

/** A report's longest note: words and one unbroken run, to wrap (contract/order-issue.ts ISSUE_NOTE_MAX). */
const LONG_NOTE = `${'The outer box was crushed and two packs inside were torn open. '.repeat(3)}${'x'.repeat(90)}`.slice(0, 300)

/**
 * Through the API: the shopper orders one unit of the cheapest of `products` (cash on delivery, at
 * the address the checkout saved), the admin delivers it, and the shopper reports it damaged with the
 * longest note. Answers the order's id. Runs while the shopper's cart is empty (after the first order).
 */
async function deliveredWithReport(request: APIRequestContext, shopper: { email: string; password: string }, products: Product[]) {
  const login = await api<{ accessToken: string }>(request, '/user/login', { email: shopper.email, password: shopper.password })
  const headers = { Authorization: `Bearer ${login.data.accessToken}` }
  const cheapest = [...products].sort((a, b) => a.price - b.price)[0]!
  expect((await request.post('/api/cart/create', { data: { productId: cheapest._id }, headers })).ok()).toBe(true)
  const addresses = (await (await request.get('/api/address/get', { headers })).json()) as { data: { _id: string }[] }
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId: addresses.data[0]!._id },
    headers: { ...headers, 'Idempotency-Key': `layout-report-${Date.now()}-${Math.floor(Math.random() * 1e9)}` },
  })
  expect(placed.status(), await placed.text()).toBe(201)
  const orderId = ((await placed.json()) as { data: { _id: string } }).data._id
  const admin = await adminHeaders(request)
  for (const status of ['packed', 'out_for_delivery', 'delivered']) {
    const moved = await request.put('/api/order/update-status', { data: { orderId, status }, headers: admin })
    expect(moved.ok(), `${status}: ${await moved.text()}`).toBe(true)
  }
  const list = await request.post('/api/order-issue/list', { data: { orderId }, headers })
  const options = (await list.json()) as { data: { lines: { lineId: string }[] } }
  const reported = await request.post('/api/order-issue/report', {
    data: { orderId, lineId: options.data.lines[0]!.lineId, kind: 'damaged', units: 1, note: LONG_NOTE },
    headers,
  })
  expect(reported.ok(), await reported.text()).toBe(true)
  return orderId
}

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  test.setTimeout(180_000)
  const js = isJs(testInfo)
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL })
  const products: Product[] = []
  for (const name of hardestNames()) {
    const found = await api<Product[]>(request, '/product/get', { search: name, page: 1, limit: 10 })
    const product = found.data.find((p) => sameName(p.name, name))
    expect(product, `"${name}" in /api/product/get`).toBeTruthy()
    products.push(product!)
  }
  const listing = await findListing(request, 'Beauty & Hygiene', 'Body Care')
  const shopper = newUser(testInfo, 'layout')
  await registerViaApi(request, shopper)

  // The shopper orders the long names once (My Orders and the order page), then fills the cart again.
  const shopperContext = await newContext(browser, testInfo, 1366)
  const page = await shopperContext.newPage()
  await signIn(page, shopper)
  for (const [i, product] of products.entries()) await addToCart(page, product, i + 1, js)
  await page.goto('/checkout')
  await page
    .getByLabel('Address (house, street, area)')
    .fill('Flat 1204, Tower B, Prestige Shantiniketan, 100 Feet Road, HAL 2nd Stage, Indiranagar')
  await page.getByLabel('City').fill('Bengaluru')
  await page.getByLabel('State').selectOption('Karnataka')
  await page.getByLabel('Pincode').fill('560038')
  await page.getByLabel('Mobile').fill('9845012345')
  await page.getByRole('button', { name: 'Save address' }).click()
  await expect(page.getByRole('radio', { name: /Prestige/ })).toBeChecked()
  const place = page.getByRole('button', { name: /^Place Order/ })
  if (js) await waitForHydration(place)
  await place.click()
  await expect(page).toHaveURL(/\/success\?order=OD\d+/)
  const orderNumber = new URL(page.url()).searchParams.get('order')!
  const orderPath = (await page.getByRole('main').locator('a[href^="/dashboard/myorder/"]').first().getAttribute('href'))!
  const reportedOrderId = await deliveredWithReport(request, shopper, products)
  for (const [i, product] of products.entries()) await addToCart(page, product, i + 1, js)
  const shopperState = testInfo.outputPath('shopper.json')
  await shopperContext.storageState({ path: shopperState })
  await shopperContext.close()

  const adminContext = await newContext(browser, testInfo, 1366)
  const adminPage = await adminContext.newPage()
  await adminPage.goto('/login')
  await fillLogin(adminPage, ADMIN.email, ADMIN.password)
  await expect(adminPage).toHaveURL(/\/$/)
  const adminState = testInfo.outputPath('admin.json')
  await adminContext.storageState({ path: adminState })
  await adminContext.close()

  await request.dispose()

  fixture = {
    reportedOrderId,
    products,
    listingPath: listing.path,
    shopperState,
    adminState,
    orderPath,
    orderNumber,
    adminOrderPath: orderPath.replace('/dashboard/myorder/', '/dashboard/orders/'),
  }
})

/**
 * What the open page draws outside the viewport or outside a card, one line per kind of finding
 * (none when the layout holds). A card is any element marked `data-card`; its elements and text are
 * compared with its box, except what an element inside the card clips on purpose (a `truncate` or
 * `line-clamp` text, an image box): that element's own box is compared instead; a card that scrolls
 * vertically is bounded by its sides only. Only the outermost
 * element that leaves a card is named; the same finding in many cards is counted once.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SLACK = 1
    const problems: string[] = []
    const root = document.documentElement
    if (root.scrollWidth > window.innerWidth)
      problems.push(`the page is ${root.scrollWidth} px wide in a ${window.innerWidth} px viewport (scrolls sideways)`)

    const short = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
    const describe = (el: Element) => {
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}` : ''
      return `<${el.tagName.toLowerCase()}${cls}> "${short(el.textContent)}"`
    }
    const clips = (el: Element) => {
      const style = getComputedStyle(el)
      return style.overflowX !== 'visible' || style.overflowY !== 'visible'
    }
    const findings = new Map<string, { cards: Set<Element>; px: number }>()

    for (const card of document.querySelectorAll('[data-card]')) {
      const box = card.getBoundingClientRect()
      if (box.width === 0 && box.height === 0) continue
      // A card that scrolls vertically (the dashboard's sticky menu, taller than a short window)
      // shows what lies below or above its box by scrolling: only its sides bound its content.
      const scrollsY = ['auto', 'scroll'].includes(getComputedStyle(card).overflowY)
      const excess = (r: DOMRect) =>
        Math.max(box.left - r.left, r.right - box.right, scrollsY ? 0 : box.top - r.top, scrollsY ? 0 : r.bottom - box.bottom)
      // True (and recorded) when `r` leaves the card.
      const leaves = (what: string, r: DOMRect) => {
        const by = excess(r)
        if (by <= SLACK) return false
        const key = `${card.getAttribute('data-card')} card: ${what}`
        const finding = findings.get(key) ?? { cards: new Set(), px: 0 }
        finding.cards.add(card)
        finding.px = Math.max(finding.px, Math.round(by))
        findings.set(key, finding)
        return true
      }
      // `clipped`: an element between the card and this one hides what overflows it.
      const walk = (el: Element, clipped: boolean) => {
        const style = getComputedStyle(el)
        // Not drawn at all (display: none, the body of a closed <details>), or placed by the viewport.
        if (!el.checkVisibility()) return
        if (el !== card && style.position === 'fixed') return
        if (!clipped && el !== card && style.visibility !== 'hidden') {
          const r = el.getBoundingClientRect()
          if ((r.width > 1 || r.height > 1) && leaves(describe(el), r)) return
        }
        const inner = clipped || (el !== card && clips(el))
        for (const child of el.childNodes) {
          if (child.nodeType === Node.ELEMENT_NODE) walk(child as Element, inner)
          else if (child.nodeType === Node.TEXT_NODE && !inner && style.visibility !== 'hidden' && short(child.textContent)) {
            const range = document.createRange()
            range.selectNodeContents(child)
            const r = range.getBoundingClientRect()
            if (r.width > 0) leaves(`the text "${short(child.textContent)}"`, r)
          }
        }
      }
      walk(card, false)
    }
    for (const [key, { cards, px }] of findings)
      problems.push(`${key} is drawn up to ${px} px outside ${cards.size === 1 ? 'its card' : `${cards.size} cards`}`)
    return problems
  })
}

/** Checks the open page and records its problems as a soft failure named after `view`. */
async function check(page: Page, view: string) {
  // Late layout (fonts, lazy images with fixed boxes, hydration) settles before measuring.
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  const problems = await layoutProblems(page)
  expect.soft(problems, `${view} (${page.url()})`).toEqual([])
}

/** Opens `path` and checks it. */
async function visit(page: Page, path: string, view = path) {
  const response = await page.goto(path)
  expect(response?.status(), `${view}: ${path}`).toBeLessThan(500)
  await check(page, view)
}

for (const width of WIDTHS) {
  test(`no page scrolls sideways and no card's content leaves its card at ${width} px`, async ({ browser, request }, testInfo) => {
    test.setTimeout(150_000)
    const js = isJs(testInfo)
    test.skip(!js && width !== NO_JS_WIDTH, `without JavaScript the server's HTML is checked at ${NO_JS_WIDTH} px, the narrowest width`)
    const longest = fixture.products[0]!

    // A visitor: the catalogue pages and the sign-in forms with their errors.
    const visitor = await newContext(browser, testInfo, width)
    let page = await visitor.newPage()
    await visit(page, '/', 'home')
    await visit(page, '/search?q=oil', 'search')
    await visit(page, '/search?q=parle%20g', 'search (brand not stocked, nearest shelf)')
    await visit(page, fixture.listingPath, 'listing')
    await visit(page, fixture.listingPath.split('/').slice(0, 2).join('/'), 'category')
    await visit(page, `/product/p-${longest._id}`, 'product page (longest name)')
    await visit(page, '/login', 'login')
    await page.getByRole('main').getByLabel('Email', { exact: true }).fill('not-an-email')
    await page.getByRole('main').getByLabel('Password', { exact: true }).fill('x')
    await page.getByRole('main').getByRole('button', { name: 'Login', exact: true }).click()
    await expect(page.getByRole('main').locator('[aria-invalid="true"]').first()).toBeVisible()
    await check(page, 'login with errors')
    await visit(page, '/register', 'register')
    const register = page.getByRole('main').getByRole('button', { name: 'Register', exact: true })
    if (js) await waitForHydration(register)
    await register.click()
    await expect(page.getByRole('main').locator('[aria-invalid="true"]').first()).toBeVisible()
    await check(page, 'register with errors')
    await visit(page, '/forgot-password', 'forgot password')
    await visit(page, '/login/phone', 'phone sign-in')
    await page.getByRole('main').getByRole('textbox', { name: 'Mobile number', exact: true }).fill('12345')
    await page.getByRole('main').getByRole('button', { name: 'Continue', exact: true }).click()
    await expect(page.getByRole('main').getByText('Enter a valid 10-digit mobile number')).toBeVisible()
    await check(page, 'phone sign-in with its error')
    await visit(page, '/no-such-page/at-all', 'not found')
    await visitor.close()

    // The shopper with the longest names in the cart.
    const shopper = await newContext(browser, testInfo, width, fixture.shopperState)
    page = await shopper.newPage()
    await visit(page, '/', 'home with a cart')
    await visit(page, `/product/p-${longest._id}`, 'product page in the cart')
    await visit(page, '/cart', 'cart')
    // The header's cart button, and so the drawer, is there from 768 px (phones get the cart bar).
    if (js && width >= 768) {
      await page.goto('/')
      const cartButton = page.getByTestId('cart-button')
      await waitForHydration(cartButton)
      await cartButton.click()
      await expect(page.getByRole('dialog').getByRole('list', { name: 'Cart items' })).toBeVisible()
      await check(page, 'cart drawer')
    }
    await visit(page, '/checkout', 'checkout')
    await visit(page, '/checkout?add-address=1', 'checkout, adding an address')
    const save = page.getByRole('button', { name: 'Save address' })
    if (js) await waitForHydration(save)
    await save.click()
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible()
    await check(page, 'checkout address form with errors')
    await visit(page, `/success?order=${fixture.orderNumber}`, 'order placed')
    await visit(page, '/dashboard/profile', 'profile')
    await visit(page, '/dashboard/address', 'addresses')
    await visit(page, '/dashboard/myorder', 'My Orders')
    await visit(page, fixture.orderPath, 'order page')
    await visit(page, `/dashboard/myorder/${fixture.reportedOrderId}`, 'order page with a problem report')
    await expect(page.getByRole('list', { name: 'Your reports' })).toBeVisible()
    await shopper.close()

    // The admin pages.
    const admin = await newContext(browser, testInfo, width, fixture.adminState)
    page = await admin.newPage()
    await visit(page, '/dashboard/category', 'admin categories')
    await visit(page, '/dashboard/subcategory', 'admin sub categories')
    await visit(page, `/dashboard/product?${new URLSearchParams({ q: 'oil' })}`, 'admin products')
    await visit(page, `/dashboard/product?${new URLSearchParams({ q: 'oil', edit: longest._id })}`, 'admin product edit')
    await visit(page, `/dashboard/product?${new URLSearchParams({ stock: 'low', sort: 'stock_asc' })}`, 'admin products, low stock')
    await visit(page, `/dashboard/subcategory?${new URLSearchParams({ q: 'oil' })}`, 'admin sub categories, searched')
    await visit(page, '/dashboard/product/import', 'product import')
    const badCsv = testInfo.outputPath(`bad-${width}.csv`)
    fs.writeFileSync(
      badCsv,
      'sku,name,mrp,categories\r\nLAYOUT-1,A name that is long enough to wrap twice at 360 px,abc,No Such Category Anywhere\r\n',
    )
    await page.getByLabel('CSV file').setInputFiles(badCsv)
    const checkFile = page.getByRole('button', { name: 'Check file' })
    if (js) await waitForHydration(checkFile)
    await checkFile.click()
    await expect(page.getByRole('table', { name: 'Errors' })).toBeVisible()
    await check(page, 'product import with errors')
    await visit(page, '/dashboard/upload-product', 'upload product')
    const submit = page.getByRole('main').getByRole('button', { name: 'Submit', exact: true })
    if (js) await waitForHydration(submit)
    await submit.click()
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible()
    await check(page, 'upload product with errors')
    await visit(page, '/dashboard/orders', 'admin orders')
    await visit(page, fixture.adminOrderPath, 'admin order page')
    await visit(page, `/dashboard/orders/${fixture.reportedOrderId}`, 'admin order page with a problem report')
    await expect(page.getByRole('list', { name: 'Problem reports' })).toContainText(LONG_NOTE.slice(0, 40))
    await visit(page, '/dashboard/issues', 'issues queue')
    await visit(page, '/dashboard/audit', 'audit trail')
    await visit(page, '/dashboard/staff', 'staff')
    await visit(page, '/dashboard/staff?dialog=invite', 'staff invite')
    // The stores with their tax identity (GSTIN, registered address, invoice code): the list and the edit form.
    await visit(page, '/dashboard/stores', 'admin stores')
    const storeEdit = await page.getByRole('main').locator('a[href*="?edit="]').first().getAttribute('href')
    await visit(page, storeEdit!, 'admin store edit')

    // The order cancelled (by the first width; later ones find it so): both order pages list its credit
    // note beside the invoice, with the longest product names in its lines.
    const token = (await api<{ accessToken: string }>(request, '/user/login', ADMIN)).data.accessToken
    const cancelled = await request.put('/api/order/update-status', {
      data: { orderId: fixture.orderPath.split('/').at(-1), status: 'cancelled' },
      headers: { Authorization: `Bearer ${token}` },
    })
    expect([200, 409]).toContain(cancelled.status())
    await visit(page, fixture.adminOrderPath, 'admin order page, cancelled')
    await expect(page.getByRole('link', { name: /^Credit note / })).toBeVisible()
    await admin.close()
    const shopperAgain = await newContext(browser, testInfo, width, fixture.shopperState)
    page = await shopperAgain.newPage()
    await visit(page, fixture.orderPath, 'order page, cancelled')
    await expect(page.getByRole('link', { name: /^Credit note / })).toBeVisible()
    await shopperAgain.close()
  })
}
