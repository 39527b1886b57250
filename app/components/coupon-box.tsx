/**
 * The coupon field and the offers the basket qualifies for (docs/offers.md, "Applying a code"): a
 * plain POST form (works without JavaScript) to the page's action with `intent` "coupon-apply" (the
 * code) or "coupon-remove"; the reason a code does not apply is shown on the field. The offers list
 * says for each active coupon whether it applies, and "Add ₹x more to unlock …" for the nearest one.
 * Amounts are rupees as the API computed them.
 */
import { Form } from 'react-router'
import { COUPON_FIELD_MAX, unlockWords, type CartCoupon, type Offer } from '../../contract/coupon.ts'
import { formatRupees } from '../lib/money.ts'

/** Intents of the coupon forms, read by the page's action. */
export const COUPON_APPLY_INTENT = 'coupon-apply'
export const COUPON_REMOVE_INTENT = 'coupon-remove'

/**
 * The box: the applied code (with Remove) or the field, its error (`error`, the API's reason) under
 * it with the code typed kept (`typed`), and the offers.
 */
export function CouponBox({
  action,
  coupon,
  offers,
  error,
  typed,
}: {
  action: string
  coupon: CartCoupon | null
  offers: Offer[]
  error: string | null
  typed: string
}) {
  const nearest = offers.find((o) => o.nearest)
  return (
    <section aria-labelledby="coupon-title" data-card="coupon" className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
      <h2 id="coupon-title" className="mb-2 font-bold text-slate-900">
        Coupons and offers
      </h2>
      {coupon ? (
        <div data-testid="coupon-applied" className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-lg bg-emerald-50 p-2">
          <p className="min-w-0 break-words">
            <span className="font-semibold">{coupon.code}</span>{' '}
            {coupon.applied ? (
              <span className="text-green-800">applied: −{formatRupees(coupon.discount)}</span>
            ) : (
              <span className="text-red-700">not applied: {coupon.reason}</span>
            )}
          </p>
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value={COUPON_REMOVE_INTENT} />
            <button type="submit" className="font-semibold text-accent hover:underline">
              Remove
            </button>
          </Form>
        </div>
      ) : null}
      <Form method="post" action={action} className="flex flex-wrap items-start gap-2" noValidate>
        <input type="hidden" name="intent" value={COUPON_APPLY_INTENT} />
        <label htmlFor="coupon-code" className="sr-only">
          Coupon code
        </label>
        <input
          id="coupon-code"
          name="code"
          defaultValue={typed}
          maxLength={COUPON_FIELD_MAX}
          autoCapitalize="characters"
          autoComplete="off"
          placeholder="Enter coupon code"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'coupon-code-error' : undefined}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 uppercase"
        />
        <button type="submit" className="rounded-lg bg-accent px-4 py-2 font-semibold text-white">
          Apply
        </button>
        {error ? (
          <p id="coupon-code-error" role="alert" className="w-full text-red-700">
            {error}
          </p>
        ) : null}
      </Form>
      {nearest && nearest.addMore !== null ? (
        <p data-testid="coupon-unlock" className="mt-3 font-semibold text-amber-800">
          {unlockWords(nearest)} with {nearest.code}
        </p>
      ) : null}
      {offers.length > 0 ? (
        <ul aria-label="Offers" className="mt-3 grid gap-2">
          {offers.map((offer) => (
            <li key={offer.code} className="rounded-lg border border-slate-200 p-2 break-words">
              <span className="font-semibold">{offer.code}</span>: {offer.off}
              {offer.description ? <span className="block text-slate-600">{offer.description}</span> : null}
              <span className={`block ${offer.applies ? 'text-green-800' : 'text-slate-600'}`}>
                {offer.applies ? `Applies: saves ${formatRupees(offer.discount)}` : offer.reason}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
