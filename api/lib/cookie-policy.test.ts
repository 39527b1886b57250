import { describe, expect, it } from 'vitest'
import { apiCookieSameSite, siteOf } from './cookie-policy.ts'

describe('siteOf', () => {
  it('answers the registrable domain, by the Public Suffix List', () => {
    expect(siteOf('api.shop.example.co.in')).toBe('example.co.in')
    expect(siteOf('www.example.com')).toBe('example.com')
    expect(siteOf('example.com')).toBe('example.com')
  })
  it('answers the host itself for an IP address or a single-label name', () => {
    expect(siteOf('127.0.0.1')).toBe('127.0.0.1')
    expect(siteOf('localhost')).toBe('localhost')
    expect(siteOf('[::1]')).toBe('::1')
  })
})

describe('apiCookieSameSite', () => {
  const secure = { secureCookies: true }
  it('is None for Secure cookies and a listed origin on another site', () => {
    expect(apiCookieSameSite({ ...secure, allowedOrigins: ['https://client.example.net'] }, 'api.shop.example')).toBe('None')
    expect(apiCookieSameSite({ ...secure, allowedOrigins: ['http://127.0.0.1:3310'] }, 'localhost:3310')).toBe('None')
  })
  it('stays Lax when every listed origin is the same site, when none is listed, or without Secure', () => {
    expect(apiCookieSameSite({ ...secure, allowedOrigins: ['https://www.shop.example'] }, 'api.shop.example:443')).toBe('Lax')
    expect(apiCookieSameSite({ ...secure, allowedOrigins: [] }, 'api.shop.example')).toBe('Lax')
    expect(apiCookieSameSite({ secureCookies: false, allowedOrigins: ['https://client.example.net'] }, 'api.shop.example')).toBe('Lax')
  })
})
