import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { billToWire, computeBill, roundToRupee } from './bill.ts'

const settings = { deliveryChargePaise: 2500, freeDeliveryAbovePaise: 19900 }

describe('computeBill', () => {
  it('charges delivery below the free threshold and not from it', () => {
    const below = computeBill([{ quantity: 2, sellingPaise: 9949, mrpPaise: 12000 }], settings)
    expect(below).toEqual({
      itemCount: 2,
      itemsTotalMrpPaise: 24000,
      itemsTotalPaise: 19898,
      deliveryChargePaise: 2500,
      roundingPaise: 2,
      grandTotalPaise: 22400,
    })
    const at = computeBill([{ quantity: 1, sellingPaise: 19900, mrpPaise: 19900 }], settings)
    expect(at.deliveryChargePaise).toBe(0)
    expect(at.grandTotalPaise).toBe(19900)
  })

  it('charges nothing for an empty cart', () => {
    expect(computeBill([], settings)).toEqual({
      itemCount: 0,
      itemsTotalMrpPaise: 0,
      itemsTotalPaise: 0,
      deliveryChargePaise: 0,
      roundingPaise: 0,
      grandTotalPaise: 0,
    })
  })

  it('rounds the cash to collect to the nearest rupee, 50 paise upwards', () => {
    expect(roundToRupee(25581)).toEqual({ grandTotalPaise: 25600, roundingPaise: 19 })
    expect(roundToRupee(25549)).toEqual({ grandTotalPaise: 25500, roundingPaise: -49 })
    expect(roundToRupee(25550)).toEqual({ grandTotalPaise: 25600, roundingPaise: 50 })
    expect(roundToRupee(25500)).toEqual({ grandTotalPaise: 25500, roundingPaise: 0 })
    expect(roundToRupee(0)).toEqual({ grandTotalPaise: 0, roundingPaise: 0 })
    expect(roundToRupee(49)).toEqual({ grandTotalPaise: 0, roundingPaise: -49 })
  })

  it('is exact: the grand total is the sum of quantity × unit paise plus delivery, rounded to the rupee', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quantity: fc.integer({ min: 1, max: 12 }),
            sellingPaise: fc.integer({ min: 0, max: 10_000_00 }),
            extra: fc.integer({ min: 0, max: 5000 }),
          }),
        ),
        (raw) => {
          const lines = raw.map((l) => ({ quantity: l.quantity, sellingPaise: l.sellingPaise, mrpPaise: l.sellingPaise + l.extra }))
          const bill = computeBill(lines, settings)
          const items = lines.reduce((sum, l) => sum + l.quantity * l.sellingPaise, 0)
          expect(bill.itemsTotalPaise).toBe(items)
          expect(bill.grandTotalPaise).toBe(items + bill.deliveryChargePaise + bill.roundingPaise)
          expect(bill.grandTotalPaise % 100).toBe(0)
          expect(bill.roundingPaise).toBeGreaterThanOrEqual(-49)
          expect(bill.roundingPaise).toBeLessThanOrEqual(50)
        },
      ),
    )
  })
})

describe('billToWire', () => {
  it('gives rupees and counts the delivery saved as savings when free', () => {
    const wire = billToWire(computeBill([{ quantity: 3, sellingPaise: 7000, mrpPaise: 8000 }], settings), settings)
    expect(wire).toEqual({
      itemCount: 3,
      itemsTotalMrp: 240,
      productDiscount: 30,
      itemsTotal: 210,
      deliveryCharge: 0,
      freeDeliveryAbove: 199,
      roundingOff: 0,
      grandTotal: 210,
      totalSavings: 55,
    })
  })

  it('gives the rounding off in rupees, signed', () => {
    const up = billToWire(computeBill([{ quantity: 1, sellingPaise: 25581, mrpPaise: 30000 }], settings), settings)
    expect(up).toMatchObject({ itemsTotal: 255.81, roundingOff: 0.19, grandTotal: 256 })
    const down = billToWire(computeBill([{ quantity: 1, sellingPaise: 25531, mrpPaise: 30000 }], settings), settings)
    expect(down).toMatchObject({ itemsTotal: 255.31, roundingOff: -0.31, grandTotal: 255 })
  })
})
