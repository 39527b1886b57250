/**
 * `/buy-again` (docs/recommendations.md, "Buy again"): the signed-in shopper's earlier products in
 * stock in their store, most often and most recently ordered first, as product cards with ADD (the
 * cards' forms post to /cart, so it works without JavaScript). A guest is asked to sign in and comes
 * back here after. Personal, so never cached or spliced (no `personalSlots` handle).
 */
import { Link } from 'react-router'
import type { Route } from './+types/buy-again'
import { apiOf } from '../.server/api-context.ts'
import { getSession } from '../.server/context.ts'
import { clientIp } from '../.server/request.ts'
import { buyAgainProducts } from '../.server/api/recommend.ts'
import { toCardData } from '../lib/catalog-cards.ts'
import { ProductGrid } from '../components/product-card.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'

export const meta: Route.MetaFunction = () => [{ title: `Buy again | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export async function loader({ context, request }: Route.LoaderArgs) {
  const session = getSession(context)
  if (!session.user) return { signedIn: false as const, products: [] }
  const products = (await buyAgainProducts(apiOf(context), session, { clientIp: clientIp(request) })) ?? []
  return { signedIn: true as const, products: products.map(toCardData) }
}

export default function BuyAgainPage({ loaderData }: Route.ComponentProps) {
  const { signedIn, products } = loaderData
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 px-3 py-4 sm:px-4">
      <h1 className="text-xl font-bold text-slate-900">Buy again</h1>
      {!signedIn ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          <Link to="/login?redirectTo=%2Fbuy-again" className="font-semibold text-accent underline">
            Sign in
          </Link>{' '}
          to see the products you ordered before.
        </p>
      ) : products.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          Products you order will show here, ready to add again.{' '}
          <Link to="/" className="font-semibold text-accent underline">
            Start shopping
          </Link>
        </p>
      ) : (
        <>
          <h2 className="sr-only">Products you ordered before</h2>
          <ProductGrid products={products} />
        </>
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
