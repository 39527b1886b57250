/**
 * The document and the root layout (spec section 2): header, the page, footer, toasts. The root
 * middleware opens the cookie session for every request (app/.server/context.ts); the loader hands
 * the header its user summary and takes the pending flash toast (spec section 9).
 */
import { Links, Meta, Outlet, Scripts, ScrollRestoration, data, useLoaderData, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/root'
import { getSession, sessionMiddleware } from './.server/context.ts'
import { Header } from './components/header.tsx'
import { Footer } from './components/footer.tsx'
import { Toasts } from './components/toasts.tsx'
import { GeneralErrorBoundary } from './components/error-boundary.tsx'
import { useNonce } from './components/nonce.tsx'
import './app.css'

export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware]

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.ico' }]

export async function loader({ context }: Route.LoaderArgs) {
  const session = getSession(context)
  return data({ user: session.user, toast: session.takeToast() })
}

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
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  const { user, toast } = useLoaderData<typeof loader>()
  return (
    <div className="flex min-h-screen flex-col">
      <Header user={user} />
      <main className="flex-1">
        <Outlet />
      </main>
      <Footer />
      <Toasts toast={toast} />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
