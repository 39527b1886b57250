/**
 * BFF configuration, read once on the server (never shipped to the browser). See README
 * "Configuration". `SESSION_SECRET` signs the cookie session; on the embedded default it is generated
 * and kept in DATA_DIR/secrets.json by api/config.ts.
 */
import { loadConfig } from '../../api/config.ts'

const config = loadConfig()

export const env = {
  /** Base URL of a separately deployed API (`https://api.example.com`); unset = the in-process API. */
  apiUrl: config.apiUrl,
  sessionSecret: config.sessionSecret,
  /** Sent with `X-Client-Ip` to a separately deployed API so it trusts the forwarded address. */
  apiInternalToken: config.apiInternalToken,
  isProduction: config.isProduction,
  /** The site's public origin for canonical, Open Graph and sitemap URLs; unset = the request's own. */
  publicUrl: config.publicUrl,
  /**
   * Origins images may come from besides ours: the origin of `S3_PUBLIC_URL`, where `/uploads/*`
   * redirects when set (set it on a BFF deployed apart too, so its pages allow those images).
   */
  imageOrigins: config.s3?.publicUrl ? [new URL(config.s3.publicUrl).origin] : [],
  /** The upload cap in bytes: `UPLOAD_MAX_BYTES`, the same variable the API reads (contract/file.ts). */
  uploadMaxBytes: config.uploadMaxBytes,
  /** `Secure` cookies and HSTS (api/config.ts: production unless INSECURE_COOKIES=1). */
  secureCookies: config.secureCookies,
}
