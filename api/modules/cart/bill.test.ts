import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { billToWire, computeBill, computeFees, feesTotalPaise, isLateNight, istMinuteOfDay, roundToRupee } from './bill.ts'

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

describe('named fees (docs/commerce-api.md, "Fees")', () => {
  const fees = {
    handlingChargePaise: 200,
    smallCartFeePaise: 2000,
    smallCartBelowPaise: 9900,
    lateNightSurchargePaise: 1500,
    lateNightHours: { startMinute: 23 * 60, endMinute: 5 * 60 },
  }
  const withFees = { ...settings, fees }
  // IST is UTC+05:30: 12:00 IST is 06:30 UTC.
  const ist = (hh: number, mm: number, day = 10) => new Date(Date.UTC(2026, 10, day, hh, mm) - 330 * 60_000)
  const noon = ist(12, 0)
  const line = (paise: number) => [{ quantity: 1, sellingPaise: paise, mrpPaise: paise }]

  it('reads the store clock in IST, whatever the server zone', () => {
    expect(istMinuteOfDay(new Date('2026-11-10T17:30:00Z'))).toBe(23 * 60)
    expect(istMinuteOfDay(new Date('2026-11-10T18:29:00Z'))).toBe(23 * 60 + 59)
    expect(istMinuteOfDay(new Date('2026-11-10T18:30:00Z'))).toBe(0)
    expect(istMinuteOfDay(noon)).toBe(12 * 60)
  })

  it('the late-night window crosses midnight: from 23:00 inclusive to 05:00 exclusive', () => {
    const h = fees.lateNightHours
    expect(isLateNight(ist(22, 59), h)).toBe(false)
    expect(isLateNight(ist(23, 0), h)).toBe(true)
    expect(isLateNight(ist(23, 59), h)).toBe(true)
    expect(isLateNight(ist(0, 0), h)).toBe(true)
    expect(isLateNight(ist(4, 59), h)).toBe(true)
    expect(isLateNight(ist(5, 0), h)).toBe(false)
    expect(isLateNight(noon, h)).toBe(false)
    // A window inside one day, and an empty one.
    expect(isLateNight(ist(1, 0), { startMinute: 60, endMinute: 120 })).toBe(true)
    expect(isLateNight(ist(2, 0), { startMinute: 60, endMinute: 120 })).toBe(false)
    expect(isLateNight(ist(0, 59), { startMinute: 60, endMinute: 120 })).toBe(false)
    expect(isLateNight(ist(23, 0), { startMinute: 0, endMinute: 0 })).toBe(false)
  })

  it('charges the small cart fee below the threshold only (items total before any coupon)', () => {
    expect(computeFees(1, 9899, fees, noon)).toEqual({ handlingChargePaise: 200, smallCartFeePaise: 2000, lateNightFeePaise: 0 })
    expect(computeFees(1, 9900, fees, noon).smallCartFeePaise).toBe(0)
    // A coupon that takes the items total below ₹99 does not add the fee: it reads the items total.
    const coupon = computeBill(line(15000), withFees, { code: 'WELCOME50', discountPaise: 6000 }, 0, noon)
    expect(coupon.smallCartFeePaise).toBeUndefined()
    expect(coupon.grandTotalPaise).toBe(15000 + 2500 + 200 - 6000)
  })

  it('adds every fee before rounding, each its own field, and none to an empty cart', () => {
    const night = computeBill(line(5049), withFees, undefined, 2000, ist(23, 30))
    expect(night).toEqual({
      itemCount: 1,
      itemsTotalMrpPaise: 5049,
      itemsTotalPaise: 5049,
      deliveryChargePaise: 2500,
      handlingChargePaise: 200,
      smallCartFeePaise: 2000,
      lateNightFeePaise: 1500,
      tipPaise: 2000,
      // 50.49 + 25 + 2 + 20 + 15 + 20 (tip) = 132.49 → 132: the fees are rounded with the rest.
      roundingPaise: -49,
      grandTotalPaise: 13200,
    })
    expect(feesTotalPaise(night)).toBe(3700)
    expect(computeBill([], withFees, undefined, 0, ist(23, 30))).toEqual(computeBill([], settings))
  })

  it('each fee configured 0 is off; without `fees` none is charged', () => {
    const off = { ...settings, fees: { ...fees, handlingChargePaise: 0, smallCartFeePaise: 0, lateNightSurchargePaise: 0 } }
    expect(computeBill(line(5000), off, undefined, 0, ist(23, 30))).toEqual(computeBill(line(5000), settings))
    expect(feesTotalPaise(computeBill(line(5000), settings, undefined, 0, ist(23, 30)))).toBe(0)
  })

  it('the wire names each charged fee, the rules only on a live bill', () => {
    const night = computeBill(line(5000), withFees, undefined, 0, ist(0, 30))
    const live = billToWire(night, withFees)
    expect(live).toMatchObject({ handlingCharge: 2, smallCartFee: 20, smallCartBelow: 99, lateNightFee: 15, lateNightHours: '23:00-05:00' })
    expect(live.grandTotal).toBe(50 + 25 + 2 + 20 + 15)
    const stored = billToWire(night, withFees, false)
    expect(stored).toMatchObject({ handlingCharge: 2, smallCartFee: 20, lateNightFee: 15 })
    expect(stored.smallCartBelow).toBeUndefined()
    expect(stored.lateNightHours).toBeUndefined()
    // No fee: no key (the original client's bill is unchanged).
    const day = billToWire(
      computeBill(line(20000), { ...withFees, fees: { ...fees, handlingChargePaise: 0 } }, undefined, 0, noon),
      withFees,
    )
    expect(day).not.toHaveProperty('handlingCharge')
    expect(day).not.toHaveProperty('smallCartFee')
    expect(day).not.toHaveProperty('lateNightFee')
  })
})
