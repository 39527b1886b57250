import { describe, expect, it } from 'vitest'
import { discountLabel, discountPercentOf, formatRupees, sellingPrice } from './money.ts'

describe('formatRupees (en-IN, Indian rupee)', () => {
  it('groups digits the Indian way and drops .00 for whole rupees', () => {
    expect(formatRupees(123456)).toBe('₹1,23,456')
    expect(formatRupees(10000000)).toBe('₹1,00,00,000')
    expect(formatRupees(52)).toBe('₹52')
    expect(formatRupees(0)).toBe('₹0')
  })

  it('shows two digits of paise when there are any', () => {
    expect(formatRupees(52.5)).toBe('₹52.50')
    expect(formatRupees(1234.05)).toBe('₹1,234.05')
    expect(formatRupees(0.1 + 0.2)).toBe('₹0.30')
  })

  it('rounds to paise, and a value that rounds to whole rupees has no decimals', () => {
    expect(formatRupees(1.005)).toBe('₹1.01')
    expect(formatRupees(19.999)).toBe('₹20')
    expect(formatRupees(-0)).toBe('₹0')
    expect(formatRupees(-0.001)).toBe('₹0')
  })

  it('refuses amounts that are not numbers', () => {
    expect(() => formatRupees(Number.NaN)).toThrow(RangeError)
    expect(() => formatRupees(Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })
})

describe('sellingPrice (MRP less discount, in rupees rounded to paise)', () => {
  it('takes the discount off the MRP', () => {
    expect(sellingPrice(100, 23)).toBe(77)
    expect(sellingPrice(52.5, 10)).toBe(47.25)
    expect(sellingPrice(99, 33)).toBe(66.33)
    expect(sellingPrice(240, 12.5)).toBe(210)
  })

  it('rounds half a paisa up', () => {
    // 0.05 × 0.9 = 0.045 rupees = 4.5 paise
    expect(sellingPrice(0.05, 10)).toBe(0.05)
    expect(sellingPrice(10.01, 50)).toBe(5.01)
  })

  it('keeps the MRP when there is no discount and clamps silly discounts', () => {
    expect(sellingPrice(75, 0)).toBe(75)
    expect(sellingPrice(75, -10)).toBe(75)
    expect(sellingPrice(75, Number.NaN)).toBe(75)
    expect(sellingPrice(75, 100)).toBe(0)
    expect(sellingPrice(75, 150)).toBe(0)
  })
})

describe('discountLabel', () => {
  it('reads "N% OFF"', () => {
    expect(discountLabel(23)).toBe('23% OFF')
    expect(discountLabel(12.5)).toBe('12.5% OFF')
    expect(discountLabel(100)).toBe('100% OFF')
  })

  it('never rounds a discount up', () => {
    expect(discountLabel(33.339)).toBe('33.33% OFF')
    // 12.55 × 100 is 1254.9999… in binary floating point: still 12.55
    expect(discountLabel(12.55)).toBe('12.55% OFF')
    expect(discountLabel(33.33)).toBe('33.33% OFF')
  })

  it('is null when there is no discount', () => {
    expect(discountLabel(0)).toBeNull()
    expect(discountLabel(-5)).toBeNull()
    expect(discountLabel(Number.NaN)).toBeNull()
  })

  it('reads discounts above 100 as 100', () => {
    expect(discountLabel(250)).toBe('100% OFF')
  })
})

describe('discountPercentOf (the badge reads the two prices, not the API discount)', () => {
  it('is the exact percentage of the selling price off the MRP', () => {
    expect(discountPercentOf(100, 90)).toBe(10)
    expect(discountLabel(discountPercentOf(255, 251))).toBe('1.56% OFF') // 1.5686… %, never rounded up
    expect(discountLabel(discountPercentOf(69.75, 52))).toBe('25.44% OFF')
  })

  it('is 0 without an MRP or when the selling price is not below it', () => {
    expect(discountPercentOf(0, 0)).toBe(0)
    expect(discountPercentOf(100, 100)).toBe(0)
    expect(discountPercentOf(100, 120)).toBe(0)
    expect(discountPercentOf(100, 0)).toBe(100)
  })
})
