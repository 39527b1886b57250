/**
 * An ADD on a catalogue page (search, listing, product) changes the cart only: with JavaScript the
 * page then re-reads the root loader's cart summary alone, not its own catalogue data
 * (app/lib/cart.ts `revalidateExceptAfterCartWrite`); without JavaScript the form's redirect brings
 * the same page back with the count. Either way the header and the card show the new quantity.
 */
import { expect, test, type Page } from '@playwright/test'
import { isJs, waitForHydration } from './helpers.ts'

const cartButton = (page: Page) => page.getByTestId('cart-button')

for (const path of ['/search?q=milk', '/product/p-PRODUCT']) {
  test(`an ADD on ${path.startsWith('/search') ? 'the search page' : 'a product page'} re-reads the cart, not the page`, async ({
    page,
  }, testInfo) => {
    let url = path
    if (path.includes('PRODUCT')) {
      // The first product of the search page, by its own page's URL.
      await page.goto('/search?q=milk')
      url = (await page.getByRole('main').locator('article a[href^="/product/"]').first().getAttribute('href'))!
    }
    await page.goto(url)
    const add = page
      .getByRole('main')
      .getByRole('button', { name: /^Add .+ to cart$/ })
      .first()
    const name = (await add.getAttribute('aria-label'))!.replace(/^Add (.+) to cart$/, '$1')
    const dataReads: string[] = []
    if (isJs(testInfo)) {
      await waitForHydration(add)
      page.on('request', (request) => {
        if (request.method() === 'GET' && new URL(request.url()).pathname.endsWith('.data')) dataReads.push(request.url())
      })
    }
    await add.click()
    await expect(cartButton(page)).toContainText('1 item')
    await expect(page.getByRole('button', { name: `Add one more ${name}` }).first()).toBeVisible()
    if (!isJs(testInfo)) {
      // The form's redirect: back to the same page, at the card.
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(url)
      return
    }
    // One revalidation, and it asks for the root loader only.
    expect(dataReads.length).toBeGreaterThan(0)
    for (const read of dataReads) expect(new URL(read).searchParams.get('_routes'), read).toBe('root')
  })
}

test('presses of "+" while the first ADD is still under way are each counted, not lost', async ({ page }, testInfo) => {
  test.skip(!isJs(testInfo), 'Without JavaScript each press loads a page: no press overlaps another')
  await page.goto('/search?q=milk')
  const add = page
    .getByRole('main')
    .getByRole('button', { name: /^Add .+ to cart$/ })
    .first()
  const name = (await add.getAttribute('aria-label'))!.replace(/^Add (.+) to cart$/, '$1')
  await waitForHydration(add)
  // The first cart post is held until the two presses of "+" are made, as on a slow network.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let first = true
  await page.route(
    (url) => url.pathname.startsWith('/cart'),
    async (route) => {
      if (route.request().method() === 'POST' && first) {
        first = false
        await held
      }
      await route.continue().catch(() => {})
    },
  )
  await add.click()
  const more = page.getByRole('button', { name: `Add one more ${name}` }).first()
  const count = page.locator('.cart-stepper', { has: more }).locator('output')
  await more.click()
  await more.click()
  await expect(count).toContainText('3')
  // Shown at once, but not yet the cart's: the stepper says it is busy until every press has landed.
  const stepper = page.locator('.cart-stepper', { has: more })
  await expect(stepper).toHaveAttribute('aria-busy', 'true')
  release()
  await expect(cartButton(page)).toContainText('3 items')
  await expect(stepper).not.toHaveAttribute('aria-busy', 'true')
  // The server holds three: the count survives a reload.
  await page.reload()
  await expect(
    page
      .locator('.cart-stepper', { has: page.getByRole('button', { name: `Add one more ${name}` }).first() })
      .locator('output')
      .first(),
  ).toContainText('3')
})
