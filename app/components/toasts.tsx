/**
 * Toasts (docs/product.md, "Toasts": success and error messages; docs/product.md, "Constants":
 * default 4000 ms, success 2000 ms, error 4000 ms, loading without end, at most 20, top-center).
 *
 * With JavaScript, react-hot-toast shows them. Without it, and until the page has hydrated, the same
 * message is rendered on the server as a fixed status box at the top centre, which fades out after
 * the same duration (app/app.css `.static-toast`), holds while pointed at or focused, and has a
 * close box that needs no script. Once hydrated, the box is replaced by the react-hot-toast, so a
 * shopper never sees the message twice. react-hot-toast itself is fetched with the first toast
 * (app/components/toast-host.tsx), which keeps it out of every page's first-load JavaScript.
 *
 * Sources: the root loader's flash toast (carried across redirects, app/.server/toast.ts) and action
 * data of a page (`<ToastNotice toast={actionData?.toast} />` or `useToastFromData`).
 */
import { lazy, Suspense, useEffect, useEffectEvent, useRef, useSyncExternalStore } from 'react'
import { cn } from './ui/cn.ts'
import { useIsStale } from './use-stale-reply.ts'
import { TOAST_DURATION_MS, type ToastMessage } from '../lib/toast.ts'

export { TOAST_DURATION_MS, TOAST_LIMIT } from '../lib/toast.ts'

type HostModule = typeof import('./toast-host.tsx')

// react-hot-toast is fetched on the first toast, not with the page (app/components/toast-host.tsx);
// the host mounts once it is here. A toast asked for before then waits for it, then shows.
let hostModule: Promise<HostModule> | null = null
let loadedHost: HostModule | null = null
const hostListeners = new Set<() => void>()
function loadHost(): Promise<HostModule> {
  hostModule ??= import('./toast-host.tsx').then((module) => {
    loadedHost = module
    for (const listener of hostListeners) listener()
    return module
  })
  return hostModule
}

/** Shows `toast` with react-hot-toast (browser only). Resolves with the react-hot-toast id. */
export async function showToast(toast: ToastMessage): Promise<string> {
  return (await loadHost()).show(toast)
}

/** Hides the toast `id` once react-hot-toast is here (browser only). */
export function dismissToast(id: string): void {
  void loadHost().then((host) => host.dismiss(id))
}

const subscribeNothing = () => () => {}
/** False on the server and during hydration, true after: the switch from static box to react-hot-toast. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  )
}

/**
 * Shows `toast` as a react-hot-toast once per distinct toast: keyed by its `id`, else by the object
 * itself (action data is a new object per submission). Nothing happens for null or undefined.
 * `isStale`: the toast no longer applies (its form was changed or sent again) and is dismissed; a
 * stale or superseded toast of a form is dismissed too when the next one comes or the page goes.
 */
export function useToastFromData(toast: ToastMessage | null | undefined, { isStale }: { isStale?: boolean } = {}): void {
  const key: unknown = toast ? (toast.id ?? toast) : null
  const shown = useRef<Promise<string> | null>(null)
  const followsForm = isStale !== undefined
  // `key` is the identity of the toast: re-rendering the same one must not show it again, so the
  // effect runs per key and reads the toast itself through an effect event.
  const show = useEffectEvent(() => {
    if (!toast) return undefined
    const id = showToast(toast)
    shown.current = id
    return followsForm ? () => void id.then(dismissToast) : undefined
  })
  useEffect(() => show(), [key])
  useEffect(() => {
    if (isStale && shown.current) void shown.current.then(dismissToast)
  }, [isStale])
}

/**
 * The server-rendered stand-in of a toast: a fixed, top-centre status box, green or red, under the
 * header (app/app.css `--toast-top`). A live
 * region (`alert` for an error, else `status`) unless `isEcho`: then the page already says the same
 * message in a live region of its own (a form's error list), so the box is only seen, hidden from
 * screen readers, which would otherwise announce the message twice (WCAG 2.2 SC 4.1.3).
 */
export function StaticToast({ toast, isEcho = false }: { toast: ToastMessage; isEcho?: boolean }) {
  const duration =
    toast.type === 'success' ? TOAST_DURATION_MS.success : toast.type === 'error' ? TOAST_DURATION_MS.error : TOAST_DURATION_MS.default
  return (
    <div className="pointer-events-none fixed inset-x-0 top-(--toast-top) z-[9999] flex justify-center px-4">
      <div
        role={isEcho ? undefined : toast.type === 'error' ? 'alert' : 'status'}
        aria-hidden={isEcho ? true : undefined}
        data-toast-type={toast.type}
        style={{ '--toast-duration': `${duration}ms` } as React.CSSProperties}
        className={cn(
          'static-toast pointer-events-auto flex max-w-md items-center gap-2 rounded-lg border px-4 py-3 text-sm font-medium shadow-lg',
          toast.type === 'success' && 'border-green-300 bg-green-50 text-green-900',
          toast.type === 'error' && 'border-red-300 bg-red-50 text-red-900',
          toast.type === 'message' && 'border-slate-200 bg-white text-slate-900',
        )}
      >
        <span aria-hidden="true" className="text-base">
          {toast.type === 'success' ? '✓' : toast.type === 'error' ? '!' : 'i'}
        </span>
        <span className="flex-1">{toast.message}</span>
        {/* A close control that works without JavaScript: checking the box hides the toast (app.css). */}
        <label className="-my-2 -mr-2 grid size-9 shrink-0 cursor-pointer place-items-center rounded-full hover:bg-black/5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-current">
          {/* Out of the tab order when the box is hidden from screen readers (axe `aria-hidden-focus`). */}
          <input type="checkbox" className="toast-dismiss sr-only" aria-label="Dismiss message" tabIndex={isEcho ? -1 : undefined} />
          <span aria-hidden="true" className="text-lg leading-none">
            ×
          </span>
        </label>
      </div>
    </div>
  )
}

/**
 * One toast from data (the root's flash toast, a page's action data): the static box on the server
 * and before hydration, a react-hot-toast after. `shownInForm`: the messages the page renders at the
 * same time in its form's own `role="alert"` list; a toast saying one of them is not announced again
 * (StaticToast `isEcho`). Pass only what is really rendered (e.g. not when the form's dialog is closed).
 * `formId`: the form whose submission this toast answers; it is dismissed once that form is changed
 * or sent again (app/components/use-stale-reply.ts), and when the page goes.
 */
export function ToastNotice({
  toast,
  shownInForm,
  formId,
}: {
  toast: ToastMessage | null | undefined
  shownInForm?: ReadonlyArray<string | null | undefined> | null
  formId?: string | null
}) {
  const hydrated = useHydrated()
  const isStale = useIsStale(formId, toast)
  useToastFromData(hydrated ? toast : null, formId ? { isStale } : {})
  if (!toast || hydrated || isStale) return null
  return <StaticToast toast={toast} isEcho={Boolean(shownInForm?.includes(toast.message))} />
}

const subscribeHost = (listener: () => void) => {
  hostListeners.add(listener)
  return () => {
    hostListeners.delete(listener)
  }
}
// Rendered only once the module is here (`loadedHost`), so it never suspends.
const LoadedToastHost = lazy(() => loadHost().then((host) => ({ default: host.ToastHost })))

/** The root's toast layer: the react-hot-toast host (browser only, once a toast was shown) plus the flash toast of this page. */
export function Toasts({ toast }: { toast: ToastMessage | null }) {
  const hostLoaded = useSyncExternalStore(
    subscribeHost,
    () => loadedHost !== null,
    () => false,
  )
  return (
    <>
      {hostLoaded ? (
        <Suspense fallback={null}>
          <LoadedToastHost />
        </Suspense>
      ) : null}
      <ToastNotice toast={toast} />
    </>
  )
}
