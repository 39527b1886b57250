/**
 * The rider journeys' set-up, through the API (docs/delivery.md), as tests/e2e/rider.spec.ts does it:
 * a placed cash-on-delivery order of ₹1,000 or more (so it needs the delivery code) to 560038
 * (Indiranagar, open around the clock), the store's queue emptied of earlier runs' riders and orders,
 * and a rider invited by the admin with a password set through the reset mail.
 */
import { expect, type APIRequestContext } from '@playwright/test'
import { api, newUser, otpOf, registerViaApi, waitForMail } from './helpers.ts'

interface Stocked {
  _id: string
  stock: number
  sellingPrice: number
}

/** The `Authorization` header of `email` signed in through the API. */
export const login = async (request: APIRequestContext, email: string, password: string) =>
  ({
    Authorization: `Bearer ${(await api<{ accessToken: string }>(request, '/user/login', { email, password })).data.accessToken}`,
  }) as Record<string, string>

/**
 * A placed cash-on-delivery order of one product of ₹1,000 or more (so it needs the delivery code,
 * DELIVERY_CODE_ABOVE's default), to an address with a floor and a landmark, by a new shopper named
 * "Meera Iyer …" (returned with its password and API headers).
 */
export async function placedOrder(request: APIRequestContext, testInfo: Parameters<typeof newUser>[0], label: string) {
  let product: Stocked | undefined
  for (const search of ['almonds', 'cashew', 'olive oil', 'ghee', 'basmati rice', 'honey']) {
    const found = (await api<Stocked[]>(request, '/product/search-product', { search, page: 1, limit: 50 })).data
    product = found.find((p) => p.stock >= 3 && p.sellingPrice >= 1000)
    if (product) break
  }
  expect(product, 'a product of ₹1,000 or more in stock').toBeTruthy()
  const shopper = { ...newUser(testInfo, `${label}-shopper`), name: `Meera Iyer ${testInfo.project.name}` }
  await registerViaApi(request, shopper)
  const headers = await login(request, shopper.email, shopper.password)
  expect((await request.post('/api/cart/create', { data: { productId: product!._id }, headers })).ok()).toBe(true)
  const address = await request.post('/api/address/create', {
    data: {
      address_line: '5, 12th Main Road',
      floor: '3',
      landmark: 'Blue Gate',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560038',
      mobile: '9876501234',
    },
    headers,
  })
  expect(address.ok(), await address.text()).toBe(true)
  const placed = await request.post('/api/order/cash-on-delivery', {
    data: { addressId: (await address.json()).data._id },
    headers: { ...headers, 'Idempotency-Key': `e2e-${label}-${Date.now()}-${testInfo.project.name}` },
  })
  expect(placed.status(), await placed.text()).toBe(201)
  const order = (await placed.json()).data as { _id: string; orderId: string; store: { _id: string; name: string } }
  return { ...order, shopper: { ...shopper, headers } }
}

/**
 * Deactivates the store's riders and cancels its waiting orders but `keepOrderId`, so the rule has
 * only this test's rider and order; an order an earlier run (or a failed test) left out for delivery
 * is delivered by the desk first (a rider holding one cannot be deactivated).
 */
export async function emptyQueue(request: APIRequestContext, admin: Record<string, string>, storeId: string, keepOrderId?: string) {
  const before = (await (await request.get('/api/dispatch/board', { headers: admin })).json()).data as {
    store: { _id: string }
    riders: { orders: { _id: string; status: string }[] }[]
  }[]
  for (const held of before.find((s) => s.store._id === storeId)?.riders.flatMap((r) => r.orders) ?? []) {
    if (held.status === 'out_for_delivery')
      await request.put('/api/order/update-status', { data: { orderId: held._id, status: 'delivered' }, headers: admin })
  }
  const team = (await (await request.get('/api/staff/list', { headers: admin })).json()).data as {
    _id: string
    role: string
    status: string
    storeId: string | null
  }[]
  for (const rider of team.filter((m) => m.role === 'RIDER' && m.status === 'Active' && m.storeId === storeId)) {
    const res = await request.put('/api/staff/update', { data: { _id: rider._id, status: 'Inactive' }, headers: admin })
    expect(res.ok(), await res.text()).toBe(true)
  }
  const board = (await (await request.get('/api/dispatch/board', { headers: admin })).json()).data as {
    store: { _id: string }
    waiting: { _id: string }[]
  }[]
  const store = board.find((s) => s.store._id === storeId)!
  for (const order of store.waiting.filter((o) => o._id !== keepOrderId)) {
    await request.put('/api/order/update-status', { data: { orderId: order._id, status: 'cancelled' }, headers: admin })
  }
}

/** Sets `password` on `email`'s account by the password-reset flow's API (the code read from the mail). */
export async function setPasswordByReset(request: APIRequestContext, email: string, password: string) {
  const since = Date.now()
  await request.put('/api/user/forgot-password', { data: { email } })
  let otp = ''
  await expect
    .poll(async () => {
      const mail = await waitForMail(email, since)
      if (mail.subject === 'Your password reset code') otp = otpOf(mail)
      return otp
    })
    .not.toBe('')
  const verified = await request.put('/api/user/verify-forgot-password-otp', { data: { email, otp } })
  expect(verified.status()).toBe(200)
  const { resetToken } = (await verified.json()).data as { resetToken: string }
  const reset = await request.put('/api/user/reset-password', {
    data: { email, newPassword: password, confirmPassword: password, resetToken },
  })
  expect(reset.status()).toBe(200)
}

/** A rider of `storeId` invited by the admin through the API, with its password set: its email, name and password. */
export async function invitedRider(
  request: APIRequestContext,
  admin: Record<string, string>,
  testInfo: Parameters<typeof newUser>[0],
  storeId: string,
  name: string,
) {
  const rider = { ...newUser(testInfo, 'rider'), name }
  const invited = await request.post('/api/staff/invite', { data: { email: rider.email, role: 'RIDER', storeId, name }, headers: admin })
  expect(invited.status(), await invited.text()).toBe(201)
  await setPasswordByReset(request, rider.email, rider.password)
  return rider
}
