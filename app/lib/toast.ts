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
