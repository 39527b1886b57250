/**
 * Nothing moves under the pointer (docs/product.md, "Forms in general"): leaving a field never
 * changes a form's layout (the checks run when the form is sent, then on every change of a field
 * shown wrong), so a click that starts as the field loses focus lands where it was aimed; and toasts
 * sit below the header, never over its search field (docs/product.md, "Toasts").
 */
import { test, expect, type Locator, type Page } from '@playwright/test'
import { ADMIN, fillLogin, isJs, newUser, registerViaApi, signIn, submitLogin, toast, waitForHydration } from './helpers.ts'

/**
 * A person's click on `target`: the button goes down, stays down for a moment (a real press lasts
 * about 100 ms, time enough for the page to react to the blur it causes) and comes up at the same
 * place. Playwright's own `click()` sends both halves at once.
 */
async function humanClick(page: Page, target: Locator) {
  const box = await target.boundingBox()
  expect(box, 'the target is on screen').not.toBeNull()
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2)
  await page.mouse.down()
  await page.waitForTimeout(150)
  await page.mouse.up()
}

/** The fields a person types into: text-like inputs and text areas that are shown. */
function typedFields(form: Locator): Locator {
  return form
    .locator('input:not([type=hidden]):not([type=file]):not([type=checkbox]):not([type=radio]):not([type=submit]), textarea')
    .filter({ visible: true })
}

/** The form's height and the top of what follows it (`after`), in CSS pixels. */
async function layoutOf(form: Locator, after: Locator) {
  const [formBox, afterBox] = await Promise.all([form.boundingBox(), after.boundingBox()])
  // `after`'s offset from the form's top: Tab into a field below the fold scrolls the page, which is not a move.
  return { height: Math.round(formBox!.height), next: Math.round(afterBox!.y - formBox!.y) }
}

/**
 * Focuses each field of `form` in turn, types `x` into the email ones (a value the schema refuses) and
 * leaves the others empty, then leaves it (Tab): after every step the form's height and the position
 * of `after` are what they were.
 */
async function expectBlurKeepsLayout(page: Page, form: Locator, after: Locator) {
  await waitForHydration(form)
  const before = await layoutOf(form, after)
  const fields = typedFields(form)
  const count = await fields.count()
  expect(count, 'the form has fields').toBeGreaterThan(0)
  for (let i = 0; i < count; i++) {
    const field = fields.nth(i)
    await field.focus()
    if ((await field.getAttribute('type')) === 'email') await field.fill('x')
    await page.keyboard.press('Tab')
    // Conform's blur check renders in the same task; give React a frame to commit it.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    expect(await layoutOf(form, after), `after leaving field ${i + 1} (${await field.getAttribute('name')})`).toEqual(before)
  }
}

test.describe('leaving a field', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'Without JavaScript nothing is checked before the form is sent')

  for (const { path, link } of [
    { path: '/login', link: 'Register' },
    { path: '/login', link: 'Forgot password ?' },
    { path: '/register', link: 'Login' },
    { path: '/forgot-password', link: 'Login' },
  ]) {
    test(`the first click on "${link}" right after landing on ${path} follows it`, async ({ page }) => {
      await page.goto(path)
      const main = page.getByRole('main')
      const target = main.getByRole('link', { name: link, exact: true })
      // The page's first field has the focus (autofocus); the click takes it away.
      await waitForHydration(main.locator('form'))
      await expect(main.locator('input[autofocus]').first()).toBeFocused()
      const href = (await target.getAttribute('href'))!.split('?')[0]
      await humanClick(page, target)
      await expect(page).toHaveURL(new RegExp(`${href}(\\?|$)`))
    })
  }

  test('never moves the sign-in pages', async ({ page }) => {
    for (const path of ['/login', '/register', '/forgot-password']) {
      await page.goto(path)
      const main = page.getByRole('main')
      await expectBlurKeepsLayout(page, main.locator('form'), main.getByRole('link').last())
    }
  })

  test('never moves the address form', async ({ page, request }, testInfo) => {
    const user = newUser(testInfo, 'blur-address')
    await registerViaApi(request, user)
    await signIn(page, user)
    await page.goto('/dashboard/address?add=1')
    const form = page
      .getByRole('main')
      .locator('form')
      .filter({ has: page.getByLabel('Pincode') })
    await expectBlurKeepsLayout(page, form, form.getByRole('button').last())
  })

  test('never moves an admin form', async ({ page }) => {
    await submitLogin(page, ADMIN.email, ADMIN.password)
    await expect(page).toHaveURL(/\/$/)
    await page.goto('/dashboard/category?dialog=add')
    const form = page.locator('form').filter({ has: page.getByLabel('Name', { exact: true }) })
    await expectBlurKeepsLayout(page, form, form.getByRole('button').last())
  })

  test('the checks still run when the form is sent, then as the shopper types', async ({ page }) => {
    await page.goto('/login')
    const main = page.getByRole('main')
    const email = main.getByLabel('Email', { exact: true })
    await waitForHydration(email)
    await email.fill('not-an-email')
    await main.getByLabel('Password', { exact: true }).fill('anything')
    await main.getByRole('button', { name: 'Login', exact: true }).click()
    const message = main.getByRole('listitem').filter({ hasText: /valid email/i })
    await expect(message).toBeVisible()
    await expect(page).toHaveURL(/\/login$/)
    // Now shown wrong, the field is checked on every change: the message goes as soon as it is right.
    await email.fill('someone@example.com')
    await expect(message).toHaveCount(0)
  })
})

/**
 * Where the toast `target` rests: its layout box, which react-hot-toast's slide (a transform on the
 * toast, inside the toaster's own positioned row for it) does not move. Read from the layout, not
 * from a painted frame, so a renderer slowed by load is never caught mid-slide or already leaving
 * (the flake this replaced). The server-rendered toast of a page without JavaScript does not move.
 */
async function restingBox(target: Locator) {
  await expect(target).toBeVisible()
  if (!isJs(test.info())) return target.boundingBox()
  return target.evaluate((el) => {
    // The toaster (`[data-rht-toaster]`) holds one positioned row per toast, the toast bar inside it.
    let row: HTMLElement = el as HTMLElement
    while (row.parentElement && !row.parentElement.hasAttribute('data-rht-toaster')) row = row.parentElement
    const bar = row.firstElementChild as HTMLElement | null
    if (!row.parentElement || !bar) {
      const { x, y, width, height } = el.getBoundingClientRect()
      return { x, y, width, height }
    }
    const rowBox = row.getBoundingClientRect()
    return { x: rowBox.x + bar.offsetLeft, y: rowBox.y + bar.offsetTop, width: bar.offsetWidth, height: bar.offsetHeight }
  })
}

/** Whether two boxes share any area. */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
]) {
  test(`a toast does not cover the header's search field at ${viewport.width} px`, async ({ page, request }, testInfo) => {
    await page.setViewportSize(viewport)
    const user = newUser(testInfo, `toast-${viewport.width}`)
    await registerViaApi(request, user)
    await submitLogin(page, user.email, user.password)
    await expect(page).toHaveURL(/\/$/)
    const search = page.getByRole('banner').getByRole('link', { name: 'Search products' })
    const [toastBox, searchBox] = await Promise.all([restingBox(toast(page, 'Login successfully')), search.boundingBox()])
    expect(toastBox && searchBox, 'toast and search field are on screen').toBeTruthy()
    expect(overlaps(toastBox!, searchBox!), `toast ${JSON.stringify(toastBox)} vs search ${JSON.stringify(searchBox)}`).toBe(false)
    // It is still at the top of the window, just under the header.
    const header = await page.getByRole('banner').boundingBox()
    expect(toastBox!.y).toBeGreaterThanOrEqual(header!.y + header!.height)
    expect(toastBox!.y).toBeLessThan(header!.y + header!.height + 40)
  })
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
]) {
  test(`a toast does not cover the search page's own field at ${viewport.width} px`, async ({ page, request }, testInfo) => {
    // On /search?q= the header has no search field: the page shows its own at the top of the content.
    await page.setViewportSize(viewport)
    const user = newUser(testInfo, `toast-search-${viewport.width}`)
    await registerViaApi(request, user)
    await page.goto(`/login?${new URLSearchParams({ redirectTo: '/search?q=milk' })}`)
    await fillLogin(page, user.email, user.password)
    await expect(page).toHaveURL(/\/search\?q=milk$/)
    const field = page.getByRole('main').getByRole('searchbox', { name: 'Search products' })
    const [toastBox, fieldBox] = await Promise.all([restingBox(toast(page, 'Login successfully')), field.boundingBox()])
    expect(toastBox && fieldBox, 'toast and search field are on screen').toBeTruthy()
    expect(overlaps(toastBox!, fieldBox!), `toast ${JSON.stringify(toastBox)} vs search ${JSON.stringify(fieldBox)}`).toBe(false)
  })
}
