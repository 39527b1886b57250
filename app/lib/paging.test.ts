import { describe, expect, it } from 'vitest'
import { pageRange, paginate, readPageRequest } from './paging.ts'

describe('paginate (the admin data table: 10 rows a page)', () => {
  const items = Array.from({ length: 23 }, (_, i) => i + 1)
  it('cuts pages of 10 with serial numbers continuing across pages', () => {
    expect(paginate(items, '1')).toEqual({ rows: items.slice(0, 10), page: 1, totalPages: 3, firstSerial: 1 })
    expect(paginate(items, 2)).toMatchObject({ rows: items.slice(10, 20), page: 2, firstSerial: 11 })
    expect(paginate(items, '3').rows).toEqual([21, 22, 23])
  })
  it('clamps a page past the end to the last page and a bad or small page to 1', () => {
    expect(paginate(items, '99')).toMatchObject({ page: 3, firstSerial: 21 })
    expect(paginate(items, '0').page).toBe(1)
    expect(paginate(items, '-4').page).toBe(1)
    expect(paginate(items, 'abc').page).toBe(1)
    expect(paginate(items, null).page).toBe(1)
  })
  it('gives one empty page for an empty list', () => {
    expect(paginate([], '5')).toEqual({ rows: [], page: 1, totalPages: 1, firstSerial: 1 })
  })
})

describe('readPageRequest and pageRange (the appending lists)', () => {
  it('reads ?page= within 1..10000 and the fetcher’s single page', () => {
    expect(readPageRequest(new URL('http://x/a?page=3&single=1'))).toEqual({ page: 3, isSingle: true })
    expect(readPageRequest(new URL('http://x/a?page=0'))).toEqual({ page: 1, isSingle: false })
    expect(readPageRequest(new URL('http://x/a?page=99999999')).page).toBe(10_000)
  })
  it('fetches pages 1..N without JavaScript, at most the last 12, and only page N for the fetcher', () => {
    expect(pageRange(3, 8, false)).toEqual({ start: 0, end: 24 })
    expect(pageRange(20, 8, false)).toEqual({ start: 8 * 8, end: 160 })
    expect(pageRange(3, 8, true)).toEqual({ start: 16, end: 24 })
  })
})
