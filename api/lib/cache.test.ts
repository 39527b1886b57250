/**
 * The catalogue cache's clear hooks (api/lib/cache.ts): `onClear` hears every drop of the entries,
 * a write here (`invalidate`) and one elsewhere (`clearLocal`, from the cache bus); `onInvalidate`
 * hears only writes here, which the bus publishes.
 */
import { describe, expect, it } from 'vitest'
import { createCatalogCache } from './cache.ts'

describe('createCatalogCache clear hooks', () => {
  it('calls onClear on invalidate and on clearLocal, onInvalidate on invalidate only', async () => {
    const cache = createCatalogCache()
    const heard: string[] = []
    cache.onClear(() => heard.push('clear'))
    cache.onInvalidate(() => heard.push('invalidate'))
    let computed = 0
    const read = () => cache.get('k', async () => ++computed)

    expect(await read()).toBe(1)
    expect(await read()).toBe(1)
    cache.invalidate()
    expect(heard).toEqual(['clear', 'invalidate'])
    expect(await read()).toBe(2)
    cache.clearLocal()
    expect(heard).toEqual(['clear', 'invalidate', 'clear'])
    expect(await read()).toBe(3)
  })
})
