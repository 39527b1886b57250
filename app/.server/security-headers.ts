/**
 * The usual security headers for every response (OWASP Secure Headers Project). The
 * Content-Security-Policy, which needs a per-request nonce, is set on documents by
 * app/entry.server.tsx (app/.server/csp.ts).
 *
 * Permissions-Policy (W3C Permissions Policy): camera, microphone and payment off; geolocation for
 * this origin only (`self`, never a frame of another site), for the rider's page that shares its
 * position (docs/delivery.md, "Live tracking"). Every page of the origin gets it, because a policy
 * is the document's: a rider who signs in and reaches /rider by a client-side navigation keeps the
 * policy of the page it loaded first. The browser still asks the rider before any position is read.
 */
import type { RequestHandler } from 'express'
import { env } from './env.ts'

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('X-Frame-Options', 'DENY')
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(self), payment=()')
  if (env.secureCookies) {
    res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  }
  next()
}
