import { describe, expect, it } from 'vitest'
import { filtersBody, isSorted, readListFilters, sortChoices } from './list-filters.ts'

const url = (query: string) => new URL(`http://localhost/x${query}`)

describe('the default order of a list (docs/search.md, "Default order on the pages")', () => {
  it('sorts a listing without ?sort= by popularity, and asks the API for it', () => {
    const filters = readListFilters(url(''), 'listing')
    expect(filters.sort).toBe('popular')
    expect(isSorted(filters)).toBe(false)
    expect(filtersBody(filters).sort).toBe('popular')
  })

  it('sorts a search without ?sort= by relevance, the API default (no field sent)', () => {
    const filters = readListFilters(url('?q=milk'))
    expect(filters.sort).toBe('relevance')
    expect(filtersBody(filters)).not.toHaveProperty('sort')
  })

  it('keeps Newest and the prices as choices; a listing has no separate Relevance', () => {
    expect(sortChoices('listing')).toEqual(['popular', 'newest', 'price_asc', 'price_desc', 'discount'])
    expect(sortChoices('search')).toEqual(['relevance', 'popular', 'newest', 'price_asc', 'price_desc', 'discount'])
    const newest = readListFilters(url('?sort=newest'), 'listing')
    expect(newest.sort).toBe('newest')
    expect(isSorted(newest)).toBe(true)
    // An old link's `relevance` on a listing, or a made-up sort, reads as the default.
    expect(readListFilters(url('?sort=relevance'), 'listing').sort).toBe('popular')
    expect(readListFilters(url('?sort=cheapest'), 'listing').sort).toBe('popular')
  })
})
