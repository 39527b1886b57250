/**
 * api/lib/money.ts: the selling price from an MRP and a discount (exact to the paisa for any
 * discount of up to ten decimals), and the `discount` every product answers, checked over the whole
 * bundled catalogue (8,208 products) and across the MRP range: the original single-page client's
 * price arithmetic lands within ₹0.50 of our selling price (docs/commerce-api.md, "The discount on
 * the wire").
 */
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PRICE_MAX } from '../../contract/product.ts'
import { BUNDLED_CATALOG_CSV } from '../db/seed/ensure.ts'
import { parseCatalogCsv } from '../db/seed/import-catalog.ts'
import { DISCOUNT_DECIMALS_MAX, sellingPaiseFromDiscount, toPaise, wireDiscount } from './money.ts'

/**
 * The price the original client shows for `price` and `discount` as the API answers them: its
 * `pricewithDiscount` takes `Math.ceil(price × discount / 100)` whole rupees off the MRP.
 */
const originalClientPrice = (price: number, discount: number) => price - Math.ceil((Number(price) * Number(discount)) / 100)
/** The textbook reading of the two fields: MRP × (1 − discount / 100). */
const plainPrice = (price: number, discount: number) => price * (1 - discount / 100)

/** Decimal places of a number as JSON writes it. */
const decimals = (n: number) => {
  const [mantissa, exponent = '0'] = String(n).split('e')
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent))
}

/** Checks one product (prices in paise) and answers how far each client's price is from ours, in rupees. */
function check(mrpPaise: number, sellingPaise: number) {
  const price = mrpPaise / 100
  const selling = sellingPaise / 100
  const discount = wireDiscount(mrpPaise, sellingPaise)
  expect(discount).toBeGreaterThanOrEqual(0)
  expect(discount).toBeLessThanOrEqual(100)
  expect(decimals(discount)).toBeLessThanOrEqual(DISCOUNT_DECIMALS_MAX)
  const original = Math.abs(originalClientPrice(price, discount) - selling)
  const plain = Math.abs(plainPrice(price, discount) - selling)
  return { discount, original, plain }
}

describe('sellingPaiseFromDiscount', () => {
  it('rounds MRP × (1 − discount / 100) half up to the paisa', () => {
    expect(sellingPaiseFromDiscount(28900, 10)).toBe(26010)
    expect(sellingPaiseFromDiscount(9900, 33)).toBe(6633)
    expect(sellingPaiseFromDiscount(29, 50)).toBe(15) // 14.5 paise rounds up
    expect(sellingPaiseFromDiscount(10000, 0)).toBe(10000)
    expect(sellingPaiseFromDiscount(10000, 100)).toBe(0)
    expect(sellingPaiseFromDiscount(10000, 150)).toBe(0)
    expect(sellingPaiseFromDiscount(10000, -5)).toBe(10000)
  })

  it('is exact for a ten-decimal discount of a crore', () => {
    // 1,00,00,000.00 × (1 − 0.123456789012) = 87,65,43,210.988 paise → 87,65,43,211.
    expect(sellingPaiseFromDiscount(1_000_000_000, 12.3456789012)).toBe(876_543_211)
  })
})

describe('wireDiscount', () => {
  it('is 0 without a discount of at least 50 paise', () => {
    expect(wireDiscount(10000, 10000)).toBe(0)
    expect(wireDiscount(10000, 12000)).toBe(0)
    expect(wireDiscount(0, 0)).toBe(0)
    expect(wireDiscount(10000, 9951)).toBe(0)
  })

  it('keeps whole and two-decimal discounts as they are', () => {
    expect(wireDiscount(10000, 9000)).toBe(10)
    expect(wireDiscount(28900, 26010)).toBe(10)
    expect(wireDiscount(20000, 17500)).toBe(12.5)
    expect(wireDiscount(10000, 0)).toBe(100)
  })

  it('gives Amul Butter 500 g (MRP ₹251, selling price ₹249.90) a discount that shows ₹250 in the original client', () => {
    const { discount, original, plain } = check(25100, 24990)
    expect(originalClientPrice(251, discount)).toBe(250)
    expect(original).toBeCloseTo(0.1, 9)
    expect(plain).toBeLessThanOrEqual(0.5)
  })

  it('lands within ₹0.50 of the selling price for every product of the bundled catalogue, in both readings', () => {
    const rows = parseCatalogCsv(fs.readFileSync(BUNDLED_CATALOG_CSV))
    expect(rows).toHaveLength(8208)
    let worstOriginal = 0
    let worstPlain = 0
    for (const row of rows) {
      // As the import stores them: numeric(12, 2) rupees (api/db/schema.ts).
      const mrpPaise = toPaise(row.mrp)
      const sellingPaise = toPaise(row.sellingPrice)
      const { discount, original, plain } = check(mrpPaise, sellingPaise)
      worstOriginal = Math.max(worstOriginal, original)
      worstPlain = Math.max(worstPlain, plain)
      // An amount off that is not rounded down to a whole rupee is met to the paisa, and a write
      // of that discount back (the original client's edit form) gives the same selling price.
      if ((mrpPaise - sellingPaise) % 100 === 0 || (mrpPaise - sellingPaise) % 100 >= 50) {
        expect(Math.round(plainPrice(mrpPaise / 100, discount) * 100)).toBe(sellingPaise)
        expect(sellingPaiseFromDiscount(mrpPaise, discount)).toBe(sellingPaise)
      }
    }
    expect(worstOriginal).toBeLessThanOrEqual(0.5 + 1e-9)
    expect(worstPlain).toBeLessThanOrEqual(0.5 + 1e-9)
  })

  it('lands within ₹0.50 across the whole MRP range, up to a crore', () => {
    // A fixed pseudo-random walk (xorshift), so a failure names a reproducible pair.
    let state = 0x2545f491
    const next = () => {
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      return (state >>> 0) / 2 ** 32
    }
    const maxPaise = PRICE_MAX * 100
    for (let i = 0; i < 20_000; i++) {
      // Spread over the orders of magnitude: ₹0.01 to ₹1 crore.
      const mrpPaise = Math.max(1, Math.min(maxPaise, Math.round(10 ** (next() * Math.log10(maxPaise)))))
      const sellingPaise = Math.floor(next() * (mrpPaise + 1))
      const { discount, original, plain } = check(mrpPaise, sellingPaise)
      const offPaise = mrpPaise - sellingPaise
      const toThePaisa = offPaise % 100 === 0 || offPaise % 100 >= 50
      const shown = Math.round(plainPrice(mrpPaise / 100, discount) * 100)
      if (original > 0.5 + 1e-9 || plain > 0.5 + 1e-9 || (toThePaisa && shown !== sellingPaise)) {
        expect({ mrpPaise, sellingPaise, discount, original, plain }).toBeNull()
      }
    }
  })
})
