/**
 * BFF configuration, read once on the server (never shipped to the browser). See README
 * "Configuration". `SESSION_SECRET` signs the cookie session; on the embedded default it is generated
 * and kept in DATA_DIR/secrets.json by api/config.ts.
 */
import { loadConfig } from '../../api/config.ts'

const config = loadConfig()

/** A whole number of at least 0 from the environment variable `name`, or `fallback` when unset. */
function wholeNumber(name: string, fallback: number | null): number | null {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d{1,9}$/.test(raw)) throw new Error(`${name} must be a whole number (0 or more), got "${raw}"`)
  return Number(raw)
}

export const env = {
  /** Base URL of a separately deployed API (`https://api.example.com`); unset = the in-process API. */
  apiUrl: config.apiUrl,
  /**
   * `API_TIMEOUT_MS`: longest wait in ms for a separately deployed API's whole answer
   * (app/.server/upstream.ts), default 5000; past it the page answers 503 "back in a moment" instead
   * of leaving the shopper on a blank, loading tab.
   */
  apiTimeoutMs: wholeNumber('API_TIMEOUT_MS', 5000) || 5000,
  sessionSecret: config.sessionSecret,
  /** Sent with `X-Client-Ip` to a separately deployed API so it trusts the forwarded address. */
  apiInternalToken: config.apiInternalToken,
  isProduction: config.isProduction,
  /**
   * The payment provider (`PAYMENT_PROVIDER`, api/modules/payment/settings.ts): with `razorpay` the
   * pages' policy allows Razorpay's checkout script, frames and hosted form (app/.server/csp.ts).
   */
  paymentProvider: config.payments.provider.name,
  /** The site's public origin for canonical, Open Graph and sitemap URLs; unset = the request's own. */
  publicUrl: config.publicUrl,
  /**
   * Origins images may come from besides ours: the origin of `S3_PUBLIC_URL`, where `/uploads/*`
   * redirects when set (set it on a BFF deployed apart too, so its pages allow those images), and
   * `PUBLIC_URL`, on which the API names its images (api/lib/public-urls.ts).
   */
  imageOrigins: [...(config.s3?.publicUrl ? [new URL(config.s3.publicUrl).origin] : []), ...(config.publicUrl ? [config.publicUrl] : [])],
  /** The upload cap in bytes: `UPLOAD_MAX_BYTES`, the same variable the API reads (contract/file.ts). */
  uploadMaxBytes: config.uploadMaxBytes,
  /** `Secure` cookies and HSTS (api/config.ts: production unless INSECURE_COOKIES=1). */
  secureCookies: config.secureCookies,
  /** `PAGE_CACHE_MAX_MB`: memory of the anonymous page cache in bytes (app/.server/page-cache.ts); 0 turns it off. */
  pageCacheMaxBytes: (wholeNumber('PAGE_CACHE_MAX_MB', 64) ?? 64) * 1024 * 1024,
  /** `PAGE_CACHE_TTL_MS`: longest life of a cached page in ms; unset = server.ts's default (60 s, or 5 s with `API_URL`). */
  pageCacheTtlMs: wholeNumber('PAGE_CACHE_TTL_MS', null),
}
