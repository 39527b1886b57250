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
