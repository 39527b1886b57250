/**
 * Server configuration from the environment; every variable, its default and its meaning is listed
 * in README.md ("Configuration"). On the embedded default (no env), secrets are generated once and
 * kept in `DATA_DIR/secrets.json` so sessions survive restarts; in production set them explicitly.
 */
import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { parseTrustProxy } from './lib/client-ip.ts'
import { isBareOrigin, parseOrigin } from './lib/cors.ts'
import { parseUploadMaxBytes } from '../contract/file.ts'
import { DEFAULT_CART_LIMITS } from '../contract/cart-limits.ts'
import { toPaise } from './lib/money.ts'
import type { S3Settings } from './lib/storage-s3.ts'
import { parseInvoiceSettings, type InvoiceSettings } from './modules/invoice/settings.ts'
import { parsePaymentSettings, type PaymentSettings } from './modules/payment/settings.ts'

export interface ServerConfig {
  port: number
  dataDir: string
  databaseUrl?: string
  apiUrl?: string
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
  /** PostgreSQL pool: `DATABASE_POOL_MAX` connections (10), `DATABASE_CONNECT_TIMEOUT_MS` to get one (5000). */
  databasePool: { max: number; connectTimeoutMs: number }
  /** `SEED_CATALOG=0` skips seeding the catalogue at start. */
  seedCatalog: boolean
  /** The payment provider and the stock hold of online orders (`PAYMENT_*`, `RAZORPAY_*`; api/modules/payment/settings.ts). */
  payments: PaymentSettings
}

/**
 * The object storage settings of `S3_*` (docs/decisions/0012-object-storage.md), or null without
 * `S3_BUCKET`. Throws at start on a malformed endpoint or public url, or on only one of the two keys.
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
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || (endpoint ? 'auto' : 'us-east-1'),
    accessKeyId,
    secretAccessKey,
    // A custom endpoint (MinIO, most self-hosted servers) usually needs path-style urls.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true' : Boolean(endpoint),
    publicUrl: url('S3_PUBLIC_URL'),
    prefix: env.S3_PREFIX?.trim() || undefined,
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
}

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

/** The defaults of docs/commerce-api.md (contract/cart-limits.ts), the amounts in paise. */
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
  }
}

/**
 * `PUBLIC_URL` as an origin: `https://shop.example/` and `https://shop.example` both give
 * `https://shop.example`. Throws at start on anything but an http(s) URL without path, query or
 * credentials, so a typo cannot put wrong canonical URLs on every page.
 */
export function parsePublicUrl(value: string | undefined): string | undefined {
  if (!value) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL such as https://shop.example (got "${value}")`)
  }
  if (!isBareOrigin(url)) {
    throw new Error(`PUBLIC_URL must be an origin such as https://shop.example, without path, query or credentials (got "${value}")`)
  }
  return url.origin
}

/**
 * Whether the generated-secrets notice was printed in this process. On globalThis, not in a module
 * variable: server.ts loads this module, and the server bundle (build/server, app/.server/env.ts) has
 * its own copy of it, so a module flag would let each copy print the notice once.
 */
const SECRETS_NOTICE = Symbol.for('grocery.config.secretsNotice')

function persistedSecrets(dataDir: string): { jwtSecret: string; sessionSecret: string } {
  const file = path.join(dataDir, 'secrets.json')
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    const secrets = { jwtSecret: randomBytes(32).toString('base64url'), sessionSecret: randomBytes(32).toString('base64url') }
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 })
    return secrets
  }
}

/**
 * Reads the configuration from `env`. Missing JWT_SECRET / SESSION_SECRET are generated once and kept
 * in DATA_DIR/secrets.json (mode 0600); in production that is announced on stderr, because several
 * instances behind a load balancer must share one explicit value of each.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? './data')
  const isProduction = env.NODE_ENV === 'production'
  const needPersisted = !env.JWT_SECRET || !env.SESSION_SECRET
  const persisted = needPersisted ? persistedSecrets(dataDir) : undefined
  const g = globalThis as Record<symbol, unknown>
  if (needPersisted && isProduction && !g[SECRETS_NOTICE]) {
    g[SECRETS_NOTICE] = true
    console.warn(
      `JWT_SECRET/SESSION_SECRET not set: using the generated ones in ${path.join(dataDir, 'secrets.json')}. Set both when running more than one instance.`,
    )
  }
  return {
    port: Number(env.PORT ?? 3000),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    apiUrl: env.API_URL || undefined,
    jwtSecret: env.JWT_SECRET ?? persisted!.jwtSecret,
    sessionSecret: env.SESSION_SECRET ?? persisted!.sessionSecret,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Grocery Store <no-reply@localhost>',
    isProduction,
    uploadMaxBytes: parseUploadMaxBytes(env.UPLOAD_MAX_BYTES),
    jsonBodyMaxBytes: Number(env.JSON_BODY_MAX_BYTES ?? 1024 * 1024),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    apiInternalToken: env.API_INTERNAL_TOKEN || undefined,
    apiAllowedOrigins: (env.API_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => parseOrigin(o)),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    commerce: parseCommerce(env),
    invoice: parseInvoiceSettings(env),
    payments: parsePaymentSettings(env),
    s3: parseS3(env),
    secureCookies: isProduction && env.INSECURE_COOKIES !== '1',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    rateLimitIpMultiplier: Number(env.RATE_LIMIT_IP_MULTIPLIER ?? 1) || 1,
    databasePool: { max: Number(env.DATABASE_POOL_MAX ?? 10), connectTimeoutMs: Number(env.DATABASE_CONNECT_TIMEOUT_MS ?? 5000) },
    seedCatalog: env.SEED_CATALOG !== '0',
  }
}
