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
