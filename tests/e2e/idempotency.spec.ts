/**
 * Idempotent admin creates end to end (docs/scale-out.md, "Write safety"): the admin's Add Sub
 * Category form carries the idempotency key its page was rendered with, so the very same submission
 * sent again (a browser retry, a double submit, a request cut off after the save) makes one sub
 * category, while a fresh page load gives a new key for the next create. JavaScript on and off (the
 * first post is the form's own; the retry is the same fields posted again with the admin's cookies).
 */
import { test, expect } from '@playwright/test'
import { ADMIN, FIXTURES, api, fillLogin, isJs, uniqueName, waitForHydration, type Category, type SubCategory } from './helpers.ts'

const countNamed = async (request: Parameters<typeof api>[0], name: string) =>
  (await api<SubCategory[]>(request, '/subcategory/get', {})).data.filter((s) => s.name === name).length

test('an Add Sub Category submission sent twice makes one sub category', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000)
  const javaScript = isJs(testInfo)
  const name = uniqueName(testInfo, 'Idempotent Sub')
  const category = (await api<Category[]>(request, '/category/get')).data[0]!

  try {
    await page.goto('/login')
    await fillLogin(page, ADMIN.email, ADMIN.password)
    await expect(page).toHaveURL(/\/$/)

    await page.goto('/dashboard/subcategory?dialog=add')
    const dialog = page.getByRole('dialog', { name: 'Add Sub Category' })
    const key = dialog.locator('input[type="hidden"][name="idempotencyKey"]')
    const firstKey = await key.getAttribute('value')
    expect(firstKey).toMatch(/^[A-Za-z0-9_-]{8,128}$/)

    const nameField = dialog.getByLabel('Name', { exact: true })
    if (javaScript) await waitForHydration(nameField)
    await nameField.fill(name)
    const image = dialog.getByLabel('Image', { exact: true })
    if (javaScript) await expect(image).toBeEnabled()
    await image.setInputFiles(FIXTURES.png)
    if (javaScript) await expect(dialog.getByRole('img', { name: 'Preview of the image' })).toHaveAttribute('src', /^\/uploads\//)
    await dialog.getByLabel('Select Category', { exact: true }).selectOption({ label: category.name })

    await dialog.getByRole('button', { name: 'Submit', exact: true }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const created = (await api<SubCategory[]>(request, '/subcategory/get', {})).data.filter((s) => s.name === name)
    expect(created).toHaveLength(1)

    // The same submission again, with the admin's cookies, as a browser retrying the post sends it
    // (the image is the stored copy the first post made; its url is content-addressed).
    const resend = (idempotencyKey: string) =>
      page.request.post('/dashboard/subcategory?dialog=add', {
        multipart: { intent: 'add', idempotencyKey, name, image: created[0]!.image, category: category._id },
        headers: { origin: new URL(page.url()).origin },
        maxRedirects: 0,
      })
    const replay = await resend(firstKey!)
    expect(replay.status(), await replay.text()).toBeLessThan(400)
    expect(await countNamed(request, name)).toBe(1)
    // Without the key's protection the same post is a second sub category (the names may repeat).
    const other = await resend(`another-key-${Date.now()}`)
    expect(other.status(), await other.text()).toBeLessThan(400)
    expect(await countNamed(request, name)).toBe(2)

    // The next create gets a key of its own.
    await page.goto('/dashboard/subcategory?dialog=add')
    const nextKey = await page
      .getByRole('dialog', { name: 'Add Sub Category' })
      .locator('input[name="idempotencyKey"]')
      .getAttribute('value')
    expect(nextKey).toMatch(/^[A-Za-z0-9_-]{8,128}$/)
    expect(nextKey).not.toBe(firstKey)
  } finally {
    const leftovers = (await api<SubCategory[]>(request, '/subcategory/get', {})).data.filter((s) => s.name === name)
    if (leftovers.length > 0) {
      const login = await api<{ accessToken: string }>(request, '/user/login', { email: ADMIN.email, password: ADMIN.password })
      for (const sub of leftovers) {
        await request.delete('/api/subcategory/delete', {
          data: { _id: sub._id },
          headers: { Authorization: `Bearer ${login.data.accessToken}` },
        })
      }
    }
  }
})
