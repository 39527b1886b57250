/**
 * Toasts across redirects (docs/product.md, "Toasts"): a route queues a toast in the session's flash,
 * the root loader takes it and the page renders it, as a react-hot-toast with JavaScript and as a
 * plain status box without.
 */
import { redirect } from 'react-router'
import type { RequestSession, Toast } from './session.ts'

/** Queues `toast` and answers a redirect to `to` (the middleware commits the cookie). */
export function redirectWithToast(session: RequestSession, to: string, toast: Toast, init?: ResponseInit) {
  session.flashToast(toast)
  return redirect(to, init)
}
