/**
 * /location (docs/stores.md, "Location (BFF)"): where the shopper wants delivery. A PIN code form
 * (works without JavaScript), "Use my current location" (only with JavaScript and the browser's
 * geolocation, W3C Geolocation API), and for a signed-in shopper their saved addresses. The action
 * sets the location with the API (PUT /api/location: the cart is fitted to the new store's stock),
 * keeps it in the session, and goes back to `redirectTo` (same-site paths only) with a toast saying
 * where and how fast, or that the place is not served yet and what is nearest; what changed in the
 * cart is shown once on the next page.
 */
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Form, data, useSubmit } from 'react-router'
import type { Route } from './+types/location'
import { listAddresses, type Address } from '../.server/api/address.ts'
import { setLocation } from '../.server/api/location.ts'
import { getSession } from '../.server/context.ts'
import { failureInit, failureMessage } from '../.server/failure.ts'
import { failedFormReply, invalidFormReply, readForm, readText } from '../.server/form.ts'
import { locationToastMessage, toSessionLocation, trimCartChanges } from '../.server/location.server.ts'
import { clientIp, safeRedirect } from '../.server/request.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { ErrorList, Field, FormAlert, FormCard, SubmitButton, useIsPending } from '../components/forms.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { ToastNotice } from '../components/toasts.tsx'
import { useSchemaForm } from '../components/use-schema-form.ts'
import { locationLabel } from '../lib/location-labels.ts'
import { AddressPickSchema, CoordinatesFormSchema, PincodeFormSchema } from '../lib/schemas/location.ts'
import type { LocationQuery } from '../../contract/location.ts'
import { useRootData } from '../root.tsx'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Delivery location | ${SHOP_NAME}` },
  { name: 'description', content: 'Choose where we deliver: enter your pincode to see the store that serves you and how fast.' },
  { name: 'robots', content: 'noindex' },
]

/** The page to go back to, and a signed-in shopper's saved addresses (none when the list cannot be read). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/')
  let addresses: Address[] = []
  if (session.tokens) {
    const listed = await listAddresses(api, session)
    if (listed.ok) addresses = listed.data.filter((a) => a.status)
  }
  return { redirectTo, addresses, pincode: session.location?.pincode ?? '' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const formData = await readForm(request)
  const intent = readText(formData, 'intent')
  const schema = intent === 'coords' ? CoordinatesFormSchema : intent === 'address' ? AddressPickSchema : PincodeFormSchema
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') {
    // The coordinates and address forms have no fields to mark: their message is the toast.
    if (intent === 'coords' || intent === 'address') {
      const message = Object.values(submission.error ?? {}).flat()[0] ?? 'Could not read that location'
      return data({ result: null, toast: { type: 'error' as const, message } }, { status: 400 })
    }
    return invalidFormReply(submission)
  }
  const value = submission.value
  const query: LocationQuery =
    value.intent === 'coords'
      ? { lat: value.lat, lng: value.lng }
      : value.intent === 'address'
        ? { addressId: value.addressId }
        : { pincode: value.pincode }
  const result = await setLocation(api, session, query, { clientIp: clientIp(request) })
  if (!result.ok) {
    if (value.intent === 'pincode') return failedFormReply(submission, result, { fields: ['pincode'] })
    return data({ result: null, toast: { type: 'error' as const, message: failureMessage(result) } }, failureInit(result))
  }
  const { location, cartChanges } = result.data
  session.setLocation(toSessionLocation(location))
  if (cartChanges.length > 0) session.flashCartChanges(trimCartChanges(cartChanges))
  return redirectWithToast(session, safeRedirect(value.redirectTo, '/'), {
    type: location.serviceable ? 'success' : 'message',
    message: locationToastMessage(location),
  })
}

export default function LocationPage({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData()
  const isPending = useIsPending()
  const reply = actionData?.result ? actionData : undefined
  const [form, fields] = useSchemaForm('location-pincode', PincodeFormSchema, reply?.result, {
    intent: 'pincode',
    pincode: loaderData.pincode,
    redirectTo: loaderData.redirectTo,
  })
  const label = root?.location ? locationLabel(root.location) : null
  return (
    <FormCard title="Your delivery location">
      {label ? (
        <p className="-mt-3 mb-5 text-sm text-slate-700" data-testid="current-location">
          <span className="font-semibold">{label.headline}</span>
          <span className="block break-words">{label.detail}</span>
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="intent" value="pincode" />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field
          labelProps={{ children: 'Pincode' }}
          inputProps={{
            ...getInputProps(fields.pincode, { type: 'text' }),
            inputMode: 'numeric',
            autoComplete: 'postal-code',
            maxLength: 6,
            placeholder: 'e.g. 560038',
          }}
          errors={fields.pincode.errors}
        />
        <FormAlert form={form} reply={reply} />
        <SubmitButton isPending={isPending}>{isPending ? 'Checking…' : 'Check and save'}</SubmitButton>
      </Form>
      <CurrentLocationButton redirectTo={loaderData.redirectTo} />
      {actionData && !actionData.result ? <ToastNotice toast={actionData.toast} /> : null}
      {loaderData.addresses.length > 0 ? <SavedAddresses addresses={loaderData.addresses} redirectTo={loaderData.redirectTo} /> : null}
    </FormCard>
  )
}

/**
 * "Use my current location": only with JavaScript and `navigator.geolocation` (shown after
 * hydration); posts the coordinates to the action as the PIN code form does.
 */
function CurrentLocationButton({ redirectTo }: { redirectTo: string }) {
  const submit = useSubmit()
  // Only after hydration (the server and a page without JavaScript have no geolocation to offer).
  const supported = useHydrated() && 'geolocation' in navigator
  const [error, setError] = useState<string | null>(null)
  const [locating, setLocating] = useState(false)
  if (!supported) return null
  const locate = () => {
    setError(null)
    setLocating(true)
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false)
        void submit(
          { intent: 'coords', lat: String(position.coords.latitude), lng: String(position.coords.longitude), redirectTo },
          { method: 'post' },
        )
      },
      () => {
        setLocating(false)
        setError('Could not get your location. Enter your pincode instead.')
      },
      { timeout: 10_000, maximumAge: 60_000 },
    )
  }
  return (
    <div className="mt-4">
      <button
        type="button"
        onClick={locate}
        disabled={locating}
        className="flex h-12 w-full items-center justify-center rounded-md border border-accent px-4 text-base font-semibold text-accent hover:bg-green-50 disabled:opacity-60"
      >
        {locating ? 'Finding you…' : 'Use my current location'}
      </button>
      <ErrorList errors={error ? [error] : []} role="alert" />
    </div>
  )
}

/** The signed-in shopper's saved addresses: one button each, a form that works without JavaScript. */
function SavedAddresses({ addresses, redirectTo }: { addresses: Address[]; redirectTo: string }) {
  return (
    <section className="mt-6" aria-labelledby="saved-addresses">
      <h2 id="saved-addresses" className="mb-2 text-base font-semibold text-slate-900">
        Or deliver to a saved address
      </h2>
      <ul className="space-y-2">
        {addresses.map((address) => (
          <li key={address._id}>
            <Form method="post">
              <input type="hidden" name="intent" value="address" />
              <input type="hidden" name="addressId" value={address._id} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button
                type="submit"
                className="w-full rounded-md border border-slate-300 px-3 py-2 text-left text-sm break-words hover:bg-slate-50"
              >
                <span className="block font-medium text-slate-900">{address.address_line}</span>
                <span className="block text-slate-600">
                  {address.city}, {address.pincode}
                </span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
