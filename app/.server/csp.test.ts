/**
 * The Content-Security-Policy of documents (app/.server/csp.ts): scripts only with the nonce, and
 * images from our own origin plus, when `/uploads/*` redirects to a CDN or bucket (`S3_PUBLIC_URL`),
 * that origin only.
 */
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, createNonce } from './csp.ts'

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `))

describe('contentSecurityPolicy', () => {
  it('allows scripts with this response nonce only', () => {
    const nonce = createNonce()
    expect(directive(contentSecurityPolicy(nonce, true, []), 'script-src')).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`)
    expect(createNonce()).not.toBe(nonce)
  })

  it('allows images from our origin, and from the public image origin when one is set', () => {
    expect(directive(contentSecurityPolicy('n', true, []), 'img-src')).toBe("img-src 'self' data: blob:")
    expect(directive(contentSecurityPolicy('n', true, ['https://cdn.example.com']), 'img-src')).toBe(
      "img-src 'self' data: blob: https://cdn.example.com",
    )
  })

  it('opens the dev server websocket only outside production', () => {
    expect(directive(contentSecurityPolicy('n', true, []), 'connect-src')).toBe("connect-src 'self'")
    expect(directive(contentSecurityPolicy('n', false, []), 'connect-src')).toBe("connect-src 'self' ws: wss:")
  })
})
