/**
 * A placed order for the order tests: a fresh shopper with an Indiranagar address (560008, served
 * by the default store) orders one new product ("Toor Dal", 1 kg, MRP ₹180, selling ₹150, 10 in
 * stock) by cash on delivery, with an idempotency key of its own.
 */
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { Db } from '../db/client.ts'
import { orderLines, orders } from '../db/schema.ts'
import type { TestApp } from './app.ts'
import { createShopper, type SignedIn } from './auth.ts'
import { insertProduct } from './fixtures.ts'

/** The delivery address every such order uses. */
export const TEST_ADDRESS = {
  address_line: '12, Old Airport Road',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560008',
  mobile: '9845012345',
}

let keySeq = 0

/** A fresh shopper with TEST_ADDRESS saved through the API: the signed-in shopper and the address's `_id`. */
export async function createShopperWithAddress(t: TestApp): Promise<SignedIn & { addressId: string }> {
  const who = await createShopper(t)
  const res = await t.call('address/create', { method: 'POST', json: TEST_ADDRESS, token: who.token })
  expect(res.status).toBe(201)
  return { ...who, addressId: res.body.data._id as string }
}

/** A fresh shopper with TEST_ADDRESS saved and one unit of `productId` in the cart (the placement tests' buyer). */
export async function shopperWithLine(t: TestApp, productId: string): Promise<SignedIn & { addressId: string }> {
  const who = await createShopperWithAddress(t)
  expect((await t.call('cart/create', { method: 'POST', json: { productId }, token: who.token })).status).toBe(200)
  return who
}

/** Places the order through the API (201 expected); answers the shopper and the order as answered. */
export async function placeTestOrder(t: TestApp): Promise<{ who: SignedIn; order: { _id: string; orderId: string; version: number } }> {
  const product = await insertProduct(t.db, { name: 'Toor Dal', unit: '1 kg', price: 180, sellingPrice: 150, stock: 10 })
  const { addressId, ...who } = await shopperWithLine(t, product.id)
  const res = await placeWithKey(t, { token: who.token, addressId }, `test-order-${process.pid}-${++keySeq}`)
  expect(res.status).toBe(201)
  return { who, order: res.body.data }
}

/** Posts a cash-on-delivery placement of `who`'s cart to their address with `Idempotency-Key: key`; answers as `t.call` does. */
/**
 * Pays the shopper's cart online by UPI (docs/payments.md): POST /api/payment/start with `key` as its
 * Idempotency-Key and `extra` in its body (a tip), then the callback of the payment `provider` (the
 * test provider) reports it captured. Expects 201 and the outcome "paid".
 * @returns the order payment/start answered
 */
export async function payOnline(
  t: TestApp,
  who: { token: string; addressId: string },
  provider: { complete(providerOrderId: string, outcome: 'captured'): Promise<Record<string, string>> },
  key: string,
  extra: Record<string, unknown> = {},
): Promise<{ _id: string; orderId: string; bill: { grandTotal: number; deliveryCharge: number; tip?: number } }> {
  const res = await t.call('payment/start', {
    method: 'POST',
    json: {
      addressId: who.addressId,
      method: 'upi',
      callbackUrl: 'http://shop.test/checkout/payment/callback',
      cancelUrl: 'http://shop.test/checkout',
      ...extra,
    },
    token: who.token,
    headers: { 'Idempotency-Key': key },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const paid = await t.call('payment/callback', {
    method: 'POST',
    json: await provider.complete(res.body.data.checkout.providerOrderId, 'captured'),
  })
  expect(paid.body.data.outcome).toBe('paid')
  return res.body.data.order
}

export const placeWithKey = (t: TestApp, who: { token: string; addressId: string }, key: string) =>
  t.call('order/cash-on-delivery', {
    method: 'POST',
    json: { addressId: who.addressId },
    token: who.token,
    headers: { 'Idempotency-Key': key },
  })

/** The ids of every order with a line of `productId`, sorted: what a placement test compares its 201 answers with. */
export async function orderIdsWithProduct(db: Db, productId: string): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
    .where(eq(orderLines.productId, productId))
  return rows.map((r) => r.id).sort()
}
