/**
 * The checkout form's tip and instructions (app/lib/schemas/checkout.ts) and the bill with a tip
 * (contract/tip.ts `billWithTip`): presets, "Other" amounts in whole rupees up to ₹200, the chips
 * and a one-line note; bad ones refused on their field.
 */
import { describe, expect, it } from 'vitest'
import { billWithTip } from '../../../contract/tip.ts'
import { PlaceOrderFormSchema, tipChoiceOf } from './checkout.ts'

const base = { addressId: '0123456789abcdef01234567', idempotencyKey: 'key-0123456789' }

describe('the place-order form with a tip and instructions', () => {
  it('reads a preset, "Other" and none; the chips and a note (line breaks become spaces)', () => {
    expect(PlaceOrderFormSchema.parse({ ...base, tip: '20', chips: ['leave_at_door'], note: ' Gate\r\n4521 ' })).toMatchObject({
      tipRupees: 20,
      deliveryInstructions: { chips: ['leave_at_door'], note: 'Gate 4521' },
    })
    expect(PlaceOrderFormSchema.parse({ ...base, tip: 'other', tipOther: '45' }).tipRupees).toBe(45)
    expect(PlaceOrderFormSchema.parse({ ...base }).tipRupees).toBe(0)
  })

  it('refuses a bad "Other" amount on tipOther and a long note on note', () => {
    for (const other of ['0', '201', '10.5', '', 'abc']) {
      const r = PlaceOrderFormSchema.safeParse({ ...base, tip: 'other', tipOther: other })
      expect(r.success, other).toBe(false)
      expect(r.error!.issues[0]!.path).toEqual(['tipOther'])
    }
    const long = PlaceOrderFormSchema.safeParse({ ...base, note: 'x'.repeat(121) })
    expect(long.error!.issues[0]!.path).toEqual(['note'])
    expect(PlaceOrderFormSchema.safeParse({ ...base, chips: ['shout'] }).error!.issues[0]!.path).toEqual(['chips'])
    expect(PlaceOrderFormSchema.safeParse({ ...base, tip: '15' }).success).toBe(false)
  })

  it('preselects the radio of a remembered tip', () => {
    expect([0, 10, 20, 30, 45].map(tipChoiceOf)).toEqual(['0', '10', '20', '30', 'other'])
  })

  it('billWithTip replaces the tip in the grand total, to the paisa', () => {
    const bill = { grandTotal: 170, roundingOff: 0.4 }
    expect(billWithTip(bill, 20)).toEqual({ grandTotal: 190, roundingOff: 0.4, tip: 20 })
    expect(billWithTip({ grandTotal: 190, tip: 20 }, 0)).toEqual({ grandTotal: 170 })
    expect(billWithTip({ grandTotal: 1234.56, tip: 30 }, 10)).toEqual({ grandTotal: 1214.56, tip: 10 })
  })
})
