/**
 * Shared helpers of the browser journeys (playwright.config.ts): which project runs (JavaScript on or
 * off), the upstream API for looking up ids of the real catalogue (issue 2: the 8,208 products of
 * bigbasket-products.csv), the spec's slug rule (section 2), and sign-up / sign-in steps.
 *
 * Lookups go through the public read endpoints of the contract (/work/shared/contract/upstream-api.md)
 * so a test can open a known category and sub category without depending on another page's links.
 */
import { expect, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test'

/** True in the "js" project, false in "no-js" (playwright.config.ts). */
export function isJs(testInfo: TestInfo): boolean {
  return testInfo.project.name === 'js'
}

/**
 * Waits until React has hydrated `target` (its event handlers are attached), so a click or key press
 * goes to the page's JavaScript rather than to the browser's default (a link load, a form submit).
 * React keeps the props of each hydrated element under a `__reactProps$…` key.
 * (A `data-hydrated` attribute set by the root on hydration would be a cleaner handle.)
 */
export async function waitForHydration(target: Locator) {
  await expect
    .poll(() => target.evaluate((el) => Object.keys(el).some((key) => key.startsWith('__reactProps$'))), {
      message: 'the element is hydrated by React',
    })
    .toBe(true)
}

/** The API's envelope (contract, "Envelope"): `data` plus paging keys such as totalCount. */
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
 * The spec's slug rule (section 2): the readable name with spaces, commas and dollar signs replaced by
 * hyphens, then a dash and the id (the id is the last dash-separated piece).
 */
export function slug(name: string, id: string): string {
  return `${name.replace(/[ ,$]/g, '-')}-${id}`
}

/**
 * The category and sub category of the real catalogue with these exact names, their product count,
 * and a listing path built by the spec's slug rule (the page may answer it with a 301 to its own
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
  const subCategory = subCategories.find(
    (s) => s.name === subCategoryName && s.category.some((c) => c._id === category!._id),
  )
  expect(subCategory, `sub category "${subCategoryName}" of "${categoryName}"`).toBeTruthy()
  const first = await api<Product[]>(request, '/product/get-product-by-category-and-subcategory', {
    categoryId: category!._id,
    subCategoryId: subCategory!._id,
    page: 1,
    limit: 1,
  })
  return {
    category: category!,
    subCategory: subCategory!,
    path: `/${slug(category!.name, category!._id)}/${slug(subCategory!.name, subCategory!._id)}`,
    totalCount: Number(first.totalCount),
  }
}

/**
 * The product cards of the page's main content: every card links to /product/{slug} (spec section 2,
 * "Product cards link to /product/{productName}-{productId}"). One locator per card, whatever the
 * number of links inside a card.
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

/** A link to a product page (spec section 2: /product/{productName}-{productId}). */
export const PRODUCT_LINK = 'a[href^="/product/"]'

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

/** Signs `user` in through /login and checks the account menu shows the name (spec section 2). */
export async function signIn(page: Page, user: { name: string; email: string; password: string }) {
  await submitLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/$/)
  await expectSignedInAs(page, user.name)
}

/**
 * The header's account dropdown (spec: "Account dropdown"): opens it unless open and returns its
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

/** Opens the account menu and checks it names the signed-in user (spec: "shows the name"). */
export async function expectSignedInAs(page: Page, name: string) {
  const menu = await openAccountMenu(page)
  await expect(menu.getByRole('link', { name: 'My Profile' })).toBeVisible()
  await expect(page.getByRole('banner').getByText(name, { exact: true })).toBeVisible()
}

/** The header's visible Login link (spec: "a Login button (signed out)"). */
export function loginLink(page: Page): Locator {
  return page.getByRole('banner').getByRole('link', { name: /^log\s*in$/i }).filter({ visible: true })
}

/** A toast (react-hot-toast with JavaScript, a plain status box without), by its text. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text }).first()
}
