/**
 * The Content-Security-Policy of documents (app/.server/csp.ts): scripts only with the nonce, and
 * images from our own origin plus, when `/uploads/*` redirects to a CDN or bucket (`S3_PUBLIC_URL`),
 * that origin only; Razorpay's checkout only with PAYMENT_PROVIDER=razorpay.
 */
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { contentSecurityPolicy, createNonce, hashedContentSecurityPolicy, inlineScriptHashes } from './csp.ts'

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `))

describe('contentSecurityPolicy', () => {
  it('allows scripts with this response nonce only', () => {
    const nonce = createNonce()
    expect(directive(contentSecurityPolicy(nonce, true, []), 'script-src')).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`)
    expect(createNonce()).not.toBe(nonce)
  })

  it('allows Razorpay’s checkout script, frames and hosted form only with PAYMENT_PROVIDER=razorpay (docs/payments.md)', () => {
    const test = contentSecurityPolicy('n', true, [], 'test')
    expect(test).not.toContain('razorpay')
    expect(directive(test, 'form-action')).toBe("form-action 'self'")
    const razorpay = contentSecurityPolicy('n', true, [], 'razorpay')
    expect(directive(razorpay, 'script-src')).toBe("script-src 'self' 'nonce-n' 'strict-dynamic' https://checkout.razorpay.com")
    expect(directive(razorpay, 'frame-src')).toBe('frame-src https://api.razorpay.com https://checkout.razorpay.com')
    expect(directive(razorpay, 'form-action')).toBe("form-action 'self' https://api.razorpay.com")
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

describe('hashedContentSecurityPolicy and inlineScriptHashes (cached pages)', () => {
  it('hashes the text of each distinct inline script, not scripts with a src', () => {
    const html =
      '<script>console.log(1)</script><script type="module" async="">import "/a.js"</script>' +
      '<script src="/b.js"></script><script>console.log(1)</script><script></script>'
    // echo -n 'console.log(1)' | openssl dgst -sha256 -binary | base64
    expect(inlineScriptHashes(html)).toEqual([
      `sha256-${createHash('sha256').update('console.log(1)').digest('base64')}`,
      `sha256-${createHash('sha256').update('import "/a.js"').digest('base64')}`,
    ])
    expect(inlineScriptHashes(html)[0]).toBe('sha256-CihokcEcBW4atb/CW/XWsvWwbTjqwQlE9nj9ii5ww5M=')
  })

  it('allows our script files and the hashed inline scripts only, with no nonce and no strict-dynamic', () => {
    const policy = hashedContentSecurityPolicy(['sha256-abc=', 'sha256-def='], true, [])
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'sha256-abc=' 'sha256-def='")
    expect(policy).not.toContain('nonce')
    expect(directive(policy, 'img-src')).toBe(directive(contentSecurityPolicy('n', true, []), 'img-src'))
  })
})
