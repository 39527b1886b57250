/**
 * The shape of a message for the shopper (docs/decisions/0007-progressive-enhancement.md: toasts
 * travel in the session's flash across redirects, or in an action's data), shared by the server that
 * queues it and the page that shows it (app/components/toasts.tsx).
 */

/** A success, error or plain message. `id`, when given, makes it show once even if rendered again. */
export interface ToastMessage {
  type: 'success' | 'error' | 'message'
  message: string
  id?: string
}

/** How long each kind of toast stays, in ms (docs/product.md, "Constants"). */
export const TOAST_DURATION_MS = { default: 4000, success: 2000, error: 4000, loading: Number.POSITIVE_INFINITY } as const
/** At most 20 toasts at once (docs/product.md, "Constants"). */
export const TOAST_LIMIT = 20
