/**
 * Error pages. `GeneralErrorBoundary` is the router fallback (docs/product.md, "Error catalogue"):
 * "Unexpected Application Error!" with the status text or the message; a 404 shows the friendlier
 * `NotFoundPage` instead, and a 503 (the store's database or API away for a moment,
 * app/.server/failure.ts) `UnavailablePage`, which asks for a retry rather than reporting an error. Routes reuse it: `export { GeneralErrorBoundary as ErrorBoundary } from
 * '../components/error-boundary.tsx'`.
 *
 * In production React Router replaces the message of an unexpected server error with "Unexpected
 * Server Error", so no stack or internal detail reaches the page (OWASP Error Handling cheat sheet).
 */
import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router'
import { buttonClassName } from './ui/button.tsx'

/**
 * Status and text of anything a loader, action or component threw, for the fallback page: for an
 * error response "<status> <message or status text>" (the message from `data(...)` or a string body),
 * for an Error its message.
 */
export function describeError(error: unknown): { status: number | null; detail: string } {
  if (isRouteErrorResponse(error)) {
    const body: unknown = error.data
    const message =
      typeof body === 'string'
        ? body
        : body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
          ? body.message
          : ''
    return { status: error.status, detail: `${error.status} ${message || error.statusText}`.trim() }
  }
  if (error instanceof Error) return { status: null, detail: error.message }
  return { status: null, detail: 'Unknown Error' }
}

/** The friendly 404 page: a heading, a line of help and a way home. */
export function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-16 text-center">
      <p className="text-6xl font-black text-amber-700" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-bold text-slate-900">Page not found</h1>
      <p className="text-slate-600">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonClassName({ variant: 'primary', size: 'lg' })}>
        Go to the home page
      </Link>
    </section>
  )
}

/**
 * The page of a 503: the store is away for a moment. A way to try the same page again (a full load,
 * so it works without JavaScript too) and no error detail: nothing went wrong on the shopper's side.
 */
export function UnavailablePage() {
  const location = useLocation()
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Back in a moment</h1>
      <p className="text-slate-600">
        The store is taking a short break and could not load this page. Nothing is lost: please try again in a few seconds.
      </p>
      <Link to={`${location.pathname}${location.search}`} className={buttonClassName({ variant: 'primary', size: 'lg' })} reloadDocument>
        Try again
      </Link>
    </section>
  )
}

/** The fallback page for any other error. */
export function ErrorPage({ detail }: { detail: string }) {
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Unexpected Application Error!</h1>
      <p className="rounded-lg bg-red-50 px-4 py-2 font-mono text-sm break-words text-red-800">{detail}</p>
      <Link to="/" className={buttonClassName({ variant: 'secondary' })} reloadDocument>
        Go to the home page
      </Link>
    </section>
  )
}

export function GeneralErrorBoundary() {
  const error = useRouteError()
  const { status, detail } = describeError(error)
  if (status === 404) return <NotFoundPage />
  if (status === 503) return <UnavailablePage />
  return <ErrorPage detail={detail} />
}
