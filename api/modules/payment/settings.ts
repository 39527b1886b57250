/**
 * Payment settings from the environment (README.md, "Configuration"; docs/payments.md):
 * `PAYMENT_PROVIDER` razorpay or test (default: razorpay when `RAZORPAY_KEY_ID` is set, else the test
 * provider), `RAZORPAY_KEY_ID`, `RAZORPAY_KEY_SECRET`, `RAZORPAY_WEBHOOK_SECRET`, `TEST_PAYMENT_SECRET`
 * (the test provider's secret, the same on every instance; generated into DATA_DIR/secrets.json on
 * the embedded start; docs/decisions/0044-test-provider-state-in-the-database.md),
 * `PAYMENT_RESERVATION_SECONDS` (how long stock is held for an unpaid online order, default 900 = 15
 * minutes). Expiry, reconciliation and refund retries run as jobs (docs/jobs.md). The secrets are
 * read here only and never logged.
 */
import { hkdfSync, randomBytes } from 'node:crypto'
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

/** Fewest characters of `TEST_PAYMENT_SECRET` (32 hex or base64url characters carry 128 bits or more). */
export const TEST_PAYMENT_SECRET_MIN_LENGTH = 32

/**
 * The test provider's key secret and webhook secret, both derived from `secret` with HKDF-SHA256
 * (RFC 5869), one `info` label each: two keys apart, as Razorpay's are, from one setting.
 */
export function testProviderSecrets(secret: string): { keySecret: string; webhookSecret: string } {
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', secret, '', `grocery test payment ${label}`, 32)).toString('hex')
  return { keySecret: derive('key secret'), webhookSecret: derive('webhook secret') }
}

/**
 * The test provider signing with the secrets of `secret` (`TEST_PAYMENT_SECRET`); without one, fresh
 * random secrets (tests: one process only).
 */
export function testPaymentSettings(
  overrides: Partial<Omit<PaymentSettings, 'provider' | 'testProvider'>> = {},
  secret: string = randomBytes(24).toString('hex'),
): PaymentSettings {
  const testProvider = createTestProvider(testProviderSecrets(secret))
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
 * Reads the payment settings. `generatedTestSecret` answers the test provider's secret when
 * `TEST_PAYMENT_SECRET` is unset (api/config.ts: the one kept in DATA_DIR/secrets.json); called only
 * for the test provider. Throws at start on an unknown provider, on razorpay without all three keys,
 * on a `TEST_PAYMENT_SECRET` shorter than 32 characters, or on a duration that is not a whole number
 * of seconds in range.
 */
export function parsePaymentSettings(env: NodeJS.ProcessEnv, generatedTestSecret?: () => string): PaymentSettings {
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
  if (paymentProviderName(env) === 'test') {
    const secret = env.TEST_PAYMENT_SECRET?.trim()
    if (secret !== undefined && secret !== '' && secret.length < TEST_PAYMENT_SECRET_MIN_LENGTH)
      throw new Error(`TEST_PAYMENT_SECRET must be at least ${TEST_PAYMENT_SECRET_MIN_LENGTH} characters`)
    return testPaymentSettings(common, secret || generatedTestSecret?.())
  }
  const keySecret = env.RAZORPAY_KEY_SECRET?.trim()
  const webhookSecret = env.RAZORPAY_WEBHOOK_SECRET?.trim()
  if (!keyId || !keySecret || !webhookSecret)
    throw new Error('PAYMENT_PROVIDER=razorpay needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET')
  return { provider: createRazorpayProvider({ keyId, keySecret, webhookSecret }), ...common }
}
