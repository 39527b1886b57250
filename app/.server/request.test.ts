/** app/.server/request.ts `safeRedirect`: only paths that stay on the site, with no control characters. */
import { describe, expect, it } from 'vitest'
import { safeRedirect, sameOriginReferer } from './request.ts'

describe('safeRedirect', () => {
  it('keeps same-site paths with their query and fragment', () => {
    expect(safeRedirect('/checkout')).toBe('/checkout')
    expect(safeRedirect('/search?q=milk&page=2#top')).toBe('/search?q=milk&page=2#top')
    expect(safeRedirect('/product/Amul-%E0%A4%A6-abc')).toBe('/product/Amul-%E0%A4%A6-abc')
  })

  it('refuses everything that leaves the site or could be read as another host', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '/%09/evil.example',
      '/\t/evil.example',
      '/%0a/evil.example',
      '/\u0000',
      '/%00',
      '/%2F/evil.example',
      '/%5Cevil.example',
      'https://evil.example/',
      'evil.example',
      '',
      '/%E0%A4%A',
    ]) {
      expect(safeRedirect(bad), JSON.stringify(bad)).toBe('/')
    }
    expect(safeRedirect(null, '/home')).toBe('/home')
    expect(safeRedirect(undefined)).toBe('/')
  })

  // Every spelling of "another host" we know of: network-path references (RFC 3986 §4.2), the
  // backslash browsers read as a slash (WHATWG URL, "special" schemes), percent-encoded slashes and
  // backslashes, dot segments that collapse into `//`, and the tabs and line breaks URL parsers drop.
  const OFFSITE: string[] = [
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\/evil.example',
    '/.//evil.example',
    '/././/evil.example',
    '/..//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/.%2F/evil.example',
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    '/%5Cevil.example',
    '/%5c%5cevil.example',
    '/.%5C/evil.example',
    '/\t/evil.example',
    '\t//evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/%09/evil.example',
    '/%0a/evil.example',
    '/%0D%0A/evil.example',
    '/.\t//evil.example',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    '/\u0000//evil.example',
  ]

  it.each(OFFSITE)('refuses %j', (target) => {
    const answer = safeRedirect(target, '/fallback')
    // Either refused, or a path that resolves on our own origin: never another host.
    expect(new URL(answer, 'http://shop.test').origin, JSON.stringify(answer)).toBe('http://shop.test')
    expect(answer.startsWith('//') || answer.startsWith('/\\')).toBe(false)
  })

  it('refuses dot segments that collapse into a network-path reference', () => {
    expect(safeRedirect('/.//evil.example')).toBe('/')
    expect(safeRedirect('/a/..//evil.example')).toBe('/')
    expect(safeRedirect('/%2e//evil.example')).toBe('/')
  })

  it('answers what was checked: the normalised path', () => {
    expect(safeRedirect('/a/../dashboard')).toBe('/dashboard')
    expect(new URL(safeRedirect('/./%2e%2e/x'), 'http://shop.test').origin).toBe('http://shop.test')
  })
})

describe('sameOriginReferer', () => {
  const post = (referer?: string) => new Request('http://shop.test/cart', { method: 'POST', headers: referer ? { referer } : {} })

  it('gives the path and query of a same-origin Referer', () => {
    expect(sameOriginReferer(post('http://shop.test/search?q=milk'))).toBe('/search?q=milk')
  })

  it('gives null for another host, a missing or a malformed Referer', () => {
    expect(sameOriginReferer(post('https://evil.example/search?q=milk'))).toBeNull()
    expect(sameOriginReferer(post())).toBeNull()
    expect(sameOriginReferer(post('not a url'))).toBeNull()
  })
})
