/**
 * /checkout/payment/callback against the REAL API in process (docs/payments.md, "Callback"): a failed
 * payment, posted as Razorpay posts it (no signature; the provider order inside `error[metadata]`),
 * sends the shopper to the pay page by the order number they already have, and neither the redirect
 * nor the API's answer holds an id of ours.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../../../../api/testing/app.ts'
import { createShopper } from '../../../../api/testing/auth.ts'
import { insertProduct } from '../../../../api/testing/fixtures.ts'
import { RouterContextProvider } from 'react-router'
import { apiClientContext, apiFor, inProcessWiring } from '../../../.server/api-context.ts'

const envBefore = { ...process.env }
let t: TestApp
let route: typeof import('./callback.ts')

beforeAll(async () => {
  t = await createTestApp()
  delete process.env.API_URL
  process.env.SESSION_SECRET = 'test-session-secret-0123456789abcdef'
  vi.resetModules()
  route = await import('./callback.ts')
})
afterAll(async () => {
  process.env = { ...envBefore }
  await t?.close()
})

/** Runs the route's action on a form post and answers the Response it throws (a redirect or an error). */
async function post(fields: Record<string, string>): Promise<Response> {
  const request = new Request('http://shop.test/checkout/payment/callback', { method: 'POST', body: new URLSearchParams(fields) })
  const wiring = inProcessWiring(async (r) => t.app.fetch(r))
  try {
    // The request's Api as the root middleware puts it in the router context (app/.server/location.server.ts).
    const context = new RouterContextProvider()
    context.set(apiClientContext, apiFor(wiring))
    await route.action({ request, context } as never)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    // React Router's `data()` error: its status is all a test needs.
    return new Response(null, { status: (thrown as { init?: { status?: number } }).init?.status ?? 500 })
  }
  throw new Error('the action returned instead of redirecting')
}

describe('the payment callback', () => {
  it('a failure goes to the pay page by order number; no id of ours in the redirect', async () => {
    const who = await createShopper(t)
    const address = { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' }
    const addressId = (await t.call('address/create', { method: 'POST', json: address, token: who.token })).body.data._id
    const p = await insertProduct(t.db, { name: 'Sugar', price: 60, sellingPrice: 60, stock: 3 })
    await t.call('cart/create', { method: 'POST', json: { productId: p.id }, token: who.token })
    const started = await t.call('payment/start', {
      method: 'POST',
      json: { addressId, method: 'upi', callbackUrl: 'http://shop.test/checkout/payment/callback', cancelUrl: 'http://shop.test/checkout' },
      token: who.token,
      headers: { 'Idempotency-Key': 'callback-failure-1' },
    })
    expect(started.status).toBe(201)
    const { order, checkout } = started.body.data
    const res = await post({
      'error[code]': 'BAD_REQUEST_ERROR',
      'error[description]': 'Payment declined by the bank',
      'error[metadata]': JSON.stringify({ payment_id: 'pay_Declined000001', order_id: checkout.providerOrderId }),
    })
    expect(res.status).toBe(303)
    const location = res.headers.get('location')!
    expect(location).toBe(`/checkout/pay/${order.orderId}?failed=1`)
    // Exactly the number: nothing else of ours (order id, payment or provider ids) rides along.
    expect(location).not.toContain(order._id)
  })
})
