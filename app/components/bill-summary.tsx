/**
 * The bill of a cart, a checkout or an order (docs/commerce-api.md, "Cart"): items total at MRP,
 * product discount, the coupon's discount ("Coupon (WELCOME50)", docs/offers.md, "Applying a code"),
 * delivery charge ("FREE" when the order value reaches the free-delivery amount), "Delivery partner
 * tip" when there is one (docs/commerce-api.md, "Tip and delivery instructions"),
 * "Rounding off" when the API rounded the cash to collect to the rupee (docs/commerce-api.md,
 * "Money"), grand total, and "Your total savings". Amounts are rupees as the API computed them;
 * nothing is added up here (the server's bill is the only one). The delivery charge and each named
 * fee charged (handling charge, small cart fee, late night fee: docs/commerce-api.md, "Fees") carry
 * an info note saying what it is: a <details> disclosure on the line's name, so it opens without
 * JavaScript and reads as a button to a screen reader.
 */
import type { ReactNode } from 'react'
import type { Bill } from '../.server/api/cart.ts'
import { formatRupees, subtractRupees } from '../lib/money.ts'

/** A signed amount of the rounding off: "+₹0.19", "−₹0.31" (a true minus sign). */
function signedRupees(amount: number): string {
  return `${amount < 0 ? '−' : '+'}${formatRupees(Math.abs(amount))}`
}

/** What the delivery charge is: free from the free-delivery amount (docs/commerce-api.md, "Cart"). */
export function deliveryNote(bill: Pick<Bill, 'freeDeliveryAbove'>): string {
  return `The rider's trip to your door. Free when the items total is ${formatRupees(bill.freeDeliveryAbove)} or more.`
}

/**
 * The named fees a bill charges, in the bill's order: key, name, amount (rupees) and what it is
 * (docs/commerce-api.md, "Fees"). A cart's bill says its rule (`smallCartBelow`, `lateNightHours`);
 * a placed order's says what it was charged for.
 */
export function billFees(bill: Bill): { key: 'handling' | 'small-cart' | 'late-night'; name: string; amount: number; note: string }[] {
  const fees: ReturnType<typeof billFees> = []
  if (bill.handlingCharge)
    fees.push({
      key: 'handling',
      name: 'Handling charge',
      amount: bill.handlingCharge,
      note: 'A flat charge on every order for picking and packing your items at the store.',
    })
  if (bill.smallCartFee) {
    const toRemove = bill.smallCartBelow ? subtractRupees(bill.smallCartBelow, bill.itemsTotal) : 0
    fees.push({
      key: 'small-cart',
      name: 'Small cart fee',
      amount: bill.smallCartFee,
      note: bill.smallCartBelow
        ? `Charged when the items total is below ${formatRupees(bill.smallCartBelow)}.${toRemove > 0 ? ` Add ${formatRupees(toRemove)} more to remove it.` : ''}`
        : 'Charged because the items total was below the minimum order value.',
    })
  }
  if (bill.lateNightFee)
    fees.push({
      key: 'late-night',
      name: 'Late night fee',
      amount: bill.lateNightFee,
      note: bill.lateNightHours
        ? `Charged on orders placed between ${bill.lateNightHours.replace('-', ' and ')}, when fewer delivery partners are out.`
        : 'Charged because the order was placed late at night, when fewer delivery partners are out.',
    })
  return fees
}

/** A bill line's name with its info note: a disclosure that opens without JavaScript. */
function NamedLine({ name, note, fee }: { name: string; note: string; fee: string }): ReactNode {
  return (
    <details className="group" data-fee-note={fee}>
      <summary className="cursor-pointer list-none underline decoration-dotted underline-offset-2 [&::-webkit-details-marker]:hidden">
        {name}
        <svg aria-hidden="true" viewBox="0 0 16 16" className="ml-1 inline-block h-3.5 w-3.5 align-[-2px] text-slate-500">
          <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M8 7v4.5M8 4.6v.1" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
        </svg>
      </summary>
      <p className="mt-1 text-xs text-slate-600">{note}</p>
    </details>
  )
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
        <dt>
          <NamedLine name="Delivery charge" note={deliveryNote(bill)} fee="delivery" />
        </dt>
        <dd className="text-right">
          {freeDelivery ? <span className="font-semibold text-green-700">FREE</span> : formatRupees(bill.deliveryCharge)}
        </dd>
        {billFees(bill).map((fee) => (
          <FeeRow key={fee.key} fee={fee} />
        ))}
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

/** One named fee: its name with the info note, and its amount. */
function FeeRow({ fee }: { fee: ReturnType<typeof billFees>[number] }) {
  return (
    <>
      <dt data-fee={fee.key}>
        <NamedLine name={fee.name} note={fee.note} fee={fee.key} />
      </dt>
      <dd className="text-right" data-fee-amount={fee.key}>
        {formatRupees(fee.amount)}
      </dd>
    </>
  )
}
