/**
 * The cards' data (app/lib/catalog-cards.ts): the brand a card shows, and the pack sizes of its size
 * picker (docs/product.md, "Pack sizes").
 */
import { describe, expect, it } from 'vitest'
import { brandOf, packSizeLabels, toCardData } from './catalog-cards.ts'

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

describe('the price a card shows', () => {
  it("names the wire's price the MRP and keeps no wire `price` (app/lib/money.ts PriceView)", () => {
    const card = toCardData({ _id: 'p1', name: 'Butter', price: 69.75, sellingPrice: 52, discount: 26 })
    expect(card).toMatchObject({ mrp: 69.75, sellingPrice: 52 })
    expect(card).not.toHaveProperty('price')
    // The badge's percentage comes from the two prices, not the wire's discount.
    expect(card.discount).toBeCloseTo(25.448, 3)
  })
})

describe('pack sizes of a card', () => {
  const size = (_id: string, unit: string, sellingPrice: number, price = sellingPrice) => ({ _id, unit, price, sellingPrice, stock: 3 })

  it("keeps the sizes of a product that has others, with each size's discount from its two prices", () => {
    const card = toCardData({ _id: 'a', name: 'Paneer', price: 100, packSizes: [size('a', '200 g', 90, 100), size('b', '1 kg', 440)] })
    expect(card.packSizes).toEqual([
      { _id: 'a', unit: '200 g', mrp: 100, sellingPrice: 90, discount: 10, stock: 3 },
      { _id: 'b', unit: '1 kg', mrp: 440, sellingPrice: 440, discount: 0, stock: 3 },
    ])
  })

  it('has no picker for a product alone in its group or without one', () => {
    expect(toCardData({ _id: 'a', name: 'Paneer', price: 100, packSizes: [size('a', '200 g', 90)] })).not.toHaveProperty('packSizes')
    expect(toCardData({ _id: 'a', name: 'Paneer', price: 100 })).not.toHaveProperty('packSizes')
  })

  it('labels each size by its unit, adding the price only where two sizes share a unit', () => {
    const card = toCardData({
      _id: 'a',
      name: 'Olive Oil',
      price: 784,
      packSizes: [size('a', '250 ml', 300), size('b', '1 L', 728), size('c', '1 l', 784)],
    })
    const labels = packSizeLabels(card.packSizes!, (n) => `₹${n}`)
    expect([...labels.values()]).toEqual(['250 ml', '1 L · ₹728', '1 l · ₹784'])
  })
})
