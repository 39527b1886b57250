/**
 * /dashboard/address, "Save Address" (docs/product.md, "Addresses"; docs/commerce-api.md,
 * "Addresses"): the shopper's delivery addresses, with add (`?add=1`), edit (`?edit=<id>`) and remove
 * (a soft delete: orders keep their copy). The open form lives in the address bar, so every step
 * works without JavaScript. The dashboard layout's middleware requires a signed-in user.
 */
import { Form, Link } from 'react-router'
import type { Route } from './+types/address'
import { throwFailure } from '../../.server/failure.ts'
import { getSession } from '../../.server/context.ts'
import * as addressApi from '../../.server/api/address.ts'
import { saveAddressFromForm } from '../../.server/address-form.ts'
import { readForm } from '../../.server/form.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { AddressForm } from '../../components/address-form.tsx'
import { AddressLabelTag } from '../../components/address-label.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { useIsPending } from '../../components/forms.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { addressLine } from '../../lib/schemas/address.ts'
import { buttonClassName } from '../../components/ui/button.tsx'
import { apiOf } from '../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `My Addresses | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

const ADDRESS_PATH = '/dashboard/address'

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const result = await addressApi.listAddresses(api, session)
  if (!result.ok) throwFailure(result)
  const editId = url.searchParams.get('edit')
  const editing = editId ? (result.data.find((a) => a._id === editId) ?? null) : null
  return { addresses: result.data, adding: url.searchParams.get('add') === '1', editing }
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const formData = await readForm(request)
  if (formData.get('intent') === 'remove') {
    const id = String(formData.get('_id') ?? '')
    const result = await addressApi.disableAddress(api, session, id)
    return redirectWithToast(session, ADDRESS_PATH, { type: result.ok ? 'success' : 'error', message: result.message })
  }
  const saved = await saveAddressFromForm(api, session, formData)
  if (!saved.ok) return saved.response
  return redirectWithToast(session, ADDRESS_PATH, { type: 'success', message: saved.message })
}

export default function AddressPage({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, adding, editing } = loaderData
  const isPending = useIsPending()
  return (
    <section className="p-4 md:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-lg font-semibold text-slate-900">My Addresses</h1>
        {!adding && !editing ? (
          <Link to="?add=1" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            Add address
          </Link>
        ) : null}
      </div>

      {adding || editing ? (
        <div data-card="address form" className="mb-6 rounded-xl border border-slate-200 bg-white p-4">
          <h2 className="mb-3 font-semibold">{editing ? 'Edit address' : 'Add address'}</h2>
          <AddressForm
            id={editing ? `address-${editing._id}` : 'address-new'}
            action={`${ADDRESS_PATH}${editing ? `?edit=${editing._id}` : '?add=1'}`}
            intent="save"
            defaultValue={editing ?? undefined}
            reply={actionData}
            submitLabel={isPending ? 'Saving…' : 'Save address'}
            isPending={isPending}
          />
          <Link to={ADDRESS_PATH} className="mt-3 inline-block text-sm font-semibold text-slate-600 hover:underline">
            Cancel
          </Link>
        </div>
      ) : null}

      {addresses.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          No saved addresses yet: add one to order.
        </p>
      ) : (
        <ul aria-label="Saved addresses" className="grid gap-3 sm:grid-cols-2">
          {addresses.map((address) => (
            <li key={address._id} data-card="address" className="rounded-xl border border-slate-200 bg-white p-4">
              <p className="text-sm text-slate-800">
                <AddressLabelTag label={address.label} />
                {addressLine(address)}
              </p>
              <p className="mt-1 text-sm text-slate-600">
                {address.country} · Mobile {address.mobile}
              </p>
              <div className="mt-3 flex gap-2">
                <Link
                  to={`?edit=${address._id}`}
                  className={buttonClassName({ variant: 'secondary', size: 'sm' })}
                  aria-label={`Edit ${addressLine(address)}`}
                >
                  Edit
                </Link>
                <Form method="post" action={ADDRESS_PATH}>
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="_id" value={address._id} />
                  <button
                    type="submit"
                    className={buttonClassName({ variant: 'danger', size: 'sm' })}
                    aria-label={`Remove ${addressLine(address)}`}
                  >
                    Remove
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
