import { beforeAll, describe, expect, it, vi } from 'vitest'

let returnPath: typeof import('./auth.ts').returnPath
beforeAll(async () => {
  // env.ts reads the configuration on import: give it secrets so nothing is generated on disk.
  process.env.SESSION_SECRET ??= 'test-session-secret-0123456789abcdef'
  process.env.JWT_SECRET ??= 'test-jwt-secret-0123456789abcdef'
  vi.resetModules()
  ;({ returnPath } = await import('./auth.ts'))
})

describe('returnPath (the way back after sign-in)', () => {
  it('keeps the path and query of a document request', () => {
    expect(returnPath(new Request('http://shop.test/dashboard/subcategory?page=2'))).toBe('/dashboard/subcategory?page=2')
  })

  it("turns a client navigation's single-fetch data request into the page's own address", () => {
    expect(returnPath(new Request('http://shop.test/dashboard/profile.data?_routes=routes%2Fdashboard%2Fprofile'))).toBe(
      '/dashboard/profile',
    )
    expect(returnPath(new Request('http://shop.test/dashboard/product.data?q=milk&_routes=x'))).toBe('/dashboard/product?q=milk')
    expect(returnPath(new Request('http://shop.test/_root.data?_routes=root'))).toBe('/')
  })

  it("takes a route's url argument as well", () => {
    expect(returnPath(new URL('http://shop.test/user'))).toBe('/user')
  })
})
