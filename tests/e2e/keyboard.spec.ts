/**
 * Keyboard and screen-reader use of buying (docs/accessibility.md, "Keyboard and focus"): skip links
 * to the content and to the cart come first, focus stays on the product's controls after ADD, the
 * drawer's "Proceed" lands in the sign-in form, the cart button says what it holds once, and the
 * stepper's count is announced ("1 in cart") from a live region.
 */
import { test, expect, type Locator, type Page } from '@playwright/test'
import { PRODUCT_LINK, isJs, waitForHydration } from './helpers.ts'

/** The accessible name of `target`, as Chromium's accessibility tree gives it. */
async function accessibleName(target: Locator): Promise<string> {
  // The first line of the snapshot, `- link "name"`, quoted as YAML when it holds a colon.
  let line = (await target.ariaSnapshot()).split('\n')[0]!.replace(/^- /, '')
  if (line.startsWith("'")) line = line.slice(1, line.lastIndexOf("'")).replace(/''/g, "'")
  const name = /^\w+ "(.*)"/.exec(line)?.[1]
  const snapshot = line
  expect(name, `a name in ${snapshot}`).toBeTruthy()
  return name!
}

/**
 * Puts a product in the cart with the keyboard from the first card of /search?q=milk. Answers the
 * product's name and its card (found by the link to its page: two products may share a name).
 */
async function addFirstMilk(page: Page): Promise<{ name: string; card: Locator }> {
  await page.goto('/search?q=milk')
  const main = page.getByRole('main')
  const first = main
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: /^Add .+ to cart$/ }) })
    .first()
  const href = (await first.locator(PRODUCT_LINK).first().getAttribute('href'))!
  const card = main.getByRole('listitem').filter({ has: page.locator(`a[href="${href}"]`) })
  const add = card.getByRole('button', { name: /^Add .+ to cart$/ })
  const name = /^Add (.+) to cart$/.exec((await add.getAttribute('aria-label'))!)![1]!
  if (isJs(test.info())) await waitForHydration(add)
  await add.focus()
  await page.keyboard.press('Enter')
  return { name, card }
}

test.describe('skip links', () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`come first and move focus at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport)
      // The home page: nothing on it takes the focus on arrival (the search page's field does).
      await page.goto('/')
      await page.keyboard.press('Tab')
      const toContent = page.getByRole('link', { name: 'Skip to content' })
      await expect(toContent).toBeFocused()
      await page.keyboard.press('Tab')
      const toCart = page.getByRole('link', { name: 'Skip to cart' }).filter({ visible: true })
      await expect(toCart).toBeFocused()

      // To the content: focus is in <main>, and the next Tab is the content's first control.
      await page.keyboard.press('Shift+Tab')
      await page.keyboard.press('Enter')
      await expect(page.getByRole('main')).toBeFocused()
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true)

      // To the cart: the header's cart button from 768 px; the cart page on a phone (no cart button there).
      await page.goto('/')
      await page.keyboard.press('Tab')
      await page.keyboard.press('Tab')
      await page.keyboard.press('Enter')
      if (viewport.width >= 768) {
        await expect(page.getByTestId('cart-button')).toBeFocused()
      } else {
        await expect(page).toHaveURL(/\/cart$/)
      }
    })
  }
})

test('the cart button says what it holds once', async ({ page }) => {
  await addFirstMilk(page)
  const button = page.getByTestId('cart-button')
  await expect(button).toContainText('1 item')
  const name = await accessibleName(button)
  expect(name).toMatch(/^My Cart\b/)
  expect(name.match(/1 item/g), name).toHaveLength(1)
  expect(name.match(/₹/g), name).toHaveLength(1)
})

test('the stepper announces its count from a live region', async ({ page }) => {
  const { name, card } = await addFirstMilk(page)
  await expect(card.getByRole('button', { name: `Add one more ${name}`, exact: true })).toBeVisible()
  const count = card.getByRole('status')
  await expect(count).toHaveText('1 in cart')
  // Only the number is seen; the words are for screen readers.
  await expect(count.getByText('1', { exact: true })).toBeVisible()
  await expect(count.getByText('in cart')).toHaveClass(/\bsr-only\b/)
})

test('focus stays on the product after ADD', async ({ page }, testInfo) => {
  test.skip(!isJs(testInfo), 'Without JavaScript ADD loads the page again, at the card')
  const { name, card } = await addFirstMilk(page)
  await expect(card.getByRole('button', { name: `Add one more ${name}`, exact: true })).toBeFocused()
  // And back to ADD when the last one is taken out.
  const minus = card.getByRole('button', { name: `Remove one ${name}`, exact: true })
  await expect(minus).toBeVisible()
  await page.keyboard.press('Shift+Tab')
  await expect(minus).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(card.getByRole('button', { name: `Add ${name} to cart`, exact: true })).toBeFocused()
})

test('Proceed from the cart drawer lands in the sign-in form', async ({ page }, testInfo) => {
  test.skip(!isJs(testInfo), 'Without JavaScript the cart button is a link to /cart: there is no drawer')
  await addFirstMilk(page)
  const button = page.getByTestId('cart-button')
  await expect(button).toContainText('1 item')
  await button.click()
  const drawer = page.getByRole('dialog', { name: 'My Cart' })
  const proceed = drawer.getByRole('link', { name: /Proceed/ })
  await proceed.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckout$/)
  await expect(drawer).toBeHidden()
  await expect(page.getByRole('main').getByLabel('Email', { exact: true })).toBeFocused()
})
