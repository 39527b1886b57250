/**
 * The catalogue cache's clear hooks (api/lib/cache.ts): `onClear` hears every drop of the entries,
 * a write here (`invalidate`) and one elsewhere (`clearLocal`, from the cache bus); `onInvalidate`
 * hears only changes here, which the bus publishes. A stock change (`stockChanged`, an order) drops
 * only the entries it makes stale: the one-product answers of the products that moved, the answers
 * showing a product that crossed 0, the answers ordered by availability, and computations under way.
 */
import { describe, expect, it } from 'vitest'
import { createCatalogCache, type CatalogChange } from './cache.ts'

const product = (_id: string, stock = 5) => ({ _id, name: _id, stock, category: [{ _id: 'c1', name: 'Dairy' }] })

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

describe('createCatalogCache stock changes', () => {
  /** A cache holding a list of p1 and p2, p1's details, a list of p3, a search, and the categories; and a count of computations per key. */
  async function filled() {
    const cache = createCatalogCache()
    const computed = new Map<string, number>()
    const values: Record<string, unknown> = {
      list: { data: [product('p1'), product('p2')], totalCount: 2 },
      'details:p1': product('p1'),
      other: [{ categoryId: 'c1', products: [product('p3')] }],
      search: { data: [product('p4')], totalCount: 1 },
      categories: [{ _id: 'c1', name: 'Dairy' }],
    }
    const read = (key: string) =>
      cache.get(
        key,
        async () => {
          computed.set(key, (computed.get(key) ?? 0) + 1)
          return values[key]
        },
        { availabilityOrdered: key === 'search' },
      )
    for (const key of Object.keys(values)) await read(key)
    const recomputed = async () => {
      const before = new Map(computed)
      for (const key of Object.keys(values)) await read(key)
      return Object.keys(values).filter((key) => computed.get(key) !== before.get(key))
    }
    return { cache, read, recomputed }
  }

  it('a stock change that crosses no 0 drops only the one-product answers of the moved products', async () => {
    const { cache, recomputed } = await filled()
    const cleared: CatalogChange[] = []
    const published: CatalogChange[] = []
    cache.onClear((change) => cleared.push(change))
    cache.onInvalidate((change) => published.push(change))
    cache.stockChanged({ moved: ['p1', 'p3'], crossed: [], restocked: [] })
    expect(await recomputed()).toEqual(['details:p1'])
    expect(cleared).toEqual([{ kind: 'stock', moved: ['p1', 'p3'], crossed: [], restocked: [] }])
    expect(published).toEqual([{ kind: 'stock', moved: ['p1', 'p3'], crossed: [], restocked: [] }])
  })

  it('a product running out drops the answers that show it, and nothing else', async () => {
    const { cache, recomputed } = await filled()
    cache.stockChanged({ moved: ['p1'], crossed: ['p1'], restocked: [] })
    expect(await recomputed()).toEqual(['list', 'details:p1'])
    // The search shows p4 first; p3 running out only moves p3 further back.
    cache.stockChanged({ moved: ['p3'], crossed: ['p3'], restocked: [] })
    expect(await recomputed()).toEqual(['other'])
    cache.stockChanged({ moved: ['p4'], crossed: ['p4'], restocked: [] })
    expect(await recomputed()).toEqual(['search'])
  })

  it('a product coming back in stock also drops the answers ordered by availability: it may move into them', async () => {
    const { cache, recomputed } = await filled()
    cache.stockChanged({ moved: ['p3'], crossed: ['p3'], restocked: ['p3'] })
    expect(await recomputed()).toEqual(['other', 'search'])
    // A restocked key must be a crossed one: a stray one is ignored.
    cache.stockChanged({ moved: ['p9'], crossed: [], restocked: ['p9'] })
    expect(await recomputed()).toEqual([])
  })

  it('follows another instance’s change without publishing it, and ignores an empty change', async () => {
    const { cache, recomputed } = await filled()
    const cleared: CatalogChange[] = []
    const published: CatalogChange[] = []
    cache.onClear((change) => cleared.push(change))
    cache.onInvalidate((change) => published.push(change))
    cache.stockChanged({ moved: [], crossed: [], restocked: [] })
    expect(cleared).toEqual([])
    cache.applyLocal({ kind: 'stock', moved: ['p2'], crossed: ['p2'], restocked: ['p2'] })
    expect(await recomputed()).toEqual(['list', 'search'])
    cache.applyLocal({ kind: 'all' })
    expect(await recomputed()).toHaveLength(5)
    expect(cleared.map((c) => c.kind)).toEqual(['stock', 'all'])
    expect(published).toEqual([])
  })

  it('does not keep a computation that a stock change overtook', async () => {
    const cache = createCatalogCache()
    let release = () => {}
    let computed = 0
    const read = () =>
      cache.get('list', async () => {
        computed++
        if (computed === 1) await new Promise<void>((resolve) => (release = resolve))
        return [product('p8')]
      })
    const during = read()
    await new Promise((r) => setTimeout(r, 5))
    cache.stockChanged({ moved: ['p9'], crossed: [], restocked: [] })
    release()
    await during
    await read()
    expect(computed).toBe(2)
  })
})
