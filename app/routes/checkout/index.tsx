/**
 * /checkout (docs/commerce-api.md, "Orders"): signed in only (a visitor goes through
 * `/login?redirectTo=/checkout`). The shopper picks one of their addresses (or adds one inline,
 * `?add-address=1`), sees the lines and the bill, and places a Cash on Delivery order.
 *
 * Coupons (docs/offers.md, "Applying a code"): the coupon field and the offers above the bill
 * (app/components/coupon-box.tsx); the form posts the coupon discount it showed, and a placement
 * refused because it changed (409) shows the message and the bill as it now is.
 *
 * Tip and delivery instructions (docs/commerce-api.md, "Tip and delivery instructions";
 * app/components/tip-and-instructions.tsx): inside the place-order form, the tip preselected with the
 * shopper's last one; the bill shows the tip and the form posts it as `shownTip`. With JavaScript the
 * bill follows the chosen tip at once; without it a tip changed since the bill was drawn comes back
 * as the API's 409 with the bill that has it, and the next press places the order.
 *
 * The form carries an idempotency key made when the page was rendered, so a double click, a refresh
 * or a retry after a dropped connection places exactly one order. The server prices everything: if a
 * price changed or a line ran short since it was added, nothing is ordered, the cart is corrected and
 * the page lists what changed. Success goes to /success with the order number.
 *
 * The dark store (docs/stores.md, "Shopper pages"): each address says "Delivery in N minutes" when
 * the shopper's store serves its PIN code, else that the store does not deliver there, with a link
 * to change the delivery location (GET /api/location/resolve per PIN code).
 *
 * Payment (docs/payments.md): UPI, card, netbanking or wallet make the order wait for its payment,
 * its items held, and go to /checkout/pay/:orderId where the provider's checkout opens; cash on
 * delivery places it at once. A closed store, or a
 * location no store serves, shows its message instead of "Place Order". The API still decides at
 * placement: its 422 (an address outside the store's area, the store closed) comes back as the
 * form's error, inline and as a toast, with the same link.
 *
 * An account without a name (made by phone sign-in) sees "Add your name" above the addresses, never
 * blocking the order (app/components/add-name-prompt.tsx; docs/decisions/0054-phone-sign-in-pages.md).
 */
import { randomUUID } from 'node:crypto'
import { data, Form, Link, redirect } from 'react-router'
import type { Route } from './+types/index'
import { failureInit, throwFailure } from '../../.server/failure.ts'
import * as addressApi from '../../.server/api/address.ts'
import { applyCoupon, getCartForLoaders, getOffers, removeCoupon } from '../../.server/api/cart.ts'
import { checkoutPreferences, placeCashOnDeliveryOrder } from '../../.server/api/order.ts'
import { startPayment } from '../../.server/api/payment.ts'
import { PAYMENT_CALLBACK_PATH } from '../../.server/csrf.ts'
import { env } from '../../.server/env.ts'
import { resolvePincodes, type PincodeService } from '../../.server/api/location-resolve.ts'
import { saveAddressFromForm } from '../../.server/address-form.ts'
import { requireUser } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { readForm } from '../../.server/form.ts'
import { clientIp } from '../../.server/request.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { handleNamePrompt, showsNamePrompt } from '../../.server/name-prompt.ts'
import { AddNamePrompt } from '../../components/add-name-prompt.tsx'
import { AddressForm } from '../../components/address-form.tsx'
import { AddressLabelTag } from '../../components/address-label.tsx'
import { ADD_NAME_INTENT } from '../../lib/schemas/phone.ts'
import { BillSummary, billFees } from '../../components/bill-summary.tsx'
import { COUPON_APPLY_INTENT, COUPON_REMOVE_INTENT, CouponBox } from '../../components/coupon-box.tsx'
import { ApplyCouponSchema } from '../../../contract/coupon.ts'
import type { Bill } from '../../../contract/cart.ts'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { ErrorList, SubmitButton, useIsPending, type FormReplyData } from '../../components/forms.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { useIsStale } from '../../components/use-stale-reply.ts'
import { ToastNotice } from '../../components/toasts.tsx'
import { useShopperLocation } from '../../components/use-shopper-location.ts'
import { addressVerdict, changeLocationHref, deliveryInLabel, isDeliverable } from '../../lib/delivery.ts'
import type { ShopperLocation } from '../../lib/location.ts'
import { itemCountLabel } from '../../lib/cart.ts'
import { brandOf } from '../../lib/catalog-cards.ts'
import { formatRupees, lineAmount, sumRupees } from '../../lib/money.ts'
import { addressDefaultsFromLocation, addressLine } from '../../lib/schemas/address.ts'
import { PlaceOrderFormSchema, TIP_CHOICES, type TipChoiceValue } from '../../lib/schemas/checkout.ts'
import { TipAndInstructions, tipDefaults, type TipAndInstructionsValue } from '../../components/tip-and-instructions.tsx'
import { billWithTip } from '../../../contract/tip.ts'
import { useState } from 'react'
import { apiOf } from '../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `Checkout | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const CHECKOUT_PATH = '/checkout'

/** The ways to pay the checkout offers (docs/payments.md): online ones open the provider's checkout. */
const PAYMENT_OPTIONS = [
  { value: 'upi', label: 'UPI', note: 'Pay with any UPI app' },
  { value: 'card', label: 'Credit or debit card', note: 'Visa, Mastercard, RuPay' },
  { value: 'netbanking', label: 'Netbanking', note: 'All major banks' },
  { value: 'wallet', label: 'Wallet', note: 'Paytm, PhonePe and others' },
  { value: 'cod', label: 'Cash on Delivery', note: 'Pay when it arrives' },
] as const
const PLACE_ORDER_FORM_ID = 'place-order'

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const user = requireUser(context, url)
  const session = getSession(context)
  const [cart, addresses] = await Promise.all([
    getCartForLoaders(api, session, { clientIp: clientIp(request) }),
    addressApi.listAddresses(api, session),
  ])
  if (!cart.ok) throwFailure(cart)
  if (!addresses.ok) throwFailure(addresses)
  // The offers are a help, not the order: without them the page still works.
  const offers = await getOffers(api, session, { clientIp: clientIp(request) })
  // The remembered tip is a convenience too: without it the tip starts at none.
  const prefs = await checkoutPreferences(api, session)
  if (cart.data.lines.length === 0)
    throw redirectWithToast(session, '/cart', { type: 'message', message: 'Your cart is empty: add something first' })
  const wanted = url.searchParams.get('address')
  const selected = addresses.data.find((a) => a._id === wanted)?._id ?? addresses.data[0]?._id ?? null
  // Which store serves each address's PIN code; the page compares it with the shopper's store. The
  // chosen location's PIN code is asked in the same batch: its district and state start a new address.
  const locationPincode = session.location?.pincode ?? null
  const services = await resolvePincodes(api, [...addresses.data.map((a) => a.pincode), ...(locationPincode ? [locationPincode] : [])], {
    clientIp: clientIp(request),
  })
  const place = locationPincode ? services.get(locationPincode) : undefined
  return {
    cart: cart.data,
    addresses: addresses.data,
    services: Object.fromEntries(services) as Record<string, PincodeService>,
    newAddress: locationPincode && place ? addressDefaultsFromLocation(locationPincode, place) : undefined,
    selected,
    addingAddress: url.searchParams.get('add-address') === '1' || addresses.data.length === 0,
    offers: offers.ok ? offers.data : [],
    lastTip: prefs.ok ? prefs.data.tip : 0,
    namePrompt: showsNamePrompt(session, user),
    // A random UUID: a fresh key per rendered checkout, reused by every resubmission of that page.
    idempotencyKey: randomUUID(),
  }
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const api = apiOf(context)
  requireUser(context, url)
  const session = getSession(context)
  const formData = await readForm(request)
  const named = await handleNamePrompt(api, session, formData, `${url.pathname}${url.search}`)
  if (named) return named

  if (formData.get('intent') === 'address') {
    const saved = await saveAddressFromForm(api, session, formData)
    if (!saved.ok) return saved.response
    return redirectWithToast(session, `${CHECKOUT_PATH}?address=${saved.address._id}`, { type: 'success', message: saved.message })
  }

  // The coupon forms (docs/offers.md, "Applying a code"): applied or removed, then the page again; a
  // code that does not apply comes back on the field with the API's reason.
  const intent = formData.get('intent')
  if (intent === COUPON_APPLY_INTENT || intent === COUPON_REMOVE_INTENT) {
    const typed = typeof formData.get('code') === 'string' ? String(formData.get('code')).slice(0, 40) : ''
    if (intent === COUPON_REMOVE_INTENT) {
      const removed = await removeCoupon(api, session, { clientIp: clientIp(request) })
      if (!removed.ok) return data({ couponError: removed.message, typed }, failureInit(removed))
      return redirectWithToast(session, CHECKOUT_PATH, { type: 'success', message: 'Coupon removed' })
    }
    const code = ApplyCouponSchema.safeParse({ code: typed })
    if (!code.success) return data({ couponError: code.error.issues[0]!.message, typed }, { status: 400 })
    const applied = await applyCoupon(api, session, code.data.code, { clientIp: clientIp(request) })
    if (!applied.ok) return data({ couponError: applied.issues[0]?.message ?? applied.message, typed }, failureInit(applied))
    return redirectWithToast(session, CHECKOUT_PATH, { type: 'success', message: `Coupon ${code.data.code} applied` })
  }

  // What the tip and instructions groups showed, sent back with any refusal so the page keeps them.
  const choice = String(formData.get('tip') ?? '0')
  const chosen: TipAndInstructionsValue = {
    choice: (TIP_CHOICES as readonly string[]).includes(choice) ? (choice as TipChoiceValue) : '0',
    other: String(formData.get('tipOther') ?? '').slice(0, 20),
    chips: formData.getAll('chips').map(String).slice(0, 10),
    note: String(formData.get('note') ?? '').slice(0, 200),
  }
  const parsed = PlaceOrderFormSchema.safeParse({ ...Object.fromEntries(formData), chips: formData.getAll('chips') })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const onTipOrNote = ['tipOther', 'note', 'chips'].includes(String(issue.path[0]))
    const shown = Number(formData.get('shownTip'))
    return data(
      {
        placeError: onTipOrNote ? null : issue.message,
        tipError: onTipOrNote ? issue.message : null,
        changes: null,
        changeLocation: false,
        chosen,
        billTip: Number.isInteger(shown) && shown >= 0 ? shown : 0,
      },
      { status: 400 },
    )
  }
  const tipChoice = {
    tip: parsed.data.tipRupees > 0 ? parsed.data.tipRupees : undefined,
    shownTip: parsed.data.shownTip,
    shownFees: parsed.data.shownFees,
    deliveryInstructions: parsed.data.deliveryInstructions,
  }
  const outcome =
    parsed.data.payment === 'cod'
      ? await placeCashOnDeliveryOrder(api, session, parsed.data.addressId, parsed.data.idempotencyKey, {
          clientIp: clientIp(request),
          couponDiscount: parsed.data.couponDiscount,
          ...tipChoice,
        })
      : await startPayment(
          api,
          session,
          {
            addressId: parsed.data.addressId,
            method: parsed.data.payment,
            // Another key than a cash-on-delivery placement of the same page would use.
            idempotencyKey: `${parsed.data.idempotencyKey}-online`.slice(0, 128),
            // The pay page opens the checkout with its own return urls; these are the fallback.
            callbackUrl: `${env.publicUrl ?? url.origin}${PAYMENT_CALLBACK_PATH}`,
            cancelUrl: `${env.publicUrl ?? url.origin}${CHECKOUT_PATH}`,
            couponDiscount: parsed.data.couponDiscount,
            ...tipChoice,
          },
          { clientIp: clientIp(request) },
        )
  if (outcome.kind === 'placed') {
    throw redirect(`/success?${new URLSearchParams({ order: outcome.order.orderId })}`)
  }
  // Online: the order waits with its items held; the pay page opens the provider's checkout.
  if (outcome.kind === 'checkout') throw redirect(`/checkout/pay/${encodeURIComponent(outcome.order._id)}`)
  // Every refusal below keeps what the tip and instructions groups showed; the bill shows the tip chosen.
  const kept = { chosen, billTip: parsed.data.tipRupees }
  if (outcome.kind === 'cart-changed')
    return data({ placeError: outcome.message, changes: outcome.changes, changeLocation: false, ...kept }, { status: 409 })
  // The coupon no longer gives what the page showed: the message and the bill as it now is, which the
  // page shows (and posts again) instead of the cart's.
  if (outcome.kind === 'coupon-changed')
    return data({ placeError: outcome.message, changes: null, changeLocation: false, couponBill: outcome.bill, ...kept }, { status: 409 })
  if (outcome.status === 400 && /empty/i.test(outcome.message))
    throw redirectWithToast(session, '/cart', { type: 'error', message: outcome.message })
  // The API's status, and with a 429 (orders per hour) its Retry-After. A 422 is the store's
  // refusal (address outside its area, store closed): the page offers to change the location.
  const changeLocation = outcome.status === 422
  return data(
    {
      placeError: outcome.message,
      changes: null,
      changeLocation,
      toast: changeLocation ? { type: 'error' as const, message: outcome.message } : null,
      ...kept,
    },
    failureInit({ ...outcome, ok: false, issues: [] }),
  )
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { cart, addresses, services, selected, addingAddress, idempotencyKey, newAddress, offers } = loaderData
  const couponReply = actionData && 'couponError' in actionData ? actionData : null
  const couponBill = actionData && 'couponBill' in actionData ? (actionData.couponBill as Bill | undefined) : undefined
  // The tip groups as last posted (a refusal), else the shopper's last tip preselected.
  const chosen = actionData && 'chosen' in actionData ? actionData.chosen : tipDefaults(loaderData.lastTip)
  const [tip, setTip] = useState(actionData && 'billTip' in actionData ? actionData.billTip : loaderData.lastTip)
  const tipError = actionData && 'tipError' in actionData ? actionData.tipError : null
  const bill: Bill = billWithTip(couponBill ?? cart.bill, tip)
  const location = useShopperLocation()
  const storeRefusal = checkoutRefusal(location)
  const isPlacing = useIsPending({ formAction: CHECKOUT_PATH })
  const isSavingAddress = useIsPending({ formAction: `${CHECKOUT_PATH}?add-address=1` })
  const changes = actionData && 'changes' in actionData ? actionData.changes : null
  // A refusal to place the order stands until the shopper changes the order form or sends it again.
  const isPlaceErrorStale = useIsStale(PLACE_ORDER_FORM_ID, actionData && 'placeError' in actionData ? actionData : null)
  const placeError = actionData && 'placeError' in actionData && !isPlaceErrorStale ? actionData.placeError : null
  const nameReply =
    actionData && 'intent' in actionData && actionData.intent === ADD_NAME_INTENT ? (actionData as FormReplyData) : undefined
  const addressReply = actionData && 'result' in actionData && !nameReply ? actionData : undefined
  const offerLocationChange = Boolean(placeError && actionData && 'changeLocation' in actionData && actionData.changeLocation)
  return (
    // minmax(0, …) and min-w-0: a column is never wider than its track, so a long product name is cut
    // inside its card instead of widening the page (docs/product.md, "Look and feel").
    <div className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-6 px-3 py-4 sm:px-4 md:grid-cols-[minmax(0,1fr)_22rem] md:py-6">
      <div className="flex min-w-0 flex-col gap-4">
        <h1 className="text-xl font-bold text-slate-900">Checkout</h1>
        {loaderData.namePrompt ? <AddNamePrompt action={CHECKOUT_PATH} reply={nameReply} /> : null}

        {changes?.length ? (
          <section role="alert" data-card="cart changes" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm">
            <h2 className="mb-2 font-bold text-amber-900">Your cart was updated</h2>
            <ul className="list-disc pl-5 text-amber-900">
              {changes.map((change, i) => (
                <li key={`${change.productId}-${change.kind}-${i}`}>
                  {change.name}:{' '}
                  {change.kind === 'price'
                    ? `price changed from ${formatRupees(change.before)} to ${formatRupees(change.after)}`
                    : change.kind === 'removed'
                      ? 'no longer sold, removed'
                      : change.after === 0
                        ? 'out of stock, removed'
                        : `only ${change.after} left, quantity changed from ${change.before}`}
                </li>
              ))}
            </ul>
            <p className="mt-2 text-amber-900">Check the bill and place the order again.</p>
          </section>
        ) : null}

        <section
          aria-labelledby="checkout-address"
          data-card="delivery address"
          className="rounded-xl border border-slate-200 bg-white p-4"
        >
          <h2 id="checkout-address" className="mb-3 font-bold">
            Delivery address
          </h2>
          {addresses.length > 0 ? (
            <fieldset form={PLACE_ORDER_FORM_ID} className="grid gap-2">
              <legend className="sr-only">Choose a delivery address</legend>
              {addresses.map((address) => (
                <label
                  key={address._id}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-accent has-[:checked]:bg-emerald-50"
                >
                  <input
                    type="radio"
                    name="addressId"
                    value={address._id}
                    defaultChecked={address._id === selected}
                    form={PLACE_ORDER_FORM_ID}
                    className="mt-1 size-4 accent-[var(--color-accent)]"
                  />
                  <span className="min-w-0 text-sm break-words">
                    <AddressLabelTag label={address.label} />
                    {addressLine(address)}
                    <span className="block text-slate-600">Mobile {address.mobile}</span>
                    <AddressDelivery
                      verdict={addressVerdict(services[address.pincode], location?.store.id)}
                      storeName={location?.store.name}
                      servingStore={services[address.pincode]?.storeName ?? null}
                    />
                  </span>
                </label>
              ))}
            </fieldset>
          ) : null}
          {addresses.some((a) => addressVerdict(services[a.pincode], location?.store.id).kind === 'not-served') ? (
            <p data-testid="not-served-note" className="mt-2 text-sm break-words text-slate-700">
              {location ? `${location.store.name} does not deliver to the addresses marked.` : ''} Choose another address, or{' '}
              <Link to={changeLocationHref(CHECKOUT_PATH)} className="font-semibold text-accent hover:underline">
                Change delivery location
              </Link>
            </p>
          ) : null}
          {addingAddress ? (
            <div className="mt-4">
              {addresses.length > 0 ? (
                <h3 className="mb-2 font-semibold">Add an address</h3>
              ) : (
                <p className="mb-3 text-sm text-slate-600">Add the address to deliver to.</p>
              )}
              <AddressForm
                id="checkout-address-form"
                action={`${CHECKOUT_PATH}?add-address=1`}
                intent="address"
                defaultValue={newAddress}
                reply={addressReply}
                submitLabel={isSavingAddress ? 'Saving…' : 'Save address'}
                isPending={isSavingAddress}
              />
            </div>
          ) : (
            <Link to="?add-address=1" className="mt-3 inline-block text-sm font-semibold text-accent hover:underline">
              + Add a new address
            </Link>
          )}
        </section>

        <section aria-labelledby="checkout-payment" data-card="payment" className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="checkout-payment" className="mb-2 font-bold">
            Payment
          </h2>
          <fieldset form={PLACE_ORDER_FORM_ID} className="grid gap-2">
            <legend className="sr-only">Choose how to pay</legend>
            {PAYMENT_OPTIONS.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 text-sm has-[:checked]:border-accent has-[:checked]:bg-emerald-50"
              >
                <input
                  type="radio"
                  name="payment"
                  value={option.value}
                  defaultChecked={option.value === 'cod'}
                  form={PLACE_ORDER_FORM_ID}
                  className="mt-0.5 size-4 accent-[var(--color-accent)]"
                />
                <span className="min-w-0 break-words">
                  <span className="font-semibold">{option.label}</span>
                  <span className="block text-slate-600">{option.note}</span>
                </span>
              </label>
            ))}
          </fieldset>
        </section>
        <TipAndInstructions formId={PLACE_ORDER_FORM_ID} value={chosen} error={tipError} onTip={setTip} />
      </div>

      <aside className="flex min-w-0 flex-col gap-4">
        <section aria-labelledby="checkout-items" data-card="checkout items" className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="checkout-items" className="mb-2 font-bold">
            {itemCountLabel(cart.bill.itemCount)}
          </h2>
          {/* The cart's own order (oldest line first), each line "brand" over "qty × name" (two lines at
              most), its amount kept whole at the right. Lines the store cannot deliver are left out, as
              the bill leaves them out (api/modules/cart/bill.ts `deliverableQuantity`). */}
          <ul aria-label="Items to order" className="grid gap-2 text-sm">
            {cart.lines.filter(isDeliverable).map((line) => {
              const brand = brandOf(line.productId)
              return (
                <li key={line._id} className="flex items-start justify-between gap-3">
                  <span className="min-w-0">
                    {brand ? <span className="block truncate text-xs text-slate-500">{brand}</span> : null}
                    <span className="line-clamp-2 break-words">
                      {line.quantity} × {line.productId.name}
                    </span>
                  </span>
                  <span className="shrink-0 font-semibold">{formatRupees(lineAmount(line.productId.sellingPrice, line.quantity))}</span>
                </li>
              )
            })}
          </ul>
          <Link to="/cart" className="mt-2 inline-block text-sm font-semibold text-accent hover:underline">
            Change items
          </Link>
        </section>
        <CouponBox
          action={CHECKOUT_PATH}
          coupon={cart.coupon}
          offers={offers}
          error={couponReply?.couponError ?? null}
          typed={couponReply?.typed ?? ''}
        />
        <BillSummary bill={bill} />
        <Form method="post" action={CHECKOUT_PATH} id={PLACE_ORDER_FORM_ID} className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="place" />
          <input type="hidden" name="couponDiscount" value={bill.couponDiscount ?? 0} />
          <input type="hidden" name="shownTip" value={bill.tip ?? 0} />
          <input type="hidden" name="shownFees" value={sumRupees(billFees(bill).map((f) => f.amount))} />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <ErrorList errors={placeError && !changes?.length ? [placeError] : []} role="alert" />
          {offerLocationChange ? <ChangeLocationLink /> : null}
          <ToastNotice
            toast={actionData && 'toast' in actionData ? actionData.toast : null}
            shownInForm={placeError ? [placeError] : null}
            formId={PLACE_ORDER_FORM_ID}
          />
          {storeRefusal ? (
            <div
              role="alert"
              data-testid="checkout-refusal"
              className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm break-words text-red-900"
            >
              <p>{storeRefusal}</p>
              <ChangeLocationLink />
            </div>
          ) : (
            <SubmitButton isPending={isPlacing} disabled={addresses.length === 0}>
              {isPlacing ? 'Placing your order…' : `Place Order · ${formatRupees(bill.grandTotal)}`}
            </SubmitButton>
          )}
          {addresses.length === 0 ? <p className="text-xs text-slate-600">Add a delivery address to place the order.</p> : null}
        </Form>
      </aside>
    </div>
  )
}

/**
 * Why no order can be placed from the shopper's location now, or null: no store serves it ("We
 * don't deliver to <area> yet", with the nearest served area), or its store is closed ("<store> is
 * closed now. It opens at 06:00."), as the API words them (api/modules/store/service.ts).
 */
function checkoutRefusal(location: ShopperLocation | undefined): string | null {
  if (!location) return null
  if (!location.serviceable) {
    const place = [location.area, location.pincode].filter(Boolean).join(', ')
    const nearest = location.nearest ? ` The nearest area we deliver to is ${location.nearest.area}, ${location.nearest.city}.` : ''
    return `We don't deliver to ${place || 'your location'} yet.${nearest}`
  }
  if (!location.store.open) {
    const { name, closedNote, opensAt } = location.store
    return closedNote ? `${name} is not taking orders now: ${closedNote}.` : `${name} is closed now. It opens at ${opensAt}.`
  }
  return null
}

/** "Change delivery location": to /location, and back to the checkout after. */
function ChangeLocationLink() {
  return (
    <Link to={changeLocationHref(CHECKOUT_PATH)} className="mt-1 inline-block text-sm font-semibold text-accent hover:underline">
      Change delivery location
    </Link>
  )
}

/**
 * Under an address: the store that delivers it and in how many minutes ("Delivery in 9 minutes from
 * Indiranagar Dark Store": the store the API's resolve names for its PIN code, the nearest serving
 * one, the rule placement follows, api/modules/order/service.ts `orderStore`), or that the shopper's
 * store does not deliver there.
 */
function AddressDelivery({
  verdict,
  storeName,
  servingStore,
}: {
  verdict: ReturnType<typeof addressVerdict>
  storeName: string | undefined
  servingStore: string | null
}) {
  if (verdict.kind === 'unknown') return null
  if (verdict.kind === 'served')
    return verdict.minutes === null ? null : (
      <span data-testid="address-delivery" className="block font-semibold text-accent">
        {deliveryInLabel(verdict.minutes)}
        {servingStore ? ` from ${servingStore}` : ''}
      </span>
    )
  return (
    <span data-testid="address-not-served" className="block font-semibold text-red-700">
      {storeName ? `${storeName} does not deliver here` : 'Not delivered from your store'}
    </span>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
