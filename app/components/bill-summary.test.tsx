import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BillSummary } from './bill-summary.tsx'

/** A bill as the API answers it: ₹155.81 of items and ₹25 of delivery, ₹180.81 rounded to ₹181. */
const bill = {
  itemCount: 2,
  itemsTotalMrp: 300,
  productDiscount: 44.19,
  itemsTotal: 155.81,
  deliveryCharge: 25,
  freeDeliveryAbove: 199,
  roundingOff: 0.19,
  grandTotal: 181,
  totalSavings: 44.19,
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('BillSummary (docs/commerce-api.md, "Money")', () => {
  it('shows the rounding off, signed, before the whole-rupee grand total', () => {
    expect(text(renderToStaticMarkup(<BillSummary bill={bill} />))).toContain('Rounding off +₹0.19 Grand total ₹181')
    const down = text(renderToStaticMarkup(<BillSummary bill={{ ...bill, itemsTotal: 156.31, roundingOff: -0.31, grandTotal: 181 }} />))
    expect(down).toContain('Rounding off −₹0.31 Grand total ₹181')
  })

  it('has no rounding line when there was nothing to round', () => {
    const html = renderToStaticMarkup(<BillSummary bill={{ ...bill, itemsTotal: 156, roundingOff: 0, grandTotal: 181 }} />)
    expect(html).not.toContain('Rounding off')
  })

  it('tells a cart what free delivery needs, never an order', () => {
    expect(text(renderToStaticMarkup(<BillSummary bill={bill} />))).toContain('Add ₹43.19 more for FREE delivery')
    expect(renderToStaticMarkup(<BillSummary bill={bill} freeDeliveryHint={false} />)).not.toContain('more for FREE delivery')
  })

  it('shows a tip as "Delivery partner tip" before the rounding, and nothing without one (docs/commerce-api.md, "Tip and delivery instructions")', () => {
    const tipped = text(renderToStaticMarkup(<BillSummary bill={{ ...bill, tip: 20, grandTotal: 201 }} />))
    expect(tipped).toContain('Delivery charge ₹25 Delivery partner tip ₹20 Rounding off +₹0.19 Grand total ₹201')
    expect(renderToStaticMarkup(<BillSummary bill={bill} />)).not.toContain('tip')
  })

  it('shows a coupon as "Coupon (CODE)" taken off, and nothing without one (docs/offers.md, "Applying a code")', () => {
    const coupon = { ...bill, couponCode: 'WELCOME50', couponDiscount: 50, roundingOff: 0.19, grandTotal: 131, totalSavings: 94.19 }
    expect(text(renderToStaticMarkup(<BillSummary bill={coupon} />))).toContain('Product discount −₹44.19 Coupon (WELCOME50) −₹50')
    expect(renderToStaticMarkup(<BillSummary bill={bill} />)).not.toContain('Coupon')
  })
})
