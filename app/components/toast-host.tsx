/**
 * The react-hot-toast half of the toasts (app/components/toasts.tsx), in a module of its own so the
 * library (with its CSS-in-JS engine, about 4.5 KB gzip) is fetched the first time a toast is shown,
 * not with every page (first-load JavaScript, docs/decisions/0018-page-cache.md).
 */
import { useEffect } from 'react'
import { toast, Toaster, useToasterStore } from 'react-hot-toast'
import { TOAST_DURATION_MS, TOAST_LIMIT, type ToastMessage } from '../lib/toast.ts'

/** Where the toaster's column starts: the same offset as the server-rendered toast's. */
const TOASTER_PLACE = { top: 'var(--toast-top)' }

/** Shows `message` with react-hot-toast. Returns the react-hot-toast id. */
export function show(message: ToastMessage): string {
  const options = message.id ? { id: message.id } : undefined
  if (message.type === 'success') return toast.success(message.message, options)
  if (message.type === 'error') return toast.error(message.message, options)
  return toast(message.message, options)
}

/** Hides the toast `id` (a no-op when it is gone). */
export function dismiss(id: string): void {
  toast.dismiss(id)
}

/**
 * Dismisses the oldest visible toasts beyond TOAST_LIMIT. react-hot-toast 2.x happens to keep 20 in
 * its store too, but that is an internal default without an option; our limit (docs/product.md,
 * "Constants") is set here.
 */
function useToastLimit(limit: number) {
  const { toasts } = useToasterStore()
  useEffect(() => {
    toasts
      .filter((t) => t.visible)
      .slice(limit) // the store lists the newest first
      .forEach((t) => toast.dismiss(t.id))
  }, [toasts, limit])
}

/**
 * The toaster: top-centre under the header (app/app.css `--toast-top`: never over its search field),
 * the durations of docs/product.md, "Constants".
 */
export function ToastHost() {
  useToastLimit(TOAST_LIMIT)
  return (
    <Toaster
      position="top-center"
      containerStyle={TOASTER_PLACE}
      toastOptions={{
        duration: TOAST_DURATION_MS.default,
        success: { duration: TOAST_DURATION_MS.success },
        error: { duration: TOAST_DURATION_MS.error },
        loading: { duration: TOAST_DURATION_MS.loading },
        className: 'text-sm font-medium',
      }}
    />
  )
}
