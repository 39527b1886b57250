/**
 * The page's JavaScript after its first paint (app/.server/scripts-after-paint.ts,
 * docs/decisions/0077-scripts-after-first-paint.md), on a cached page (home, a visitor) and a page
 * rendered per request and streamed (the cart of a signed-in shopper): the document preloads no
 * module; with JavaScript on, no module is fetched before the first contentful paint, the page then
 * hydrates and its cart button answers without a page load; with JavaScript off, no module is fetched
 * at all and the ADD form still works.
 */
import { expect, test, type Page } from '@playwright/test'
import { addFirstOnPage, isJs, newUser, registerViaApi, signIn } from './helpers.ts'

/** The page's first contentful paint and the start of each module fetch, ms from navigation start. */
async function paintAndModules(page: Page) {
  return page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    modules: performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
  }))
}

/** Loads `path` in `page` and checks the document and when its modules were fetched. */
async function expectModulesAfterPaint(page: Page, path: string, js: boolean) {
  const response = await page.goto(path)
  const html = await response!.text()
  expect(html, `${path}: no modulepreload in the document`).not.toContain('<link rel="modulepreload"')
  if (!js) {
    expect((await paintAndModules(page)).modules, `${path}: no module fetched without JavaScript`).toEqual([])
    return
  }
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  const { fcp, modules } = await paintAndModules(page)
  expect(fcp, `${path}: a first contentful paint`).not.toBeNull()
  expect(modules.length, `${path}: the modules were fetched`).toBeGreaterThan(2)
  for (const module of modules)
    expect(module.startTime, `${path}: ${module.path} fetched after the first contentful paint`).toBeGreaterThanOrEqual(fcp!)
}

test('a visitor’s cached home page and a signed-in shopper’s streamed cart fetch their modules after the first paint, and work', async ({
  page,
  request,
}, testInfo) => {
  const js = isJs(testInfo)
  // Home, as a visitor gets it from the page cache; the first ADD works either way.
  await expectModulesAfterPaint(page, '/', js)
  await addFirstOnPage(page, js)

  // A signed-in shopper's pages are rendered per request with a nonce and streamed.
  const user = newUser(testInfo, 'after-paint')
  await registerViaApi(request, user)
  await signIn(page, user)
  await expectModulesAfterPaint(page, '/cart', js)
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible()
  if (js) {
    // The hydrated app answers a click without a document load: the header's cart link is a client navigation.
    const before = await page.evaluate(() => performance.getEntriesByType('navigation').length)
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1))
    await page.getByRole('link', { name: /Grocery home/ }).click()
    await expect(page).toHaveURL(/\/$/)
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker), 'no document load').toBe(1)
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(before)
  }
})
