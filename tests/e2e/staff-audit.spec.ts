/**
 * Staff and the audit trail (docs/product.md, "Roles and permissions" and "Audit trail"), with
 * JavaScript on and off:
 *
 * - the demo staff member (made by `npm run admin -- --role staff`, scripts/e2e-server.mjs) sees only
 *   Orders and Stock of the admin links, reaches the order desk and a store's stock, and is refused
 *   a catalogue page and the audit trail with "Do not have permission";
 * - an admin changes a product's selling price in the product list's edit dialog and finds the change
 *   on /dashboard/audit, filtered to product updates, with the price before and after.
 */
import { expect, test } from '@playwright/test'
import {
  ADMIN,
  createProductViaApi,
  isJs,
  openAccountMenu,
  signInWithPassword,
  STAFF,
  toast,
  uniqueName,
  waitForHydration,
} from './helpers.ts'

test('a staff member sees only Orders and Stock, reaches them, and is refused the catalogue and the audit trail', async ({ page }) => {
  await signInWithPassword(page, STAFF)
  const menu = await openAccountMenu(page)
  await expect(page.getByRole('banner').getByText(`${STAFF.name} (Staff)`, { exact: true })).toBeVisible()
  await expect(menu.getByRole('link', { name: 'Orders', exact: true })).toBeVisible()
  await expect(menu.getByRole('link', { name: 'Stock', exact: true })).toBeVisible()
  for (const name of ['Category', 'Sub Category', 'Upload Product', 'Product', 'Stores', 'Staff', 'Audit']) {
    await expect(menu.getByRole('link', { name, exact: true })).toHaveCount(0)
  }

  await page.goto('/dashboard/orders')
  await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible()
  const side = page.getByTestId('dashboard-menu')
  await expect(side.getByRole('link', { name: 'Stock', exact: true })).toBeVisible()
  await expect(side.getByRole('link', { name: 'Category', exact: true })).toHaveCount(0)

  // The stores list, read-only but for each store's stock.
  await side.getByRole('link', { name: 'Stock', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/stores$/)
  await expect(page.getByRole('link', { name: 'Add Store' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: /^Edit / })).toHaveCount(0)
  await page
    .getByRole('link', { name: /^Stock of / })
    .first()
    .click()
  await expect(page).toHaveURL(/\/dashboard\/stores\/[^/]+\/stock/)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Stock')

  for (const path of ['/dashboard/product', '/dashboard/category', '/dashboard/audit', '/dashboard/staff']) {
    const response = await page.goto(path)
    expect(response?.status(), path).toBe(403)
    await expect(page.getByRole('alert').filter({ hasText: 'Do not have permission' })).toBeVisible()
  }
})

test('an admin changes a product price and sees the audit entry with the price before and after', async ({ page, request }, testInfo) => {
  const name = uniqueName(testInfo, 'Audited Ghee')
  const { productId, headers } = await createProductViaApi(request, { name, unit: '1 l', stock: 5, price: 650, sellingPrice: 610 })
  try {
    await signInWithPassword(page, ADMIN)
    await page.goto(`/dashboard/product?${new URLSearchParams({ q: name, edit: productId })}`)
    const dialog = page.getByRole('dialog', { name: 'Edit Product' })
    const update = dialog.getByRole('button', { name: 'Update', exact: true })
    if (isJs(testInfo)) await waitForHydration(update)
    await expect(dialog.getByLabel('Selling Price', { exact: true })).toHaveValue('610')
    await dialog.getByLabel('Selling Price', { exact: true }).fill('585')
    await update.click()
    await expect(toast(page, 'Product updated successfully')).toBeVisible()

    // The audit page, filtered with its GET form (a plain submit without JavaScript).
    await page.goto('/dashboard/audit')
    const filters = page.getByRole('search', { name: 'Filter the audit trail' })
    if (isJs(testInfo)) await waitForHydration(filters.getByRole('button', { name: 'Filter' }))
    await filters.getByLabel('Actor (email)').fill(ADMIN.email)
    await filters.getByLabel('Entity').selectOption('product')
    await filters.getByLabel('Action').selectOption('update')
    await filters.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/entity=product/)
    const entry = page.locator('[data-card="audit entry"]').filter({ hasText: productId }).first()
    await expect(entry).toContainText('Updated · Product')
    await expect(entry).toContainText(`by ${ADMIN.email}`)
    const change = entry.locator('[data-change="sellingPrice"]')
    await expect(change).toContainText('610')
    await expect(change).toContainText('585')
    // Only the fields that changed: the MRP did not.
    await expect(entry.locator('[data-change="price"]')).toHaveCount(0)
  } finally {
    const removed = await request.delete('/api/product/delete-product', { data: { _id: productId }, headers })
    expect(removed.ok(), await removed.text()).toBe(true)
  }
})
