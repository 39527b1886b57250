/**
 * /dashboard/myorder (spec section 2: a placeholder showing a title only; section 1: orders are not
 * part of this release). The dashboard layout's middleware requires a signed-in user.
 */
import type { Route } from './+types/myorder'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'

export const meta: Route.MetaFunction = () => [{ title: `My Orders | ${SHOP_NAME}` }]

export default function MyOrder() {
  return (
    <section className="p-4">
      <h1 className="text-lg font-semibold text-slate-900">My Orders</h1>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
