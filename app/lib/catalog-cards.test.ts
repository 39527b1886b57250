import { describe, expect, it } from 'vitest'
import { brandOf, toCardData } from './catalog-cards.ts'

describe('brandOf', () => {
  it('answers the trimmed brand of more_details, or nothing', () => {
    expect(brandOf({ more_details: { brand: '  Amul ' } })).toBe('Amul')
    expect(brandOf({ more_details: { sku: 'BB-1' } })).toBe('')
    expect(brandOf({ more_details: { brand: 42 } })).toBe('')
    expect(brandOf({ more_details: null })).toBe('')
    expect(brandOf({})).toBe('')
  })

  it('is the brand a card shows', () => {
    expect(toCardData({ _id: 'p1', name: 'Butter', price: 50, more_details: { brand: 'Amul' } }).brand).toBe('Amul')
  })
})
