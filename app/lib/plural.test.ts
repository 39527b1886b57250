import { describe, expect, it } from 'vitest'
import { countLabel } from './plural.ts'
import { itemCountLabel } from './cart.ts'

describe('countLabel', () => {
  it('takes the singular for exactly one and the plural for every other count', () => {
    expect(countLabel(1, 'result')).toBe('1 result')
    expect(countLabel(0, 'result')).toBe('0 results')
    expect(countLabel(2, 'result')).toBe('2 results')
    expect(countLabel(1234, 'order')).toBe('1234 orders')
  })

  it('uses the plural it is given', () => {
    expect(countLabel(1, 'category', 'categories')).toBe('1 category')
    expect(countLabel(5, 'category', 'categories')).toBe('5 categories')
  })
})

describe('itemCountLabel', () => {
  it('counts cart items the same way', () => {
    expect(itemCountLabel(1)).toBe('1 item')
    expect(itemCountLabel(3)).toBe('3 items')
  })
})
