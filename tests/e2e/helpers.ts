/**
 * Shared helpers of the browser journeys (playwright.config.ts): which project runs (JavaScript on or
 * off), the upstream API for looking up ids of the real catalogue (the 8,208 products of
 * bigbasket-products.csv, README.md, "Credits"), the original slug rule (docs/product.md, "Slugs"),
 * and sign-up / sign-in steps.
 *
 * Lookups go through the public read endpoints (docs/api-contract.md, "Catalogue")
 * so a test can open a known category and sub category without depending on another page's links.
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test'
import { ownServer } from './servers.ts'

/** True in the "js" project, false in "no-js" (playwright.config.ts). */
export function isJs(testInfo: TestInfo): boolean {
  return testInfo.project.name === 'js'
}

/**
 * Waits until React has hydrated `target` (its event handlers are attached), so a click or key press
 * goes to the page's JavaScript rather than to the browser's default (a link load, a form submit).
 * React keeps the props of each hydrated element under a `__reactProps$…` key, but sets them while it
 * renders, before the root commits: a mismatch found later renders the page again with new elements,
 * and what was typed meanwhile is lost. So it also waits for the root's commit, which marks `<html>`
 * with `data-hydrated` (app/components/hydrate-when-visible.tsx `markHydrated`), then for `target`.
 */
export async function waitForHydration(target: Locator) {
  await target.page().locator('html[data-hydrated]').waitFor({ state: 'attached' })
  await expect
    .poll(() => target.evaluate((el) => Object.keys(el).some((key) => key.startsWith('__reactProps$'))), {
      message: 'the element is hydrated by React',
    })
    .toBe(true)
}

/** The API's envelope (docs/api-contract.md, "Envelope"): `data` plus paging keys such as totalCount. */
export interface Envelope<T> {
  message: string
  error: boolean
  success: boolean
  data: T
  totalCount?: number
  [key: string]: unknown
}

/**
 * Calls the upstream API at `/api{path}`: POST with `body` when given, GET otherwise. Fails the test
 * with the answer's text when the status is not 2xx.
 */
/**
 * The product page's own price box (price, ADD or the stepper, "Out of stock", "Only N left"): the
 * page's Similar products rows hold more of each (docs/product.md, "Product page").
 */
export const productBuyBox = (page: Page) => page.getByTestId('product-buy')

export async function api<T>(request: APIRequestContext, path: string, body?: unknown): Promise<Envelope<T>> {
  const response = body === undefined ? await request.get(`/api${path}`) : await request.post(`/api${path}`, { data: body })
  expect(response.ok(), `${path} answered ${response.status()}: ${await response.text()}`).toBe(true)
  return (await response.json()) as Envelope<T>
}

export interface Category {
  _id: string
  name: string
}
export interface SubCategory {
  _id: string
  name: string
  image: string
  category: Category[]
}
export interface Product {
  _id: string
  name: string
  unit: string
  price: number
  discount: number
}

/**
 * The original slug rule (docs/product.md, "Slugs"): the readable name with spaces, commas and dollar
 * signs replaced by hyphens, then a dash and the id (the id is the last dash-separated piece).
 */
export function slug(name: string, id: string): string {
  return `${name.replace(/[ ,$]/g, '-')}-${id}`
}

/**
 * The category and sub category of the real catalogue with these exact names, their product count,
 * and a listing path built by the original slug rule (the page may answer it with a 301 to its own
 * canonical slug, which also drops characters such as "&").
 */
export async function findListing(
  request: APIRequestContext,
  categoryName: string,
  subCategoryName: string,
): Promise<{ category: Category; subCategory: SubCategory; path: string; totalCount: number }> {
  const categories = (await api<Category[]>(request, '/category/get')).data
  const category = categories.find((c) => c.name === categoryName)
  expect(category, `category "${categoryName}" in /api/category/get`).toBeTruthy()
  const subCategories = (await api<SubCategory[]>(request, '/subcategory/get', {})).data
  const subCategory = subCategories.find((s) => s.name === subCategoryName && s.category.some((c) => c._id === category!._id))
  expect(subCategory, `sub category "${subCategoryName}" of "${categoryName}"`).toBeTruthy()
  const first = await api<Product[]>(request, '/product/get-product-by-category-and-subcategory', {
    categoryId: category!._id,
    subCategoryId: subCategory!._id,
    page: 1,
    limit: 1,
    // As the listing page asks: pack sizes of one product count once (docs/product.md, "Pack sizes").
    groupSizes: true,
  })
  return {
    category: category!,
    subCategory: subCategory!,
    path: `/${slug(category!.name, category!._id)}/${slug(subCategory!.name, subCategory!._id)}`,
    totalCount: Number(first.totalCount),
  }
}

/**
 * The product cards of the page's main content: every card links to /product/{slug}
 * (docs/product.md, "Product cards": /product/{productName}-{productId}). One locator per card,
 * whatever the number of links inside a card.
 */
export function productCards(scope: Page | Locator): Locator {
  const root = 'goto' in scope ? scope.getByRole('main') : scope
  return root.locator(PRODUCT_LINK)
}

/**
 * The product cards themselves (the list items holding a product link): a card's link covers only
 * its name, while the badge, unit and price sit beside it in the same item.
 */
export function productCardItems(scope: Page | Locator): Locator {
  const root = 'goto' in scope ? scope.getByRole('main') : scope
  return root.getByRole('listitem').filter({ has: root.page().locator(PRODUCT_LINK) })
}

/**
 * A link to a product page (docs/product.md, "Slugs": /product/{productName}-{productId}), not a pack
 * size's link of a card's size picker or of "Other pack sizes" (docs/product.md, "Pack sizes").
 */
export const PRODUCT_LINK = 'a[href^="/product/"]:not([data-pack-size])'

/** A fresh user's details, unique per run and per project. */
export function newUser(testInfo: TestInfo, label = 'user') {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`
  return {
    name: `E2E ${label} ${testInfo.project.name}`,
    email: `e2e-${testInfo.project.name}-${label}-${stamp}@example.com`,
    password: 'Correct-Horse-42',
  }
}

/** Registers `user` through the API (for tests whose subject is not registration itself). */
export async function registerViaApi(request: APIRequestContext, user: { name: string; email: string; password: string }) {
  await api(request, '/user/register', { ...user, confirmPassword: user.password })
}

/** Fills and submits /login; does not assert where it lands. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.goto('/login')
  const form = page.getByRole('main')
  await form.getByLabel('Email', { exact: true }).fill(email)
  await form.getByLabel('Password', { exact: true }).fill(password)
  await form.getByRole('button', { name: 'Login', exact: true }).click()
}

/** Signs `user` in through /login and checks the account menu shows the name (docs/product.md, "Account menu"). */
export async function signIn(page: Page, user: { name: string; email: string; password: string }) {
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await expectSignedInAs(page, user.name)
}

/**
 * The header's account dropdown (docs/product.md, "Account menu"): opens it unless open and returns its
 * navigation (profile, My Order, Save Address, Log Out). It is a native <details>, so it opens with
 * JavaScript off too.
 */
export async function openAccountMenu(page: Page): Promise<Locator> {
  const banner = page.getByRole('banner')
  const menu = banner.getByRole('navigation', { name: 'Account' })
  if (!(await menu.isVisible())) {
    // The dropdown is a <details> (role group) whose summary has no role of its own; while closed the
    // group is just its summary, so clicking the group clicks the summary.
    await banner.getByRole('group').filter({ hasText: 'Account', visible: true }).first().click()
  }
  await expect(menu).toBeVisible()
  return menu
}

/** Opens the account menu and checks it names the signed-in user (docs/product.md, "Account menu"). */
export async function expectSignedInAs(page: Page, name: string) {
  const menu = await openAccountMenu(page)
  await expect(menu.getByRole('link', { name: 'My Profile' })).toBeVisible()
  await expect(page.getByRole('banner').getByText(name, { exact: true })).toBeVisible()
}

/** Signs `who` in through /login with email and password and waits for the home page (no menu check: staff and admins too). */
export async function signInWithPassword(page: Page, who: { email: string; password: string }) {
  await page.goto('/login')
  await fillLogin(page, who.email, who.password)
  await expect(page).toHaveURL(/\/$/)
}

/** The header's visible Login link, shown when signed out (docs/product.md, "Header"). */
export function loginLink(page: Page): Locator {
  return page
    .getByRole('banner')
    .getByRole('link', { name: /^log\s*in$/i })
    .filter({ visible: true })
}

/** A toast (react-hot-toast with JavaScript, a plain status box without), by its text. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text }).first()
}

/**
 * The demo admin the e2e server creates (scripts/e2e-server.mjs passes ADMIN_PASSWORD; README.md,
 * "Admins and mail": "taken from ADMIN_PASSWORD"). The password is a test-only value, the same
 * default as the launcher's.
 */
export const ADMIN = {
  name: 'Demo Admin',
  email: 'admin@example.com',
  password: process.env.E2E_ADMIN_PASSWORD ?? 'E2e-Admin-Pass-2024',
}

/** The demo staff member the e2e server makes with `npm run admin -- --role staff` (scripts/e2e-server.mjs), the admin's password. */
export const STAFF = {
  name: 'Demo Staff',
  email: 'staff@example.com',
  password: ADMIN.password,
}

/** Small image fixtures: a real 128×128 PNG (~1.6 KB) and a text file named `.png` (docs/product.md, "Profile"). */
export const FIXTURES = {
  png: path.join(import.meta.dirname, 'fixtures', 'avatar.png'),
  textAsPng: path.join(import.meta.dirname, 'fixtures', 'not-an-image.png'),
}

/** Where this worker's e2e server (./servers.ts) writes every message its local SMTP server receives. */
export const MAIL_DIR = ownServer().mailDir

/** One received message: its file, the time the SMTP server got it (ms), and the raw RFC 5322 text. */
interface ReceivedMail {
  file: string
  receivedAt: number
  raw: string
}

/** The messages received for `address`, newest first (file names: `<ms>-<n>-<recipient>.eml`). */
function mailsFor(address: string): ReceivedMail[] {
  if (!fs.existsSync(MAIL_DIR)) return []
  const suffix = `-${address.toLowerCase()}.eml`
  return fs
    .readdirSync(MAIL_DIR)
    .filter((name) => name.toLowerCase().endsWith(suffix))
    .sort()
    .reverse()
    .map((name) => ({
      file: path.join(MAIL_DIR, name),
      receivedAt: Number(name.split('-')[0]),
      raw: fs.readFileSync(path.join(MAIL_DIR, name), 'utf8'),
    }))
}

/** Splits a MIME entity into its (unfolded, lower-cased) headers and its body (RFC 5322 section 2.2.3). */
function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const normalised = entity.replace(/\r\n/g, '\n')
  const end = normalised.indexOf('\n\n')
  const head = end === -1 ? normalised : normalised.slice(0, end)
  const body = end === -1 ? '' : normalised.slice(end + 2)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

/** Decodes a body by its Content-Transfer-Encoding (RFC 2045 section 6: 7bit, 8bit, quoted-printable, base64). */
function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '7bit').toLowerCase()
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (kind === 'quoted-printable') {
    const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    return Buffer.from(bytes, 'latin1').toString('utf8')
  }
  return body
}

/** The first part of `type` (text/plain, text/html) of a message, walking multipart/* bodies (RFC 2046 section 5.1), decoded. */
export function mailPart(raw: string, type: 'text/plain' | 'text/html'): string | null {
  const { headers, body } = splitEntity(raw)
  const contentType = headers.get('content-type') ?? 'text/plain'
  if (/^multipart\//i.test(contentType)) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
    if (!boundary) return null
    const parts = body.split(`--${boundary}`).slice(1)
    for (const part of parts) {
      if (part.startsWith('--')) break
      const found = mailPart(part.replace(/^\n/, ''), type)
      if (found !== null) return found
    }
    return null
  }
  if (!contentType.toLowerCase().startsWith(type)) return null
  return decodeBody(body, headers.get('content-transfer-encoding'))
}

/** A received message, parsed: its Subject header and its plain-text and HTML bodies. */
export interface Mail {
  subject: string
  text: string | null
  html: string | null
}

/**
 * Waits for the newest message to `address` received at or after `since` (ms since the epoch): the
 * launcher's smtp-server writes each one to MAIL_DIR (scripts/e2e-server.mjs; README.md, "Admins and
 * mail").
 */
export async function waitForMail(address: string, since: number, timeout = 15_000): Promise<Mail> {
  let found: ReceivedMail | undefined
  await expect
    .poll(
      () => {
        // The file name's stamp is taken on receipt; allow a little clock slack between processes.
        found = mailsFor(address).find((m) => m.receivedAt >= since - 1000)
        return Boolean(found)
      },
      { message: `a mail to ${address} in ${MAIL_DIR}`, timeout },
    )
    .toBe(true)
  const raw = found!.raw
  return { subject: splitEntity(raw).headers.get('subject') ?? '', text: mailPart(raw, 'text/plain'), html: mailPart(raw, 'text/html') }
}

/** The 6-digit code of a password reset mail (docs/product.md, "Constants": six characters), from its plain-text part. */
export function otpOf(mail: Mail): string {
  const code = /(?<![0-9])([0-9]{6})(?![0-9])/.exec(mail.text ?? '')?.[1]
  expect(code, `a 6-digit code in the plain-text part:\n${mail.text}`).toBeTruthy()
  return code!
}

/** Waits for the password reset mail to `address` sent at or after `since` and returns its code. */
export async function waitForOtp(address: string, since: number, timeout = 15_000): Promise<string> {
  return otpOf(await waitForMail(address, since, timeout))
}

/** Fills and submits the sign-in form of the page already open (/login, possibly with ?redirectTo=). */
export async function fillLogin(page: Page, email: string, password: string) {
  const form = page.getByRole('main')
  await form.getByLabel('Email', { exact: true }).fill(email)
  await form.getByLabel('Password', { exact: true }).fill(password)
  await form.getByRole('button', { name: 'Login', exact: true }).click()
}

/** A name unique to this run and project, for things a test creates (products, categories). */
export function uniqueName(testInfo: TestInfo, label: string): string {
  return `E2E ${label} ${testInfo.project.name} ${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`
}

/**
 * Creates a product as the admin through the API (POST /api/product/create), in the first category
 * with the first listed product's picture; answers its id and the admin's bearer headers (to remove
 * it afterwards). Prices in rupees.
 */
export async function createProductViaApi(
  request: APIRequestContext,
  product: { name: string; unit: string; stock: number; price: number; sellingPrice: number },
): Promise<{ productId: string; headers: Record<string, string> }> {
  const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
  const headers = { Authorization: `Bearer ${login.data.accessToken}` }
  const [category] = (await api<Category[]>(request, '/category/get')).data
  const [pictured] = (await api<Array<Product & { image: string[] }>>(request, '/product/get', { page: 1, limit: 1 })).data
  const created = await request.post('/api/product/create', {
    headers,
    data: { ...product, image: [pictured!.image[0]], category: [category!._id], discount: 0, description: 'Made by the e2e suite.' },
  })
  expect(created.status(), await created.text()).toBe(201)
  return { productId: ((await created.json()) as { data: { _id: string } }).data._id, headers }
}

/**
 * Presses the first ADD in the open page's main content (once hydrated, with JavaScript; the form's
 * own POST without it) and waits until the header's cart button counts one item: the page's cart
 * was empty. Answers the product's name, as the button's label gives it ("Add <name> to cart").
 */
export async function addFirstOnPage(page: Page, js: boolean): Promise<string> {
  const add = page
    .getByRole('main')
    .getByRole('button', { name: /^Add .+ to cart$/ })
    .first()
  const name = (await add.getAttribute('aria-label'))!.replace(/^Add (.+) to cart$/, '$1')
  if (js) await waitForHydration(add)
  await add.click()
  await expect(page.getByTestId('cart-button')).toContainText('1 item')
  return name
}

/**
 * A visitor adds the first basmati rice of a search to the cart, then takes the cart's "Proceed",
 * which signs nobody in: it lands on `/login?redirectTo=/checkout`.
 */
export async function guestCartToSignIn(page: Page, js: boolean) {
  await page.goto('/search?q=basmati rice')
  await addFirstOnPage(page, js)
  await page.goto('/cart')
  await page.getByRole('link', { name: /Proceed/ }).click()
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckout$/)
}

/**
 * Waits until every cart stepper in `scope` shows the cart's own count: no answer under way and no
 * press of "+" waiting (the stepper is `aria-busy` until then: app/components/add-to-cart.tsx). The
 * count itself changes at once (optimistic), so it does not say the server has the press yet.
 */
export async function expectCartSettled(scope: Page | Locator) {
  await expect(scope.locator('.cart-stepper[aria-busy="true"]')).toHaveCount(0)
}
