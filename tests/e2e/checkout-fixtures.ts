/**
 * Set-up shared by the checkout journeys (coupon-checkout.spec.ts, tip-instructions.spec.ts), through
 * the API as the original client does it: a product of a middling price, and a shopper with it in the
 * cart and a Bengaluru address, ready for /checkout.
 */
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test'
import { api, newUser, registerViaApi } from './helpers.ts'

/** A product as the search answers it: id, name, selling price (rupees) and stock. */
export interface Priced {
  _id: string
  name: string
  sellingPrice: number
  stock: number
}

/** A product in stock priced between ₹40 and ₹150, so one unit is below ₹199 and a few reach it. */
export async function midPricedProduct(request: APIRequestContext): Promise<Priced> {
  for (const search of ['biscuits', 'chips', 'juice', 'soap', 'masala', 'noodles']) {
    const found = (await api<Priced[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    const hit = found.find((p) => p.sellingPrice >= 40 && p.sellingPrice <= 150 && p.stock >= 8)
    if (hit) return hit
  }
  throw new Error('no product between ₹40 and ₹150 in stock found')
}

/** The checkout's and the order's bill. */
export const billRegion = (page: Page) => page.getByRole('region', { name: 'Bill details' })

/**
 * A new shopper (`label` names it per project and run) with one unit of `productId` in the cart and
 * an address in Indiranagar's area (560038). @returns the shopper and their Bearer header
 */
export async function shopperReadyToCheckout(request: APIRequestContext, testInfo: TestInfo, label: string, productId: string) {
  const user = newUser(testInfo, label)
  await registerViaApi(request, user)
  const token = (await api<{ accessToken: string }>(request, '/user/login', { email: user.email, password: user.password })).data
    .accessToken
  const headers = { Authorization: `Bearer ${token}` }
  expect((await request.post('/api/cart/create', { data: { productId }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: { address_line: '221, 12th Main, HAL 2nd Stage', city: 'Bengaluru', state: 'Karnataka', pincode: '560038', mobile: '9820098200' },
    headers,
  })
  expect(address.ok()).toBe(true)
  return { user, headers }
}
