import { describe, expect, it } from 'vitest'
import {
  decimalRupees,
  discountLabel,
  preciseDiscountLabel,
  wholeDiscountPercent,
  discountPercentOf,
  discountToTwoPlaces,
  formatPaise,
  formatRupees,
  fromPaise,
  isDiscounted,
  lineAmount,
  orderLinePrice,
  priceTimes,
  productPrice,
  sellingPrice,
  subtractRupees,
  sumRupees,
  toPaise,
} from './money.ts'

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

describe('discountLabel (whole percents, rounded down)', () => {
  it('reads "N% OFF" with a whole percent', () => {
    expect(discountLabel(23)).toBe('23% OFF')
    expect(discountLabel(12.5)).toBe('12% OFF')
    expect(discountLabel(100)).toBe('100% OFF')
  })

  it('never rounds a discount up', () => {
    expect(discountLabel(57.39)).toBe('57% OFF')
    expect(discountLabel(33.999)).toBe('33% OFF')
    expect(discountLabel(12.55)).toBe('12% OFF')
  })

  it('is null when less than a whole percent is off', () => {
    expect(discountLabel(0)).toBeNull()
    expect(discountLabel(0.99)).toBeNull()
    expect(discountLabel(-5)).toBeNull()
    expect(discountLabel(Number.NaN)).toBeNull()
  })

  it('reads discounts above 100 as 100', () => {
    expect(discountLabel(250)).toBe('100% OFF')
  })
})

describe('wholeDiscountPercent (integer paise)', () => {
  it('floors the exact percentage: MRP ₹100, selling ₹42.61 is 57 (57.39 %)', () => {
    expect(wholeDiscountPercent(100, 42.61)).toBe(57)
    expect(discountLabel(discountPercentOf(100, 42.61))).toBe('57% OFF')
  })

  it('keeps a whole percent whole and a hair below it below', () => {
    expect(wholeDiscountPercent(300, 129)).toBe(57) // exactly 57 %
    expect(discountLabel(discountPercentOf(300, 129))).toBe('57% OFF')
    expect(wholeDiscountPercent(100000.01, 43000.01)).toBe(56) // 56.99999… %
    expect(discountLabel(discountPercentOf(100000.01, 43000.01))).toBe('56% OFF')
    expect(wholeDiscountPercent(255, 251)).toBe(1) // 1.5686… %
  })

  it('is 0 without an MRP or a discount', () => {
    expect(wholeDiscountPercent(0, 0)).toBe(0)
    expect(wholeDiscountPercent(100, 100)).toBe(0)
    expect(wholeDiscountPercent(100, 120)).toBe(0)
    expect(wholeDiscountPercent(100, 99.5)).toBe(0)
  })
})

describe('preciseDiscountLabel (the admin preview)', () => {
  it('floors to two decimals', () => {
    expect(preciseDiscountLabel(33.339)).toBe('33.33% OFF')
    // 12.55 × 100 is 1254.9999… in binary floating point: still 12.55
    expect(preciseDiscountLabel(12.55)).toBe('12.55% OFF')
    expect(preciseDiscountLabel(0)).toBeNull()
  })
})

describe('discountPercentOf (the badge reads the two prices, not the API discount)', () => {
  it('is the exact percentage of the selling price off the MRP', () => {
    expect(discountPercentOf(100, 90)).toBe(10)
    expect(preciseDiscountLabel(discountPercentOf(255, 251))).toBe('1.56% OFF') // 1.5686… %, never rounded up
    expect(discountLabel(discountPercentOf(69.75, 52))).toBe('25% OFF') // 25.44 %
  })

  it('is 0 without an MRP or when the selling price is not below it', () => {
    expect(discountPercentOf(0, 0)).toBe(0)
    expect(discountPercentOf(100, 100)).toBe(0)
    expect(discountPercentOf(100, 120)).toBe(0)
    expect(discountPercentOf(100, 0)).toBe(100)
  })
})

describe('paise: the exact unit every computation works in', () => {
  it('turns rupees into whole paise, half away from zero, and back', () => {
    expect(toPaise(52.5)).toBe(5250)
    expect(toPaise(0.29)).toBe(29) // 0.29 × 100 = 28.999… in binary floating point
    expect(toPaise(1.005)).toBe(101)
    expect(toPaise(-1.005)).toBe(-101)
    expect(fromPaise(5250)).toBe(52.5)
    expect(() => fromPaise(52.5)).toThrow(RangeError)
  })

  it('formats a payment amount in paise as the pages format rupees (en-IN)', () => {
    expect(formatPaise(5250)).toBe('₹52.50')
    expect(formatPaise(123456700)).toBe('₹12,34,567')
    expect(formatPaise(100001)).toBe('₹1,000.01')
    expect(formatPaise(0)).toBe('₹0')
  })

  it('writes the plain decimal of schema.org price, exact to the paisa', () => {
    expect(decimalRupees(52.5)).toBe('52.50')
    expect(decimalRupees(1234)).toBe('1234.00')
    expect(decimalRupees(0.07)).toBe('0.07')
    expect(decimalRupees(1.005)).toBe('1.01')
    expect(decimalRupees(0)).toBe('0.00')
    expect(() => decimalRupees(Number.NaN)).toThrow(RangeError)
  })
})

describe('totals of lines', () => {
  it('multiplies a unit price by a whole quantity in paise', () => {
    expect(lineAmount(0.1, 3)).toBe(0.3) // 0.1 × 3 = 0.30000000000000004 in floating point
    expect(lineAmount(19.99, 7)).toBe(139.93)
    expect(lineAmount(52.5, 0)).toBe(0)
    expect(() => lineAmount(10, 1.5)).toThrow(RangeError)
  })

  it('adds many lines exactly', () => {
    expect(sumRupees(Array.from({ length: 100 }, () => 0.1))).toBe(10)
    expect(sumRupees(Array.from({ length: 1000 }, () => 19.99))).toBe(19990)
    expect(sumRupees([0.1, 0.2])).toBe(0.3)
    expect(sumRupees([])).toBe(0)
    // A float loop drifts where the paise sum does not.
    expect(Array.from({ length: 100 }, () => 0.1).reduce((a, b) => a + b, 0)).not.toBe(10)
  })

  it('subtracts in paise', () => {
    expect(199 - 150.3).not.toBe(48.7)
    expect(subtractRupees(199, 150.3)).toBe(48.7)
    expect(subtractRupees(0.3, 0.1)).toBe(0.2)
    expect(subtractRupees(10, 12.5)).toBe(-2.5)
  })

  it("gives a line's selling and MRP totals, the MRP never below the selling total", () => {
    expect(priceTimes({ mrp: 69.75, sellingPrice: 52.33 }, 3)).toEqual({
      mrp: 209.25,
      sellingPrice: 156.99,
      discount: expect.closeTo(24.97, 2),
    })
    expect(priceTimes({ mrp: 40, sellingPrice: 45 }, 2)).toMatchObject({ mrp: 90, sellingPrice: 90, discount: 0 })
  })
})

describe('the price view: wire names in, mrp and sellingPrice out', () => {
  it("reads a product's price as the MRP and sellingPrice as the selling price", () => {
    expect(productPrice({ price: 100, sellingPrice: 90, discount: 12 })).toEqual({ mrp: 100, sellingPrice: 90, discount: 10 })
    expect(isDiscounted(productPrice({ price: 100, sellingPrice: 90 }))).toBe(true)
    expect(isDiscounted(productPrice({ price: 100, sellingPrice: 100 }))).toBe(false)
  })

  it('falls back to the MRP less the wire discount only without a selling price', () => {
    expect(productPrice({ price: 99, discount: 33 })).toEqual({ mrp: 99, sellingPrice: 66.33, discount: expect.closeTo(33, 9) })
    expect(productPrice({ price: 50 })).toEqual({ mrp: 50, sellingPrice: 50, discount: 0 })
  })

  it("reads an order line's price as the selling price paid and mrp as the MRP", () => {
    expect(orderLinePrice({ price: 45, mrp: 50 })).toEqual({ mrp: 50, sellingPrice: 45, discount: 10 })
  })
})

describe('discountToTwoPlaces (the discount an admin write sends)', () => {
  it('rounds half up to two decimals, computed in paise', () => {
    expect(discountToTwoPlaces(100, 90)).toBe(10)
    expect(discountToTwoPlaces(255, 251)).toBe(1.57) // 1.5686… %
    expect(discountToTwoPlaces(69.75, 52)).toBe(25.45) // 25.448… %
    expect(discountToTwoPlaces(3, 2)).toBe(33.33)
    expect(discountToTwoPlaces(8, 7.99)).toBe(0.13) // 0.125 % exactly: half up
  })

  it('is 0 without an MRP or a discount', () => {
    expect(discountToTwoPlaces(0, 0)).toBe(0)
    expect(discountToTwoPlaces(100, 100)).toBe(0)
    expect(discountToTwoPlaces(100, 120)).toBe(0)
  })
})
