/**
 * The bill of a cart, a checkout or an order (docs/commerce-api.md, "Cart"): items total at MRP,
 * product discount, the coupon's discount ("Coupon (WELCOME50)", docs/offers.md, "Applying a code"),
 * delivery charge ("FREE" when the order value reaches the free-delivery amount), "Delivery partner
 * tip" when there is one (docs/commerce-api.md, "Tip and delivery instructions"),
 * "Rounding off" when the API rounded the cash to collect to the rupee (docs/commerce-api.md,
 * "Money"), grand total, and "Your total savings". Amounts are rupees as the API computed them;
 * nothing is added up here (the server's bill is the only one).
 */
import type { Bill } from '../.server/api/cart.ts'
import { formatRupees, subtractRupees } from '../lib/money.ts'

/** A signed amount of the rounding off: "+₹0.19", "−₹0.31" (a true minus sign). */
function signedRupees(amount: number): string {
  return `${amount < 0 ? '−' : '+'}${formatRupees(Math.abs(amount))}`
}

/**
 * The bill table; `title` heads it ("Bill details" by default). `freeDeliveryHint` (default true)
 * shows "Add ₹… more for FREE delivery" below the free-delivery amount: a cart's, never an order's.
 */
export function BillSummary({
  bill,
  title = 'Bill details',
  headingLevel = 2,
  freeDeliveryHint = true,
}: {
  bill: Bill
  title?: string
  headingLevel?: 2 | 3
  freeDeliveryHint?: boolean
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const freeDelivery = bill.itemCount > 0 && bill.deliveryCharge === 0
  const toFree = subtractRupees(bill.freeDeliveryAbove, bill.itemsTotal)
  return (
    <section aria-label={title} data-card="bill" className="rounded-xl border border-slate-200 bg-white p-4">
      <Heading className="mb-2 text-base font-bold text-slate-900">{title}</Heading>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm text-slate-700">
        <dt>Items total (MRP)</dt>
        <dd className="text-right">{formatRupees(bill.itemsTotalMrp)}</dd>
        {bill.productDiscount > 0 ? (
          <>
            <dt>Product discount</dt>
            <dd className="text-right text-green-700">−{formatRupees(bill.productDiscount)}</dd>
          </>
        ) : null}
        {bill.couponCode && bill.couponDiscount ? (
          <>
            <dt>Coupon ({bill.couponCode})</dt>
            <dd className="text-right text-green-700" data-testid="coupon-discount">
              −{formatRupees(bill.couponDiscount)}
            </dd>
          </>
        ) : null}
        <dt>Delivery charge</dt>
        <dd className="text-right">
          {freeDelivery ? <span className="font-semibold text-green-700">FREE</span> : formatRupees(bill.deliveryCharge)}
        </dd>
        {bill.tip ? (
          <>
            <dt>Delivery partner tip</dt>
            <dd className="text-right" data-testid="tip">
              {formatRupees(bill.tip)}
            </dd>
          </>
        ) : null}
        {bill.roundingOff ? (
          <>
            <dt>Rounding off</dt>
            <dd className="text-right" data-testid="rounding-off">
              {signedRupees(bill.roundingOff)}
            </dd>
          </>
        ) : null}
        <dt className="border-t border-slate-200 pt-2 font-bold text-slate-900">Grand total</dt>
        <dd className="border-t border-slate-200 pt-2 text-right font-bold text-slate-900">{formatRupees(bill.grandTotal)}</dd>
      </dl>
      {bill.totalSavings > 0 ? (
        <p className="mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm font-semibold text-green-800">
          Your total savings {formatRupees(bill.totalSavings)}
        </p>
      ) : null}
      {freeDeliveryHint && bill.itemCount > 0 && !freeDelivery && toFree > 0 ? (
        <p className="mt-2 text-xs text-slate-600">Add {formatRupees(toFree)} more for FREE delivery</p>
      ) : null}
    </section>
  )
}
