/**
 * Coupons at /dashboard/coupons (docs/offers.md, "Coupons"), with JavaScript on and off, at 360 px:
 * the demo codes are listed; an admin creates a percent coupon with a cap and a minimum basket, sees
 * a taken code refused on its field, switches the new coupon off, and finds both changes on the audit
 * trail. Each project makes its own code, so the two projects never share a row.
 */
import { expect, test } from '@playwright/test'
import { ADMIN, isJs, signInWithPassword, toast, waitForHydration } from './helpers.ts'

test('an admin creates a coupon, is refused a taken code, and switches the coupon off', async ({ page }, testInfo) => {
  const js = isJs(testInfo)
  await page.setViewportSize({ width: 360, height: 800 })
  await signInWithPassword(page, ADMIN)
  await page.goto('/dashboard/coupons')
  const list = page.getByRole('list', { name: 'Coupons' })
  await expect(list.locator('[data-code="WELCOME50"]')).toContainText('₹50 off')
  await expect(list.locator('[data-code="SAVE10"]')).toContainText('10% off up to ₹75')

  const code = `E2E${js ? 'JS' : 'NOJS'}${Date.now() % 1_000_000}`
  for (const attempt of ['WELCOME50', code]) {
    await page.goto('/dashboard/coupons?dialog=create')
    const dialog = page.getByRole('dialog', { name: 'New coupon' })
    const create = dialog.getByRole('button', { name: 'Create coupon' })
    if (js) await waitForHydration(create)
    await dialog.getByLabel('Code').fill(attempt.toLowerCase())
    await dialog.getByLabel('Kind').selectOption('percent')
    await dialog.getByLabel('Percent: % off').fill('15')
    await dialog.getByLabel('Percent: at most ₹').fill('60')
    await dialog.getByLabel('Minimum basket ₹').fill('300')
    await create.click()
    if (attempt === 'WELCOME50') await expect(dialog.getByText('Another coupon already has this code').first()).toBeVisible()
  }
  await expect(toast(page, `${code} created`)).toBeVisible()
  const card = list.locator(`[data-code="${code}"]`)
  await expect(card).toContainText('15% off up to ₹60')
  await expect(card).toContainText('₹300')
  await expect(card.locator('[data-field="active"]')).toHaveText('On')

  const off = card.getByRole('button', { name: `Switch ${code} off` })
  if (js) await waitForHydration(off)
  await off.click()
  await expect(toast(page, `${code} is off`)).toBeVisible()
  await expect(card.locator('[data-field="active"]')).toHaveText('Off')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  await page.goto('/dashboard/audit?entity=coupon')
  await expect(page.getByText(code).first()).toBeVisible()
})
