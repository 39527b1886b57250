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
    expect(tipped).toContain('or more. ₹25 Delivery partner tip ₹20 Rounding off +₹0.19 Grand total ₹201')
    expect(renderToStaticMarkup(<BillSummary bill={bill} />)).not.toContain('tip')
  })

  it('shows a coupon as "Coupon (CODE)" taken off, and nothing without one (docs/offers.md, "Applying a code")', () => {
    const coupon = { ...bill, couponCode: 'WELCOME50', couponDiscount: 50, roundingOff: 0.19, grandTotal: 131, totalSavings: 94.19 }
    expect(text(renderToStaticMarkup(<BillSummary bill={coupon} />))).toContain('Product discount −₹44.19 Coupon (WELCOME50) −₹50')
    expect(renderToStaticMarkup(<BillSummary bill={bill} />)).not.toContain('Coupon')
  })

  it('shows each named fee charged with an info note that opens without JavaScript, after the delivery charge (docs/commerce-api.md, "Fees")', () => {
    const fees = {
      ...bill,
      handlingCharge: 2,
      smallCartFee: 20,
      smallCartBelow: 199.5,
      lateNightFee: 15,
      lateNightHours: '23:00-05:00',
      grandTotal: 218,
    }
    const html = renderToStaticMarkup(<BillSummary bill={fees} />)
    const t = text(html)
    expect(t).toContain('Handling charge A flat charge on every order for picking and packing your items at the store. ₹2')
    expect(t).toContain('Small cart fee Charged when the items total is below ₹199.50. Add ₹43.69 more to remove it. ₹20')
    expect(t).toContain('Late night fee Charged on orders placed between 23:00 and 05:00, when fewer delivery partners are out. ₹15')
    expect(t.indexOf('Delivery charge')).toBeLessThan(t.indexOf('Handling charge'))
    expect(t.indexOf('Late night fee')).toBeLessThan(t.indexOf('Grand total'))
    // A <details> per line: the delivery charge and the three fees.
    expect(html.match(/<details/g)).toHaveLength(4)
    // A placed order's bill (no rules): what it was charged for.
    const order = text(
      renderToStaticMarkup(<BillSummary bill={{ ...bill, smallCartFee: 20, lateNightFee: 15 }} freeDeliveryHint={false} />),
    )
    expect(order).toContain('Charged because the items total was below the minimum order value.')
    expect(order).toContain('Charged because the order was placed late at night')
    // None charged: no line.
    expect(renderToStaticMarkup(<BillSummary bill={bill} />)).not.toMatch(/Handling charge|Small cart fee|Late night fee/)
  })
})
