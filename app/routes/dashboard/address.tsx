/**
 * /dashboard/address (spec section 2: a placeholder showing a title only; the menu calls it "Save
 * Address"). The dashboard layout's middleware requires a signed-in user.
 */
import type { Route } from './+types/address'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'

export const meta: Route.MetaFunction = () => [{ title: `Address | ${SHOP_NAME}` }]

export default function Address() {
  return (
    <section className="p-4">
      <h1 className="text-lg font-semibold text-slate-900">Address</h1>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
