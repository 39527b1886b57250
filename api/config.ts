/**
 * Server configuration from the environment; every variable, its default and its meaning is listed
 * in README.md ("Configuration"). `ApiEnvSchema` declares the variables (zod), `loadConfig` parses
 * them once at start and fails with one message naming every bad variable and why
 * (server-shared/env.ts `EnvError`). On the embedded default (no env), secrets are generated once and
 * kept in `DATA_DIR/secrets.json` so sessions survive restarts; in production set them explicitly.
 */
import path from 'node:path'
import { z } from 'zod'
import { parseTrustProxy } from './lib/client-ip.ts'
import { parseOrigin } from './lib/cors.ts'
import {
  EnvError,
  flag,
  httpUrl,
  logLevel,
  logLevelOf,
  parsePublicUrl,
  positiveNumber,
  readEnvironment,
  readSecrets,
  readTestPaymentSecret,
  text,
  variable,
  wholeNumber,
  type LogLevel,
} from '../server-shared/env.ts'
import { parseUploadMaxBytes } from '../contract/file.ts'
import { DEFAULT_CART_LIMITS } from '../contract/cart-limits.ts'
import { toPaise } from './lib/money.ts'
import type { S3Settings } from './lib/storage-s3.ts'
import type { SmsSettings } from './lib/sms.ts'
import { parseInvoiceSettings, type InvoiceSettings } from './modules/invoice/settings.ts'
import { parsePaymentSettings, type PaymentSettings } from './modules/payment/settings.ts'

export interface ServerConfig {
  port: number
  dataDir: string
  databaseUrl?: string
  apiUrl?: string
  /**
   * `API_ONLY=1`: the process is an API host alone (docs/scale-out.md, "API and BFF apart"): `/api`,
   * `/uploads` and the health routes, no pages. Refused together with `API_URL`.
   */
  apiOnly: boolean
  jwtSecret: string
  sessionSecret: string
  smtpUrl?: string
  mailFrom: string
  isProduction: boolean
  uploadMaxBytes: number
  /** Cap of a JSON request body in bytes (413 beyond). */
  jsonBodyMaxBytes: number
  /** Express `trust proxy`: proxy hops or proxy addresses in front of the app (api/lib/client-ip.ts). */
  trustProxy: number | string[]
  /** Shared secret of a separately deployed BFF and its API, for forwarding shoppers' addresses. */
  apiInternalToken?: string
  /** Origins of separately hosted clients: answered with CORS and allowed to write with the API's cookies (api/lib/cors.ts). */
  apiAllowedOrigins: string[]
  /** The site's public origin (`https://shop.example`, no path), for canonical and sitemap URLs. */
  publicUrl?: string
  /** Cart and delivery rules (docs/commerce-api.md, "Cart"). */
  commerce: CommerceSettings
  /** The seller on tax invoices and the GST rates (`SELLER_*`, `GST_RATES`; api/modules/invoice/settings.ts). */
  invoice: InvoiceSettings
  /** S3-compatible object storage for images (`S3_BUCKET` set), else null: local disk. */
  s3: S3Settings | null
  /** `Secure` cookies and HSTS: in production unless `INSECURE_COOKIES=1` (a local http run of the production build). */
  secureCookies: boolean
  /** `ADMIN_PASSWORD`: the demo admin's password (api/db/seed/ensure.ts) and the admin CLI's. */
  adminPassword?: string
  /** `RATE_LIMIT_IP_MULTIPLIER`: scales every per-address limit (a load test from one address), default 1. */
  rateLimitIpMultiplier: number
  /**
   * PostgreSQL request pool: `DATABASE_POOL_MAX` connections per process (10; plus 2 for the rate-limit
   * counters and 1 for LISTEN, docs/scale-out.md, "Pool sizing"), `DATABASE_CONNECT_TIMEOUT_MS` to get
   * one (5000 ms; then 429 busy or 503 unavailable, docs/decisions/0043-flash-sale-and-busy-pool.md).
   */
  databasePool: { max: number; connectTimeoutMs: number }
  /** `SEED_CATALOG=0` skips seeding the catalogue at start. */
  seedCatalog: boolean
  /** `LOG_LEVEL`: the process logger's level (server-shared/logger.ts), default `info` (`silent` under a test runner). */
  logLevel: LogLevel
  /** `EXPOSE_METRICS=1`: server.ts serves `/metrics.json` (upstream calls, cache hits) for `npm run bench`. */
  exposeMetrics: boolean
  /** The payment provider and the stock hold of online orders (`PAYMENT_*`, `RAZORPAY_*`; api/modules/payment/settings.ts). */
  payments: PaymentSettings
  /** `SHUTDOWN_DELAY_MS` (0) of serving with /readyz at 503, and `SHUTDOWN_GRACE_MS` (25000) of waiting for requests, on SIGTERM. */
  shutdown: { delayMs: number; graceMs: number }
  /** How SMS go out (`SMS_PROVIDER`: the dev outbox or Amazon SNS; api/lib/sms.ts). */
  sms: SmsSettings
  /** `SMS_STORE_NAME`: the store's name in SMS texts (default `Grocery Store`). */
  smsStoreName: string
  /** DATA_DIR/secrets.json when a secret is read from it (one of JWT_SECRET, SESSION_SECRET, TEST_PAYMENT_SECRET unset). */
  secretsFile?: string
}

/** The local files and folders one server uses (absolute), as the start-up log names them. */
export interface LocalPaths {
  dataDir: string
  /** The generated secrets, when any is read from there. */
  secrets?: string
  /** The embedded database's folder (PGlite), absent with DATABASE_URL. */
  pglite?: string
  /** Where images are stored: DATA_DIR/uploads, or `s3://bucket/prefix` with S3_BUCKET. */
  uploads: string
  /** The dev mail outbox (`*.eml`), absent with SMTP_URL. */
  outbox?: string
}

/**
 * Where `config` keeps its local state (README.md, "Configuration": `DATA_DIR`): the one source of
 * these paths for the server that opens them (api/embedded.ts) and for the start-up log that names
 * them, so the log cannot name another folder than the one used.
 */
export function localPaths(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 's3' | 'smtpUrl' | 'secretsFile'>): LocalPaths {
  const { dataDir, s3 } = config
  return {
    dataDir,
    ...(config.secretsFile ? { secrets: config.secretsFile } : {}),
    ...(config.databaseUrl ? {} : { pglite: path.join(dataDir, 'pglite') }),
    uploads: s3 ? `s3://${s3.bucket}/${s3.prefix ?? ''}` : path.join(dataDir, 'uploads'),
    ...(config.smtpUrl ? {} : { outbox: path.join(dataDir, 'outbox') }),
  }
}

/**
 * The object storage settings of `S3_*` (docs/decisions/0012-object-storage.md), or null without
 * `S3_BUCKET`. Throws at start on a malformed endpoint or public url, on only one of the two keys, or
 * on an `S3_FORCE_PATH_STYLE` other than 1/true/0/false.
 */
export function parseS3(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim()
  if (!bucket) return null
  const url = (name: string) => {
    const value = env[name]?.trim()
    if (!value) return undefined
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      throw new Error(`${name} must be an http(s) URL`)
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL`)
    return value.replace(/\/$/, '')
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS default credential chain)')
  const endpoint = url('S3_ENDPOINT')
  const forcePathStyle = flag.safeParse(env.S3_FORCE_PATH_STYLE)
  if (!forcePathStyle.success) throw new Error(`S3_FORCE_PATH_STYLE ${forcePathStyle.error.issues[0]?.message}`)
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || (endpoint ? 'auto' : 'us-east-1'),
    accessKeyId,
    secretAccessKey,
    // A custom endpoint (MinIO, most self-hosted servers) usually needs path-style urls.
    forcePathStyle: forcePathStyle.data ?? Boolean(endpoint),
    publicUrl: url('S3_PUBLIC_URL'),
    prefix: env.S3_PREFIX?.trim() || undefined,
  }
}

/** The SMS settings' variables (README.md, "Configuration"). */
export const SMS_VARIABLES = [
  'SMS_PROVIDER',
  'SMS_SNS_REGION',
  'SMS_SNS_ENDPOINT',
  'SMS_SNS_ACCESS_KEY_ID',
  'SMS_SNS_SECRET_ACCESS_KEY',
  'SMS_SENDER_ID',
  'SMS_DLT_ENTITY_ID',
  'SMS_DLT_TEMPLATE_ID',
  'SMS_DLT_ORDER_TEMPLATE_ID',
] as const

/**
 * The SMS provider of `SMS_PROVIDER` (docs/decisions/0053-sms-providers.md): `outbox` (default) or
 * `sns`, which needs `SMS_SENDER_ID` (the DLT header: 6 letters), `SMS_DLT_ENTITY_ID` and
 * `SMS_DLT_TEMPLATE_ID` (digits, as the DLT portals issue them) and takes `SMS_SNS_REGION`
 * (default `ap-south-1`, Mumbai), an optional `SMS_DLT_ORDER_TEMPLATE_ID` (the order status SMS'
 * template), an optional `SMS_SNS_ENDPOINT` and both or neither of the keys
 * (neither: the AWS default credential chain).
 * @throws naming the first bad variable
 */
export function parseSmsSettings(env: NodeJS.ProcessEnv): SmsSettings {
  const get = (name: (typeof SMS_VARIABLES)[number]) => env[name]?.trim() || undefined
  const provider = get('SMS_PROVIDER') ?? 'outbox'
  if (provider === 'outbox') return { provider }
  if (provider !== 'sns') throw new Error(`SMS_PROVIDER must be outbox or sns, got "${provider}"`)
  const senderId = get('SMS_SENDER_ID')
  if (!senderId || !/^[A-Za-z]{6}$/.test(senderId)) throw new Error('SMS_SENDER_ID must be the 6-letter DLT header with SMS_PROVIDER=sns')
  const entityId = get('SMS_DLT_ENTITY_ID')
  if (!entityId || !/^[0-9]{10,30}$/.test(entityId))
    throw new Error('SMS_DLT_ENTITY_ID must be the DLT entity id (digits) with SMS_PROVIDER=sns')
  const templateId = get('SMS_DLT_TEMPLATE_ID')
  if (!templateId || !/^[0-9]{10,30}$/.test(templateId))
    throw new Error('SMS_DLT_TEMPLATE_ID must be the DLT template id (digits) with SMS_PROVIDER=sns')
  const orderTemplateId = get('SMS_DLT_ORDER_TEMPLATE_ID')
  if (orderTemplateId && !/^[0-9]{10,30}$/.test(orderTemplateId))
    throw new Error('SMS_DLT_ORDER_TEMPLATE_ID must be a DLT template id (digits)')
  const accessKeyId = get('SMS_SNS_ACCESS_KEY_ID')
  const secretAccessKey = get('SMS_SNS_SECRET_ACCESS_KEY')
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error('SMS_SNS_ACCESS_KEY_ID and SMS_SNS_SECRET_ACCESS_KEY: set both, or neither (the AWS default credential chain)')
  const endpoint = get('SMS_SNS_ENDPOINT')
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error('SMS_SNS_ENDPOINT must be an http(s) URL')
  return {
    provider,
    region: get('SMS_SNS_REGION') ?? 'ap-south-1',
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : {}),
    senderId,
    entityId,
    templateId,
    ...(orderTemplateId ? { orderTemplateId } : {}),
  }
}

/** Cart and delivery rules; amounts in integer paise. */
export interface CommerceSettings {
  /** Most units of one product in one cart line (`CART_MAX_QTY_PER_LINE`, default 12). */
  maxQtyPerLine: number
  /** Delivery charge in paise (`DELIVERY_CHARGE` in rupees, default ₹25). */
  deliveryChargePaise: number
  /** Items total in paise from which delivery is free (`FREE_DELIVERY_ABOVE` in rupees, default ₹199). */
  freeDeliveryAbovePaise: number
  /** Guest cart rows kept at most, the longest idle removed first (`GUEST_CART_MAX`, default 100,000). */
  maxGuestCarts?: number
  /** The delivery-time formula's terms (docs/stores.md, "Delivery time"); DEFAULT_DELIVERY_TIME when absent. */
  deliveryTime?: DeliveryTimeSettings
  /**
   * Orders a rider holds at once (`DISPATCH_BATCH_SIZE`, 1 or 2, default 1; docs/delivery.md,
   * "Dispatch"); 1 when absent.
   */
  dispatchBatchSize?: number
  /**
   * Grand total in paise from which an order needs the delivery code at its door
   * (`DELIVERY_CODE_ABOVE` in rupees, default ₹1,000; docs/delivery.md, "Delivery code");
   * DEFAULT_DELIVERY_CODE_ABOVE_PAISE when absent.
   */
  deliveryCodeAbovePaise?: number
  /** Help after delivery (docs/help-after-delivery.md); DEFAULT_HELP when absent. */
  help?: HelpSettings
  /**
   * The named fees of the bill (docs/commerce-api.md, "Fees"): absent, none is charged (an app built
   * by `createApp` without them, as the API tests are); the environment's defaults are DEFAULT_FEES.
   */
  fees?: FeeSettings
}

/**
 * The bill's named fees besides delivery (docs/commerce-api.md, "Fees"), amounts in integer paise;
 * each 0 turns its fee off. The late-night window is in the store's local time (IST, UTC+05:30).
 */
export interface FeeSettings {
  /** A flat charge per order for picking and packing (`HANDLING_CHARGE` in rupees, default ₹2). */
  handlingChargePaise: number
  /** Charged when the items total is below `smallCartBelowPaise` (`SMALL_CART_FEE` in rupees, default ₹20). */
  smallCartFeePaise: number
  /** The items total below which the small cart fee applies (`SMALL_CART_BELOW` in rupees, default ₹99). */
  smallCartBelowPaise: number
  /** Charged on an order placed inside the late-night hours (`LATE_NIGHT_SURCHARGE` in rupees, default ₹15). */
  lateNightSurchargePaise: number
  /**
   * The late-night hours, minutes after IST midnight: from `startMinute` (inclusive) to `endMinute`
   * (exclusive), crossing midnight when start > end (`LATE_NIGHT_HOURS`, "HH:MM-HH:MM", default
   * "23:00-05:00"); start = end: never.
   */
  lateNightHours: { startMinute: number; endMinute: number }
}

/**
 * The fees' defaults (docs/commerce-api.md, "Fees"; docs/decisions/0071-named-fees.md): the size of
 * what Indian quick-commerce apps showed on their bills in 2024-25 (a handling charge of a couple of
 * rupees, a small cart fee of about ₹20 under a ₹99 basket, a late-night fee of ₹15 after 11 pm).
 */
export const DEFAULT_FEES: FeeSettings = {
  handlingChargePaise: 200,
  smallCartFeePaise: 2000,
  smallCartBelowPaise: 9900,
  lateNightSurchargePaise: 1500,
  lateNightHours: { startMinute: 23 * 60, endMinute: 5 * 60 },
}

/**
 * `LATE_NIGHT_HOURS`: "HH:MM-HH:MM" (24-hour, IST), e.g. "23:00-05:00" (crossing midnight).
 * @returns the window in minutes after midnight
 * @throws on anything else (at start, naming the variable)
 */
export function parseLateNightHours(raw: string): { startMinute: number; endMinute: number } {
  const m = /^([01]\d|2[0-3]):([0-5]\d)\s*-\s*([01]\d|2[0-3]):([0-5]\d)$/.exec(raw.trim())
  if (!m) throw new Error(`LATE_NIGHT_HOURS must be two 24-hour times "HH:MM-HH:MM" (IST), e.g. "23:00-05:00", got "${raw}"`)
  return { startMinute: Number(m[1]) * 60 + Number(m[2]), endMinute: Number(m[3]) * 60 + Number(m[4]) }
}

/**
 * Help after delivery (docs/help-after-delivery.md; docs/decisions/0073-help-after-delivery.md):
 * how long after delivery a shopper may report a problem, and the caps under which its refund is
 * automatic. Amounts in paise.
 */
export interface HelpSettings {
  /** Hours after delivery a problem may be reported (`HELP_WINDOW_HOURS`, 1-720, default 48). */
  windowHours: number
  /** Automatic refunds of one order at most, paise (`HELP_AUTO_REFUND_PER_ORDER` in rupees, default ₹200). */
  autoPerOrderPaise: number
  /** Automatic refunds of one shopper in one calendar month (IST) at most, paise (`HELP_AUTO_REFUND_PER_MONTH`, default ₹500). */
  autoPerMonthPaise: number
}

/** The help defaults: 48 hours, ₹200 an order, ₹500 a month (docs/decisions/0073-help-after-delivery.md). */
export const DEFAULT_HELP: HelpSettings = { windowHours: 48, autoPerOrderPaise: 20_000, autoPerMonthPaise: 50_000 }

/**
 * The default threshold of the delivery code, paise: ₹1,000, about twice a usual quick-commerce
 * basket, so everyday orders are handed over without one (docs/delivery.md, "Delivery code").
 */
export const DEFAULT_DELIVERY_CODE_ABOVE_PAISE = 100_000

/** The terms of the delivery time (docs/stores.md, "Delivery time"). */
export interface DeliveryTimeSettings {
  /** A rider's average speed in km/h (`DELIVERY_RIDER_KMPH`, default 20). */
  riderKmph: number
  /** Least travel time in minutes, however near (`DELIVERY_MIN_TRAVEL_MINUTES`, default 3). */
  minTravelMinutes: number
  /** Minutes to pick and pack one order (`DELIVERY_PICK_MINUTES`, default 3). */
  pickMinutes: number
}

/** The delivery-time defaults (docs/stores.md, "Delivery time"). */
export const DEFAULT_DELIVERY_TIME: DeliveryTimeSettings = { riderKmph: 20, minTravelMinutes: 3, pickMinutes: 3 }

/** The defaults of docs/commerce-api.md, "Cart" (contract/cart-limits.ts), the amounts in paise. */
export const DEFAULT_COMMERCE: CommerceSettings = {
  maxQtyPerLine: DEFAULT_CART_LIMITS.maxQtyPerLine,
  deliveryChargePaise: toPaise(DEFAULT_CART_LIMITS.deliveryCharge),
  freeDeliveryAbovePaise: toPaise(DEFAULT_CART_LIMITS.freeDeliveryAbove),
}

/**
 * Reads the cart and delivery rules from the environment. Throws at start on a value that is not a
 * whole number of units (1-999) or an amount in rupees with at most two decimals (0-1,00,000).
 */
export function parseCommerce(env: NodeJS.ProcessEnv): CommerceSettings {
  const rupees = (name: string, fallbackPaise: number) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallbackPaise
    if (!/^\d{1,6}(\.\d{1,2})?$/.test(raw) || Number(raw) > 100_000)
      throw new Error(`${name} must be an amount in rupees (0-100000, at most two decimals), got "${raw}"`)
    return Math.round(Number(raw) * 100)
  }
  const rawMax = env.CART_MAX_QTY_PER_LINE
  let maxQtyPerLine = DEFAULT_COMMERCE.maxQtyPerLine
  if (rawMax !== undefined && rawMax !== '') {
    if (!/^\d{1,3}$/.test(rawMax) || Number(rawMax) < 1)
      throw new Error(`CART_MAX_QTY_PER_LINE must be a whole number from 1 to 999, got "${rawMax}"`)
    maxQtyPerLine = Number(rawMax)
  }
  const rawGuests = env.GUEST_CART_MAX
  if (rawGuests !== undefined && rawGuests !== '' && (!/^\d{1,9}$/.test(rawGuests) || Number(rawGuests) < 100))
    throw new Error(`GUEST_CART_MAX must be a whole number of at least 100, got "${rawGuests}"`)
  const minutes = (name: string, fallback: number, max: number) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
      throw new Error(`${name} must be a whole number from 1 to ${max}, got "${raw}"`)
    return Number(raw)
  }
  return {
    maxQtyPerLine,
    deliveryTime: {
      riderKmph: minutes('DELIVERY_RIDER_KMPH', DEFAULT_DELIVERY_TIME.riderKmph, 120),
      minTravelMinutes: minutes('DELIVERY_MIN_TRAVEL_MINUTES', DEFAULT_DELIVERY_TIME.minTravelMinutes, 120),
      pickMinutes: minutes('DELIVERY_PICK_MINUTES', DEFAULT_DELIVERY_TIME.pickMinutes, 120),
    },
    deliveryChargePaise: rupees('DELIVERY_CHARGE', DEFAULT_COMMERCE.deliveryChargePaise),
    freeDeliveryAbovePaise: rupees('FREE_DELIVERY_ABOVE', DEFAULT_COMMERCE.freeDeliveryAbovePaise),
    ...(rawGuests ? { maxGuestCarts: Number(rawGuests) } : {}),
    dispatchBatchSize: parseBatchSize(env.DISPATCH_BATCH_SIZE),
    deliveryCodeAbovePaise: rupees('DELIVERY_CODE_ABOVE', DEFAULT_DELIVERY_CODE_ABOVE_PAISE),
    help: {
      windowHours: minutes('HELP_WINDOW_HOURS', DEFAULT_HELP.windowHours, 720),
      autoPerOrderPaise: rupees('HELP_AUTO_REFUND_PER_ORDER', DEFAULT_HELP.autoPerOrderPaise),
      autoPerMonthPaise: rupees('HELP_AUTO_REFUND_PER_MONTH', DEFAULT_HELP.autoPerMonthPaise),
    },
    fees: {
      handlingChargePaise: rupees('HANDLING_CHARGE', DEFAULT_FEES.handlingChargePaise),
      smallCartFeePaise: rupees('SMALL_CART_FEE', DEFAULT_FEES.smallCartFeePaise),
      smallCartBelowPaise: rupees('SMALL_CART_BELOW', DEFAULT_FEES.smallCartBelowPaise),
      lateNightSurchargePaise: rupees('LATE_NIGHT_SURCHARGE', DEFAULT_FEES.lateNightSurchargePaise),
      lateNightHours: env.LATE_NIGHT_HOURS ? parseLateNightHours(env.LATE_NIGHT_HOURS) : DEFAULT_FEES.lateNightHours,
    },
  }
}

/** Most orders a rider holds at once: 1, or 2 for batching (docs/delivery.md, "Dispatch"). */
export const MAX_DISPATCH_BATCH_SIZE = 2

/**
 * `DISPATCH_BATCH_SIZE` (docs/delivery.md, "Dispatch"): unset or empty is 1.
 * @throws at start on anything but 1 or 2
 */
function parseBatchSize(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1
  if (!/^\d$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_DISPATCH_BATCH_SIZE)
    throw new Error(`DISPATCH_BATCH_SIZE must be 1 or ${MAX_DISPATCH_BATCH_SIZE}, got "${raw}"`)
  return Number(raw)
}

/**
 * The variables the API reads one by one (README.md, "Configuration"); unset or empty is the
 * default of `loadConfig`. Rules over several variables are `loadConfig`'s groups.
 */
export const ApiEnvSchema = z.object({
  NODE_ENV: text,
  PORT: wholeNumber(0, 65_535),
  DATA_DIR: text,
  DATABASE_URL: text,
  DATABASE_POOL_MAX: wholeNumber(1, 10_000),
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(1),
  API_URL: httpUrl,
  JWT_SECRET: text,
  SESSION_SECRET: text,
  SMTP_URL: text,
  MAIL_FROM: text,
  UPLOAD_MAX_BYTES: variable((raw) => parseUploadMaxBytes(raw)),
  JSON_BODY_MAX_BYTES: wholeNumber(1),
  TRUST_PROXY: variable((raw) => parseTrustProxy(raw)),
  API_INTERNAL_TOKEN: text,
  API_ALLOWED_ORIGINS: variable((raw) =>
    raw
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => parseOrigin(o)),
  ),
  PUBLIC_URL: variable((raw) => parsePublicUrl(raw)),
  INSECURE_COOKIES: flag,
  ADMIN_PASSWORD: text,
  RATE_LIMIT_IP_MULTIPLIER: positiveNumber,
  SEED_CATALOG: flag,
  SHUTDOWN_DELAY_MS: wholeNumber(0),
  SHUTDOWN_GRACE_MS: wholeNumber(0),
  LOG_LEVEL: logLevel,
  EXPOSE_METRICS: flag,
  API_ONLY: flag,
  SMS_STORE_NAME: text,
})

/**
 * Reads the configuration from `env`. Throws one `EnvError` (server-shared/env.ts) naming every bad
 * variable and why. Missing JWT_SECRET / SESSION_SECRET are generated once and kept in
 * DATA_DIR/secrets.json (server-shared/env.ts `readSecrets`), and so is TEST_PAYMENT_SECRET with the
 * test provider (`readTestPaymentSecret`).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // The test provider's secret when TEST_PAYMENT_SECRET is unset: kept beside the other generated
  // ones (read only when the test provider is the one configured).
  const generatedTestSecret = () => readTestPaymentSecret(env, path.resolve(env.DATA_DIR || './data'), env.NODE_ENV === 'production')
  const { values: e, groups } = readEnvironment(env, ApiEnvSchema, {
    commerce: {
      variables: [
        'CART_MAX_QTY_PER_LINE',
        'GUEST_CART_MAX',
        'DELIVERY_CHARGE',
        'FREE_DELIVERY_ABOVE',
        'DELIVERY_RIDER_KMPH',
        'DELIVERY_MIN_TRAVEL_MINUTES',
        'DELIVERY_PICK_MINUTES',
        'DISPATCH_BATCH_SIZE',
        'HANDLING_CHARGE',
        'SMALL_CART_FEE',
        'SMALL_CART_BELOW',
        'LATE_NIGHT_SURCHARGE',
        'LATE_NIGHT_HOURS',
      ],
      parse: parseCommerce,
    },
    invoice: { variables: ['SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_GSTIN', 'GST_RATES'], parse: parseInvoiceSettings },
    payments: {
      variables: [
        'PAYMENT_PROVIDER',
        'RAZORPAY_KEY_ID',
        'RAZORPAY_KEY_SECRET',
        'RAZORPAY_WEBHOOK_SECRET',
        'TEST_PAYMENT_SECRET',
        'PAYMENT_RESERVATION_SECONDS',
      ],
      parse: (vars) => parsePaymentSettings(vars, generatedTestSecret),
    },
    sms: { variables: SMS_VARIABLES, parse: parseSmsSettings },
    s3: {
      variables: [
        'S3_BUCKET',
        'S3_ENDPOINT',
        'S3_REGION',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'S3_FORCE_PATH_STYLE',
        'S3_PUBLIC_URL',
        'S3_PREFIX',
      ],
      parse: parseS3,
    },
  })
  // An API host alone serves the API: a process that calls another API has none to serve.
  if (e.API_ONLY === true && e.API_URL)
    throw new EnvError([{ variable: 'API_ONLY', message: 'an API host alone cannot also call the API at API_URL: set one of them' }])
  const dataDir = path.resolve(e.DATA_DIR ?? './data')
  const isProduction = e.NODE_ENV === 'production'
  const secrets = readSecrets(env, dataDir, isProduction)
  const secretsFromFile = !(env.JWT_SECRET && env.SESSION_SECRET) || (groups.payments.testProvider && !env.TEST_PAYMENT_SECRET?.trim())
  return {
    port: e.PORT ?? 3000,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    apiUrl: e.API_URL,
    apiOnly: e.API_ONLY === true,
    jwtSecret: secrets.jwtSecret,
    sessionSecret: secrets.sessionSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Grocery Store <no-reply@localhost>',
    isProduction,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES ?? parseUploadMaxBytes(undefined),
    jsonBodyMaxBytes: e.JSON_BODY_MAX_BYTES ?? 1024 * 1024,
    trustProxy: e.TRUST_PROXY ?? parseTrustProxy(undefined),
    apiInternalToken: e.API_INTERNAL_TOKEN,
    apiAllowedOrigins: e.API_ALLOWED_ORIGINS ?? [],
    publicUrl: e.PUBLIC_URL,
    commerce: groups.commerce,
    invoice: groups.invoice,
    payments: groups.payments,
    s3: groups.s3,
    sms: groups.sms,
    smsStoreName: e.SMS_STORE_NAME ?? 'Grocery Store',
    secureCookies: isProduction && e.INSECURE_COOKIES !== true,
    adminPassword: e.ADMIN_PASSWORD,
    rateLimitIpMultiplier: e.RATE_LIMIT_IP_MULTIPLIER ?? 1,
    databasePool: { max: e.DATABASE_POOL_MAX ?? 10, connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS ?? 5000 },
    seedCatalog: e.SEED_CATALOG !== false,
    logLevel: logLevelOf(e.LOG_LEVEL, e.NODE_ENV, env),
    exposeMetrics: e.EXPOSE_METRICS === true,
    shutdown: { delayMs: e.SHUTDOWN_DELAY_MS ?? 0, graceMs: e.SHUTDOWN_GRACE_MS ?? 25_000 },
    ...(secretsFromFile ? { secretsFile: path.join(dataDir, 'secrets.json') } : {}),
  }
}
