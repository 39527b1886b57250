/**
 * The test payment provider across instances (docs/scale-out.md, "Shared settings (the same value on every instance)";
 * docs/decisions/0044-test-provider-state-in-the-database.md): two production instances of server.ts
 * on one PostgreSQL database, each with its own DATA_DIR, sharing `TEST_PAYMENT_SECRET`. An order's
 * payment started on A is served its test checkout page by B, paid through B's page, its callback
 * verified by B, and a webhook signed with the shared secret is verified by B. Needs TEST_DATABASE_URL
 * and a build (`npm run build`).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../api/db/client.ts'
import { createUser } from '../../api/modules/user/service.ts'
import { newId } from '../../api/lib/ids.ts'
import { insertProduct } from '../../api/testing/fixtures.ts'
import { hmacHex } from '../../api/modules/payment/provider.ts'
import { testProviderSecrets } from '../../api/modules/payment/settings.ts'
import { createDatabase, startInstance, waitReady, type Instance } from './cluster.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const dbName = `testpay_${newId()}`
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-testpay-'))
const basePort = Number(process.env.TESTPAY_PORT ?? 3490)
const TEST_PAYMENT_SECRET = 'scale-test-payment-secret-0123456789abcdef'
const SHOPPER = { name: 'Scale Shopper', email: 'scale-shopper@example.com', password: 'Scale-Shopper-Pass-1' }
let databaseUrl = ''
let database: Awaited<ReturnType<typeof createDatabase>> | undefined
let a: Instance
let b: Instance

type Answer = { status: number; body: { data: any; message: string } }
async function call(base: string, route: string, json: unknown, token?: string): Promise<Answer> {
  const res = await fetch(`${base}/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(json),
  })
  return { status: res.status, body: (await res.json()) as Answer['body'] }
}
/** Posts a form as the browser does (the hosted page and its buttons). */
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  })
/** The hidden fields of the page's return form. */
const hiddenFields = (html: string) =>
  Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]))

describe.skipIf(!serverUrl)('the test payment provider on two instances (PostgreSQL)', () => {
  beforeAll(async () => {
    database = await createDatabase(serverUrl!, dbName)
    databaseUrl = database.url
    const env = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'testpay-jwt-secret-0123456789abcdef0123',
      SESSION_SECRET: 'testpay-session-secret-0123456789abcdef',
      TEST_PAYMENT_SECRET,
      PAYMENT_PROVIDER: 'test',
      SEED_CATALOG: '0',
      RATE_LIMIT_IP_MULTIPLIER: '100',
      DATABASE_POOL_MAX: '4',
    }
    a = startInstance('A', basePort, { ...env, DATA_DIR: path.join(dataDir, 'a') })
    b = startInstance('B', basePort + 1, { ...env, DATA_DIR: path.join(dataDir, 'b') })
    await Promise.all([waitReady(a.url), waitReady(b.url)])
  })

  afterAll(async () => {
    for (const i of [a, b]) i?.process.kill('SIGKILL')
    await Promise.all([a, b].map((i) => i?.exited))
    await database?.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('a payment started on A is served, paid and called back on B, and B verifies a webhook', async () => {
    const direct = await openDatabase({ url: databaseUrl })
    let productId: string
    try {
      await createUser(direct.db, { ...SHOPPER, role: 'USER' })
      productId = (await insertProduct(direct.db, { name: 'Scale Jaggery', price: 120, sellingPrice: 120, stock: 5 })).id
    } finally {
      await direct.close()
    }
    const login = await call(a.url, 'user/login', { email: SHOPPER.email, password: SHOPPER.password })
    expect(login.status).toBe(200)
    const token = login.body.data.accessToken as string
    const address = await call(
      a.url,
      'address/create',
      { address_line: '12, Old Airport Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560008', mobile: '9845012345' },
      token,
    )
    expect(address.status).toBe(201)
    expect((await call(a.url, 'cart/create', { productId }, token)).status).toBe(200)

    // Started on A.
    const started = await call(
      a.url,
      'payment/start',
      {
        addressId: address.body.data._id,
        method: 'upi',
        callbackUrl: `${a.url}/checkout/payment/callback`,
        cancelUrl: `${a.url}/checkout`,
      },
      token,
    )
    expect(started.status).toBe(201)
    const { order, checkout } = started.body.data

    // B serves the hosted page of A's order (today: 404, the order lived in A's memory).
    const page = await postForm(`${b.url}${checkout.hosted.url}`, checkout.hosted.fields)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Test payment: no money moves')
    expect(html).toContain('Pay by UPI')

    // Paid on B's page: the signed fields go back to the callback url A was given.
    const paid = await postForm(`${b.url}/api/payment/test-checkout/answer`, { order_id: checkout.providerOrderId, action: 'pay' })
    expect(paid.status).toBe(200)
    const back = await paid.text()
    expect(back).toContain('action="/checkout/payment/callback"')
    const fields = hiddenFields(back)
    expect(fields.razorpay_order_id).toBe(checkout.providerOrderId)

    // B verifies the callback (today: 400 "signature does not match" on any other instance).
    const callback = await call(b.url, 'payment/callback', fields)
    expect(callback.status).toBe(200)
    expect(callback.body.data).toMatchObject({ outcome: 'paid', orderId: order._id })

    // A webhook for that payment, signed with the shared secret, sent to B: verified and applied once.
    const rawBody = JSON.stringify({
      entity: 'event',
      event: 'payment.captured',
      contains: ['payment'],
      payload: {
        payment: {
          entity: {
            id: fields.razorpay_payment_id,
            entity: 'payment',
            order_id: checkout.providerOrderId,
            amount: checkout.amount,
            currency: 'INR',
            status: 'captured',
            method: 'upi',
          },
        },
      },
      created_at: Math.floor(Date.now() / 1000),
    })
    const webhook = (signature: string) =>
      fetch(`${b.url}/api/payment/webhook/razorpay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': `evt_${newId()}` },
        body: rawBody,
      })
    const verified = await webhook(hmacHex(testProviderSecrets(TEST_PAYMENT_SECRET).webhookSecret, rawBody))
    expect(verified.status).toBe(200)
    const forged = await webhook(hmacHex('another-secret', rawBody))
    expect(forged.status).toBe(400)

    // A sees the order paid.
    const details = await call(a.url, 'order/details', { orderId: order._id }, token)
    expect(details.body.data.payment.state).toBe('paid')
  })
})
