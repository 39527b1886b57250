/**
 * Content-Security-Policy with a per-request nonce (CSP Level 3; OWASP CSP Cheat Sheet). Scripts run
 * only with the nonce; styles allow 'unsafe-inline' because react-hot-toast renders inline `style`
 * attributes (docs/security.md, "Content-Security-Policy"). Development adds Vite's websocket for hot
 * reload.
 */
import { randomBytes } from 'node:crypto'
import { env } from './env.ts'

/** A fresh base64 nonce of 128 bits. */
export function createNonce(): string {
  return randomBytes(16).toString('base64')
}

/**
 * The policy header value for a document rendered with `nonce`.
 * @param imageOrigins origins besides our own that pages load images from: the CDN or bucket base of
 *   `S3_PUBLIC_URL`, to which `/uploads/*` redirects (docs/decisions/0012-object-storage.md)
 */
export function contentSecurityPolicy(
  nonce: string,
  isProduction = process.env.NODE_ENV === 'production',
  imageOrigins: string[] = env.imageOrigins,
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imageOrigins].join(' '),
    "font-src 'self'",
    `connect-src 'self'${isProduction ? '' : ' ws: wss:'}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}
