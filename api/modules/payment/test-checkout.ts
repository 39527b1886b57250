/**
 * The test provider's hosted page (docs/payments.md, "The test provider"): what Razorpay's hosted
 * checkout is to the real provider. It says "Test payment: no money moves" and offers Pay, Fail and
 * Abandon. Pay and Fail make the payment at the test provider (which sends its signed webhooks) and
 * post the signed fields back to the shop's callback url, exactly as Razorpay's checkout does;
 * Abandon returns to the cancel url. Plain HTML forms: it works without JavaScript, and with it the
 * return form submits itself.
 */
import { PayloadTooLarge } from '../../lib/errors.ts'
import { readCappedStream } from '../../../server-shared/capped-body.ts'
import type { TestProvider } from './test-provider.ts'

/** Where the page's Pay, Fail and Abandon buttons post (`order_id`, `action`). */
export const TEST_CHECKOUT_ANSWER_PATH = '/api/payment/test-checkout/answer'

/** Largest form the page reads (bytes). */
export const TEST_CHECKOUT_FORM_MAX_BYTES = 8 * 1024

const METHOD_WORDS: Record<string, string> = { upi: 'UPI', card: 'card', netbanking: 'netbanking', wallet: 'wallet' }

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The form fields of a posted `application/x-www-form-urlencoded` body, capped. */
export async function readForm(body: ReadableStream<Uint8Array> | null): Promise<URLSearchParams> {
  const bytes = await readCappedStream(body, TEST_CHECKOUT_FORM_MAX_BYTES, () => PayloadTooLarge('Form too large'))
  return new URLSearchParams(new TextDecoder().decode(bytes))
}

/** The page's security policy: nothing loads from elsewhere; forms post to this site only; the nonce'd script submits the return form. */
export function testCheckoutPolicy(nonce: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`
}

function page(title: string, body: string, nonce?: string, autoSubmit = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}main{max-width:420px;margin:2rem auto;padding:1.25rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}
.banner{background:#fef3c7;color:#78350f;padding:.5rem .75rem;border-radius:8px;font-weight:600}button{display:block;width:100%;margin:.5rem 0;padding:.75rem;font-size:1rem;border-radius:8px;border:1px solid #d4d4d8;background:#fff;cursor:pointer}
button.pay{background:#15803d;color:#fff;border-color:#15803d}h1{font-size:1.25rem}</style></head>
<body><main><p class="banner">Test payment: no money moves</p>${body}</main>${
    autoSubmit && nonce ? `<script nonce="${nonce}">document.getElementById('return').submit()</script>` : ''
  }</body></html>`
}

/** The page offering Pay, Fail and Abandon for one test provider order (read from the database); undefined when there is no such order. */
export async function testCheckoutPage(provider: TestProvider, providerOrderId: string): Promise<string | undefined> {
  const order = await provider.order(providerOrderId)
  if (!order) return undefined
  const rupees = (order.amount / 100).toFixed(2).replace(/\.00$/, '')
  const method = METHOD_WORDS[order.method] ?? 'UPI'
  const button = (action: string, label: string, cls = '') =>
    `<form method="post" action="${TEST_CHECKOUT_ANSWER_PATH}"><input type="hidden" name="order_id" value="${escape(order.id)}">` +
    `<button${cls ? ` class="${cls}"` : ''} type="submit" name="action" value="${action}">${escape(label)}</button></form>`
  return page(
    'Test payment',
    `<h1>Pay ₹${escape(rupees)}</h1><p>Order ${escape(order.receipt)}</p>
${button('pay', `Pay by ${method}`, 'pay')}${button('fail', 'Fail the payment')}${button('abandon', 'Abandon (close the checkout)')}`,
  )
}

/** The page that posts the provider's answer back to the shop's callback url (submitted by itself with JavaScript). */
export function returnPage(callbackUrl: string, fields: Record<string, string>, paid: boolean, nonce: string): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('')
  return page(
    paid ? 'Payment done' : 'Payment failed',
    `<h1>${paid ? 'Payment done' : 'Payment failed'}</h1>
<form id="return" method="post" action="${escape(callbackUrl)}">${inputs}<button class="pay" type="submit">Return to the shop</button></form>`,
    nonce,
    true,
  )
}
