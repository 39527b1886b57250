/**
 * Payment settings from the environment (README.md, "Configuration"; docs/payments.md):
 * `PAYMENT_PROVIDER` razorpay or test (default: razorpay when `RAZORPAY_KEY_ID` is set, else the test
 * provider), `RAZORPAY_KEY_ID`, `RAZORPAY_KEY_SECRET`, `RAZORPAY_WEBHOOK_SECRET`,
 * `PAYMENT_RESERVATION_SECONDS` (how long stock is held for an unpaid online order, default 900 = 15
 * minutes). Expiry, reconciliation and refund retries run as jobs (docs/jobs.md). The secrets are
 * read here only and never logged.
 */
import { randomBytes } from 'node:crypto'
import type { PaymentProvider } from './provider.ts'
import { createRazorpayProvider } from './razorpay.ts'
import { createTestProvider, type TestProvider } from './test-provider.ts'
import { paymentProviderName } from '../../../server-shared/env.ts'

/** The payment part of the API's dependencies. */
export interface PaymentSettings {
  provider: PaymentProvider
  /** The same object as `provider` when it is the test provider (its hosted page needs more of it). */
  testProvider?: TestProvider
  /** How long an unpaid online order holds its stock (ms). */
  reservationMs: number
  /** A payment still unconfirmed this long after it was opened is asked of the provider (ms). */
  reconcileAfterMs: number
  /** The shop's name on the provider's checkout. */
  shopName: string
}

/** Default hold of an unpaid online order's stock: 15 minutes. */
export const DEFAULT_RESERVATION_MS = 15 * 60_000

/** The test provider with fresh random secrets (the embedded start without keys, and tests). */
export function testPaymentSettings(overrides: Partial<Omit<PaymentSettings, 'provider' | 'testProvider'>> = {}): PaymentSettings {
  const testProvider = createTestProvider({ keySecret: randomBytes(24).toString('hex'), webhookSecret: randomBytes(24).toString('hex') })
  return {
    provider: testProvider,
    testProvider,
    reservationMs: DEFAULT_RESERVATION_MS,
    reconcileAfterMs: 5 * 60_000,
    shopName: 'Grocery',
    ...overrides,
  }
}

/**
 * Reads the payment settings. Throws at start on an unknown provider, on razorpay without all three
 * keys, or on a duration that is not a whole number of seconds in range.
 */
export function parsePaymentSettings(env: NodeJS.ProcessEnv): PaymentSettings {
  const seconds = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new Error(`${name} must be a whole number of seconds from ${min} to ${max}, got "${raw}"`)
    return Number(raw)
  }
  const reservationMs = seconds('PAYMENT_RESERVATION_SECONDS', DEFAULT_RESERVATION_MS / 1000, 5, 24 * 3600) * 1000
  const common = {
    reservationMs,
    reconcileAfterMs: Math.min(5 * 60_000, reservationMs / 3),
    shopName: env.SHOP_NAME?.trim() || 'Grocery',
  }
  const keyId = env.RAZORPAY_KEY_ID?.trim()
  if (paymentProviderName(env) === 'test') return testPaymentSettings(common)
  const keySecret = env.RAZORPAY_KEY_SECRET?.trim()
  const webhookSecret = env.RAZORPAY_WEBHOOK_SECRET?.trim()
  if (!keyId || !keySecret || !webhookSecret)
    throw new Error('PAYMENT_PROVIDER=razorpay needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET')
  return { provider: createRazorpayProvider({ keyId, keySecret, webhookSecret }), ...common }
}
