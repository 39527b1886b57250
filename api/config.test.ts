/** api/config.ts `parsePublicUrl`: origins accepted and normalised, anything else refused at start. */
import { describe, expect, it } from 'vitest'
import { parsePublicUrl } from './config.ts'

describe('PUBLIC_URL', () => {
  it('is optional', () => {
    expect(parsePublicUrl(undefined)).toBeUndefined()
    expect(parsePublicUrl('')).toBeUndefined()
  })
  it('is normalised to an origin', () => {
    expect(parsePublicUrl('https://shop.example/')).toBe('https://shop.example')
    expect(parsePublicUrl('https://Shop.Example:8443')).toBe('https://shop.example:8443')
    expect(parsePublicUrl('http://localhost:3000')).toBe('http://localhost:3000')
  })
  it('refuses what is not a bare http(s) origin', () => {
    for (const bad of ['shop.example', 'ftp://shop.example', 'https://shop.example/store', 'https://shop.example/?a=1', 'https://user:pw@shop.example', 'javascript:alert(1)']) {
      expect(() => parsePublicUrl(bad), bad).toThrow(/PUBLIC_URL/)
    }
  })
})
