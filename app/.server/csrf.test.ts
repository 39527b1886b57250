/**
 * app/.server/csrf.ts: a form post runs only when the browser says one of our pages sent it (OWASP
 * CSRF Prevention Cheat Sheet, "Verifying Origin With Standard Headers").
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'

let csrf: typeof import('./csrf.ts')
beforeAll(async () => {
  // env.ts reads the configuration on import: give it secrets so nothing is generated on disk.
  process.env.SESSION_SECRET ??= 'test-session-secret-0123456789abcdef'
  process.env.JWT_SECRET ??= 'test-jwt-secret-0123456789abcdef'
  vi.resetModules()
  csrf = await import('./csrf.ts')
})

const post = (headers: Record<string, string>, method = 'POST') =>
  new Request('http://shop.test/cart', { method, headers, ...(method === 'GET' ? {} : { body: 'intent=add&productId=abc' }) })

describe('isAllowedWrite', () => {
  const allowed: Array<[string, Record<string, string>]> = [
    ['a same-origin Origin', { Origin: 'http://shop.test' }],
    ['a same-origin Origin, whatever the Referer', { Origin: 'http://shop.test', Referer: 'https://evil.example/' }],
    ['no Origin, a same-origin Referer', { Referer: 'http://shop.test/product/p-1' }],
    ['no Origin, Sec-Fetch-Site: same-origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ['no Origin, both saying this site', { Referer: 'http://shop.test/', 'Sec-Fetch-Site': 'same-origin' }],
  ]
  const refused: Array<[string, Record<string, string>]> = [
    ['a cross-site Origin', { Origin: 'https://evil.example' }],
    ['a same-host Origin of another scheme', { Origin: 'https://shop.test' }],
    ['another port', { Origin: 'http://shop.test:8080' }],
    ['Origin: null', { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }],
    ['a malformed Origin', { Origin: 'not a url' }],
    ['no Origin, a cross-site Referer', { Referer: 'https://evil.example/page' }],
    ['no Origin, a cross-site Referer on a subdomain', { Referer: 'http://evil.shop.test/' }],
    ['no Origin, Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['no Origin, Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }],
    ['no Origin, Sec-Fetch-Site: none', { 'Sec-Fetch-Site': 'none' }],
    ['no Origin, a same-origin Referer but Sec-Fetch-Site: cross-site', { Referer: 'http://shop.test/', 'Sec-Fetch-Site': 'cross-site' }],
    [
      'no Origin, Sec-Fetch-Site: same-origin but a cross-site Referer',
      { Referer: 'https://evil.example/', 'Sec-Fetch-Site': 'same-origin' },
    ],
    ['none of the three headers', {}],
  ]

  it.each(allowed)('lets a POST with %s through', (_, headers) => {
    expect(csrf.isAllowedWrite(post(headers), undefined)).toBe(true)
  })

  it.each(refused)('refuses a POST with %s', (_, headers) => {
    expect(csrf.isAllowedWrite(post(headers), undefined)).toBe(false)
  })

  it('applies to every unsafe method, never to reads', () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) expect(csrf.isAllowedWrite(post({}, method), undefined), method).toBe(false)
    expect(csrf.isAllowedWrite(post({ 'Sec-Fetch-Site': 'cross-site' }, 'GET'), undefined)).toBe(true)
  })

  it('counts PUBLIC_URL as ours (the origin shoppers see behind a proxy)', () => {
    const behindProxy = new Request('http://10.0.0.5:3000/cart', { method: 'POST', headers: { Origin: 'https://shop.example' } })
    expect(csrf.isAllowedWrite(behindProxy, 'https://shop.example')).toBe(true)
    expect(csrf.isAllowedWrite(behindProxy, undefined)).toBe(false)
  })
})

describe('sameSiteWrites (the root middleware)', () => {
  const run = async (request: Request) => {
    const next = vi.fn(async () => new Response('ran'))
    const args = { request, context: {}, params: {}, unstable_pattern: '' } as unknown as Parameters<typeof csrf.sameSiteWrites>[0]
    try {
      return { response: await csrf.sameSiteWrites(args, next), next, thrown: null }
    } catch (thrown) {
      return { response: null, next, thrown }
    }
  }

  it('answers a cross-site post 403 without running the action', async () => {
    const { next, thrown } = await run(post({ Referer: 'https://evil.example/page' }))
    expect(next).not.toHaveBeenCalled()
    // `data()` thrown: React Router answers it as an error response of that status.
    expect((thrown as { init?: ResponseInit }).init?.status).toBe(403)
    expect((thrown as { data?: unknown }).data).toBe(csrf.CROSS_SITE_FORM_REFUSED)
  })

  it('runs a post from our own page', async () => {
    const { next, response } = await run(post({ Origin: 'http://shop.test' }))
    expect(next).toHaveBeenCalledOnce()
    expect(await response?.text()).toBe('ran')
  })
})
