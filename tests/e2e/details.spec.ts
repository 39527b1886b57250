/**
 * Copy and details of the cart and the catalogue, with JavaScript on and off: the lines keep the
 * order they were added in from the guest's cart to the checkout (docs/commerce-api.md, "Cart":
 * oldest line first), the brand shows on cart, drawer and checkout lines, the cart's total and
 * "Proceed" are two labels (docs/product.md, "Cart"), a search that finds one product says "1 result",
 * and the internal SKU of "Product details" shows to admins only (docs/product.md, "Product page").
 */
import { expect, test, type Page } from '@playwright/test'
import { ADMIN, productBuyBox, api, fillLogin, isJs, newUser, registerViaApi, waitForHydration } from './helpers.ts'

/** A product as /api/product/get answers it, with the extra fields these tests read. */
interface BrandedProduct {
  _id: string
  name: string
  stock: number
  more_details?: Record<string, unknown>
}

const brandOf = (product: BrandedProduct) => String(product.more_details?.brand ?? '').trim()

/** Opens the product page, presses ADD and waits until the header counts `count` items. */
async function addFromProductPage(page: Page, productId: string, count: number, js: boolean) {
  await page.goto(`/product/p-${productId}`)
  const add = productBuyBox(page).getByRole('button', { name: /^Add .+ to cart$/ })
  if (js) await waitForHydration(add)
  await add.click()
  await expect(page.getByTestId('cart-button')).toContainText(`${count} item`)
}

test('a guest cart keeps its order through sign-in; cart, drawer and checkout lines show the brand', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000)
  const js = isJs(testInfo)
  const user = newUser(testInfo, 'details')
  await registerViaApi(request, user)
  // Five products of five brands: five lines whose order a shuffle would almost surely change.
  const found = (await api<BrandedProduct[]>(request, '/product/get', { search: 'tea', page: 1, limit: 40 })).data
  const products: BrandedProduct[] = []
  for (const product of found)
    if (product.stock > 0 && brandOf(product) && !products.some((p) => brandOf(p) === brandOf(product))) products.push(product)
  expect(products.length, 'five in-stock teas of different brands').toBeGreaterThanOrEqual(5)
  const picks = products.slice(0, 5)
  for (const [i, product] of picks.entries()) await addFromProductPage(page, product._id, i + 1, js)

  await page.goto('/cart')
  const cartLines = page.getByRole('list', { name: 'Cart items' }).getByRole('listitem')
  await expect(cartLines).toHaveCount(picks.length)
  for (const [i, product] of picks.entries()) {
    await expect(cartLines.nth(i)).toContainText(product.name)
    await expect(cartLines.nth(i).getByText(brandOf(product), { exact: true })).toBeVisible()
  }
  // The total is its own text ("Total" over the amount); the link says only where it goes.
  const proceed = page.getByRole('link', { name: /Proceed/ })
  await expect(proceed).toHaveAccessibleName('Proceed')
  await expect(page.getByRole('main').getByText('Total', { exact: true })).toBeVisible()

  if (js) {
    const cartButton = page.getByTestId('cart-button')
    await waitForHydration(cartButton)
    await cartButton.click()
    const drawerLines = page.getByRole('dialog').getByRole('list', { name: 'Cart items' }).getByRole('listitem')
    await expect(drawerLines).toHaveCount(picks.length)
    for (const [i, product] of picks.entries()) await expect(drawerLines.nth(i).getByText(brandOf(product), { exact: true })).toBeVisible()
    await page.keyboard.press('Escape')
  }

  await proceed.click()
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckout/)
  await fillLogin(page, user.email, user.password)
  await expect(page).toHaveURL(/\/checkout/)
  const checkoutLines = page.getByRole('list', { name: 'Items to order' }).getByRole('listitem')
  await expect(checkoutLines).toHaveCount(picks.length)
  for (const [i, product] of picks.entries()) {
    await expect(checkoutLines.nth(i)).toContainText(`1 × ${product.name}`)
    await expect(checkoutLines.nth(i).getByText(brandOf(product), { exact: true })).toBeVisible()
  }
})

test('a search that finds one product says "1 result"', async ({ page }) => {
  await page.goto('/search?q=fruitvegetable')
  await expect(page.getByRole('heading', { name: '1 result for “fruitvegetable”' })).toBeVisible()
  // The status line screen readers hear as the answer arrives.
  await expect(page.getByRole('status').filter({ hasText: 'fruitvegetable' })).toHaveText('1 result for fruitvegetable')
})

test('the SKU of "Product details" shows to admins only', async ({ page, request }) => {
  const [product] = (await api<BrandedProduct[]>(request, '/product/get', { search: 'fruitvegetable', page: 1, limit: 1 })).data
  const sku = String(product!.more_details?.sku ?? '')
  expect(sku, 'the imported product has a SKU').toMatch(/^BB-/)
  const details = page.getByRole('region', { name: 'Product details' })

  await page.goto(`/product/p-${product!._id}`)
  await expect(details).toContainText('Brand')
  await expect(details).not.toContainText('SKU')
  await expect(page.getByRole('main')).not.toContainText(sku)

  await page.goto('/login')
  await fillLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(`/product/p-${product!._id}`)
  await expect(details).toContainText('SKU')
  await expect(details).toContainText(sku)
})
