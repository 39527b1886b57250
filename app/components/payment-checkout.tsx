/**
 * The provider's checkout on the pay page (docs/payments.md, "Checkout"). Without JavaScript it is a
 * plain form posted to the provider's hosted page (Razorpay's hosted checkout, or the test
 * provider's page). With JavaScript the checkout opens in the page: Razorpay's own checkout.js (loaded
 * only with that provider), or, for the test provider, a dialog that says "Test payment: no money
 * moves" with Pay, Fail and Abandon, whose forms post to the same test pages. Either way the
 * provider posts its signed answer to our callback; no card or UPI detail reaches this site.
 */
import { useEffect, useRef, useState } from 'react'
import type { Checkout } from '../../contract/payment.ts'
import { formatPaise } from '../lib/money.ts'
import { buttonClassName } from './ui/button.tsx'

const RAZORPAY_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js'

interface RazorpayWindow {
  Razorpay?: new (options: Record<string, unknown>) => { open(): void }
}

/** Loads Razorpay's checkout.js once (allowed by the CSP only with PAYMENT_PROVIDER=razorpay). */
function loadRazorpay(): Promise<void> {
  if ((window as RazorpayWindow).Razorpay) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = RAZORPAY_SCRIPT
    script.onload = () => resolve()
    script.onerror = () => reject(new Error('checkout.js did not load'))
    document.head.appendChild(script)
  })
}

/** Posts `fields` to `url` as a form (the callback, as the hosted checkout would). */
function postForm(url: string, fields: Record<string, string>) {
  const form = document.createElement('form')
  form.method = 'post'
  form.action = url
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.appendChild(input)
  }
  document.body.appendChild(form)
  form.submit()
}

const METHOD_WORDS: Record<string, string> = { upi: 'UPI', card: 'card', netbanking: 'netbanking', wallet: 'wallet' }

/**
 * The pay button and the checkout it opens. `autoOpen`: open in the page as soon as JavaScript runs
 * (the first visit); after a failure or a closed checkout the shopper presses the button again.
 */
export function PaymentCheckout({ checkout, label, autoOpen }: { checkout: Checkout; label: string; autoOpen: boolean }) {
  const [testOpen, setTestOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const opened = useRef(false)
  const { hosted } = checkout

  const open = async () => {
    setError(null)
    if (checkout.provider === 'test') {
      setTestOpen(true)
      return
    }
    try {
      await loadRazorpay()
      const Razorpay = (window as RazorpayWindow).Razorpay!
      new Razorpay({
        key: checkout.keyId,
        order_id: checkout.providerOrderId,
        amount: checkout.amount,
        currency: checkout.currency,
        name: hosted.fields.name,
        prefill: { ...checkout.prefill, method: checkout.method },
        handler: (answer: Record<string, string>) => postForm(hosted.fields.callback_url!, answer),
        modal: { ondismiss: () => window.location.assign(hosted.fields.cancel_url!) },
      }).open()
    } catch {
      setError('The payment window did not open: use the button again, or pay on delivery')
    }
  }

  useEffect(() => {
    if (autoOpen && !opened.current) {
      opened.current = true
      void open()
    }
    // Once, on the first render with JavaScript.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // The test provider's page answers Pay, Fail and Abandon at one address (api/modules/payment/test-checkout.ts).
  const testAnswer = (action: string, label: string, variant: 'primary' | 'secondary') => (
    <form method="post" action="/api/payment/test-checkout/answer" className="mt-2">
      <input type="hidden" name="order_id" value={checkout.providerOrderId} />
      <button type="submit" name="action" value={action} className={buttonClassName({ variant, fullWidth: true })}>
        {label}
      </button>
    </form>
  )
  return (
    <div className="flex flex-col gap-2">
      <form
        method="post"
        action={hosted.url}
        onSubmit={(event) => {
          event.preventDefault()
          void open()
        }}
      >
        {Object.entries(hosted.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={buttonClassName({ variant: 'primary', fullWidth: true })}>
          {label}
        </button>
      </form>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {testOpen ? (
        <div className="fixed inset-0 z-50 grid place-items-center bg-black/40 p-3" role="presentation">
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="test-payment-title"
            className="w-full max-w-sm rounded-xl bg-white p-4 shadow-lg"
          >
            <p className="rounded-lg bg-amber-100 px-3 py-2 text-sm font-semibold text-amber-900">Test payment: no money moves</p>
            <h2 id="test-payment-title" className="mt-3 text-lg font-bold">
              Pay {formatPaise(checkout.amount)}
            </h2>
            <p className="text-sm text-slate-600">Order {checkout.orderNumber}</p>
            {testAnswer('pay', `Pay by ${METHOD_WORDS[checkout.method] ?? 'UPI'}`, 'primary')}
            {testAnswer('fail', 'Fail the payment', 'secondary')}
            {testAnswer('abandon', 'Abandon (close the checkout)', 'secondary')}
          </div>
        </div>
      ) : null}
    </div>
  )
}
