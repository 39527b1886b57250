/**
 * A cart-notice source for tests (app/.server/cart-cache.ts `CartNoticeSource`) that the test
 * drives by hand with `send(ownerKey)`, or `send(null)` for "everything", as the database's notices
 * (api/lib/cart-notices.ts) would.
 */
export function handNotices() {
  const listeners = new Set<(key: string | null) => void>()
  return {
    subscribe(listener: (key: string | null) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    send: (key: string | null) => listeners.forEach((l) => l(key)),
  }
}
