/**
 * The document and the root layout (docs/product.md, "Routes"): header, the page, footer, toasts. The root
 * middleware puts a failed API call's `Retry-After` on a 429 or 503 answer (app/.server/failure.ts),
 * refuses cross-site writes (app/.server/csrf.ts) and opens the cookie session for every request
 * (app/.server/context.ts); the loader hands
 * the header its user summary and the cart summary, and takes the pending flash toast
 * (docs/product.md, "Toasts").
 */
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  useLoaderData,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from 'react-router'
import { useEffect } from 'react'
import type { Route } from './+types/root'
import { getSession, sessionMiddleware } from './.server/context.ts'
import { sameSiteWrites } from './.server/csrf.ts'
import { retryAfterMiddleware } from './.server/failure.ts'
import { clientIp, publicOrigin } from './.server/request.ts'
import { env } from './.server/env.ts'
import { isPageCacheRender } from './.server/page-cache.ts'
import { getCartSummary, WHOLE_CART_PAGES } from './.server/api/cart.ts'
import { apiMiddleware, shopperLocation } from './.server/location.server.ts'
import { CART_BUTTON_ID, CartBar } from './components/cart-panel.tsx'
import { Header, SHOP_NAME } from './components/header.tsx'
import { CartChangesNotice } from './components/location-bar.tsx'
import { Footer } from './components/footer.tsx'
import { Toasts } from './components/toasts.tsx'
import { GeneralErrorBoundary } from './components/error-boundary.tsx'
import { useNonce } from './components/nonce.tsx'
import { markHydrated } from './components/hydrate-when-visible.tsx'
import './app.css'
import { apiOf } from './.server/api-context.ts'

// Outermost, 503 answers get their Retry-After (app/.server/failure.ts); then cross-site writes are
// refused before the session is even opened (app/.server/csrf.ts); inside the session, every upstream
// call names the shopper's store (app/.server/location.server.ts).
export const middleware: Route.MiddlewareFunction[] = [retryAfterMiddleware, sameSiteWrites, sessionMiddleware, apiMiddleware]

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.ico' }]

/** Default title and description; a route's own `meta` replaces them. */
export const meta: Route.MetaFunction = () => [
  { title: `${SHOP_NAME} | Groceries delivered in minutes` },
  { name: 'description', content: 'Fresh fruits, vegetables, dairy, staples and snacks, delivered to your door in minutes.' },
]

/**
 * `shared`: a render for the page cache (then `user`, `cart` and `toast` are nobody's).
 * `user`: the signed-in user's summary or null. `toast`: the flash toast queued by the previous
 * request (a redirect with a message), or null; each one gets a fresh `id` so the page shows it once,
 * however often the component re-renders. `origin`: the site's public origin, for the absolute
 * canonical and Open Graph URLs the pages' `meta` build (app/lib/seo.ts). `location`: the shopper's
 * delivery location and store (app/lib/location.ts; docs/stores.md, "Location (BFF)"), and
 * `cartChanges`: what a change of location just changed in the cart (shown once), or null.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const api = apiOf(context)
  const session = getSession(context)
  const toast = session.takeToast()
  const cartChanges = session.takeCartChanges()
  // A visitor without a guest cart costs no API call; a failed read shows an empty cart, not an error page.
  const [cart, location] = await Promise.all([
    getCartSummary(api, session, { clientIp: clientIp(request) }, WHOLE_CART_PAGES.has(new URL(request.url).pathname)),
    shopperLocation(api, session, { clientIp: clientIp(request) }),
  ])
  return data({
    // A render for the page cache (app/.server/page-cache.ts) is shared by visitors: the personal
    // parts then come from beside the page (app/lib/personal.ts `usePersonal`).
    shared: isPageCacheRender(request),
    location,
    cartChanges,
    user: session.user,
    toast: toast ? { ...toast, id: globalThis.crypto.randomUUID() } : null,
    origin: publicOrigin(request),
    cart,
    // The configured upload cap, for the image pickers' early check (app/lib/uploads.ts); the same for every visitor.
    uploadMaxBytes: env.uploadMaxBytes,
  })
}

/**
 * Runs the root loader on every navigation, not only when params change (React Router's default): a
 * loader anywhere may redirect with a flash toast, and sign-in or sign-out changes the header.
 * The loader only reads the session cookie, and single fetch sends it with the page's own loaders.
 */
export const shouldRevalidate: ShouldRevalidateFunction = () => true

/** The root loader's data, for components anywhere in the tree (header, guards). */
export function useRootData() {
  return useRouteLoaderData<typeof loader>('root')
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#f8cb46" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/** A skip link: hidden until focused, then shown over the header's top-left corner. */
const SKIP_LINK =
  'sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:font-semibold focus:shadow-lg'

/**
 * Header, the page and footer around any content: the app itself and the root error page.
 *
 * The first two stops of the keyboard are skip links (WCAG 2.2 SC 2.4.1 Bypass Blocks;
 * docs/accessibility.md, "Keyboard and focus"): to the content (`<main>`, focusable by script and
 * fragment only) and to the cart, which is the header's "My Cart" from 768 px and the cart page below
 * (phones have no cart button in the header). Plain links: they work without JavaScript.
 */
function Shell({ children }: { children: React.ReactNode }) {
  const root = useRootData()
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className={SKIP_LINK}>
        Skip to content
      </a>
      <a href={`#${CART_BUTTON_ID}`} className={`${SKIP_LINK} hidden md:block`}>
        Skip to cart
      </a>
      <a href="/cart" className={`${SKIP_LINK} md:hidden`}>
        Skip to cart
      </a>
      <Header location={root?.location ?? null} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {root?.cartChanges?.length ? <CartChangesNotice changes={root.cartChanges} storeName={root.location.store.name} /> : null}
        {children}
      </main>
      <Footer />
      <CartBar />
    </div>
  )
}

export default function App() {
  // After the first commit nothing hydrates any more (app/components/hydrate-when-visible.tsx).
  useEffect(markHydrated, [])
  const { toast } = useLoaderData<typeof loader>()
  return (
    <>
      <Shell>
        <Outlet />
      </Shell>
      <Toasts toast={toast} />
    </>
  )
}

/** Errors no route handled: the fallback page (docs/product.md, "Error catalogue") inside the usual header and footer. */
export function ErrorBoundary() {
  return (
    <Shell>
      <GeneralErrorBoundary />
    </Shell>
  )
}
