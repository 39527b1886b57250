/**
 * /dashboard/dispatch (ADMIN or STAFF; docs/delivery.md, "Dispatch board"): per store, the packed
 * orders waiting for a rider, oldest first (one a rider could not deliver shows the reason), and the
 * store's riders, on shift first, with what each holds. An admin gives a packed order to an on-shift
 * rider of its store, or puts it back in the queue (a plain POST form answered by a redirect with a
 * toast, so it works without JavaScript).
 *
 * Live: the admin order pages have no stream of their own (the live status stream is the shopper's
 * page's, one order at a time), so the board reloads its data every 10 seconds while the tab is
 * visible with JavaScript, and without JavaScript the page refreshes itself every 20 seconds (a
 * `<noscript>` meta refresh) and has a Refresh link.
 */
import { useEffect } from 'react'
import { data, Form, Link, useNavigation, useRevalidator } from 'react-router'
import type { Route } from './+types/dispatch'
import * as dispatchApi from '../../.server/api/dispatch.ts'
import { apiOf } from '../../.server/api-context.ts'
import { requireStaff } from '../../.server/auth.ts'
import { getSession } from '../../.server/context.ts'
import { throwFailure } from '../../.server/failure.ts'
import { readText, tryReadForm } from '../../.server/form.ts'
import { redirectWithToast } from '../../.server/toast.ts'
import { RoleGuard } from '../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../components/header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { formatOrderTime } from '../../lib/order-status.ts'
import type { DispatchBoard } from '../../../contract/rider.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Dispatch | ${SHOP_NAME}` },
  { name: 'description', content: 'Waiting orders and riders per store.' },
  { name: 'robots', content: 'noindex' },
]

const DISPATCH_PATH = '/dashboard/dispatch'
/** How often the board reloads with JavaScript, in ms, and refreshes itself without, in seconds. */
const RELOAD_MS = 10_000
const REFRESH_SECONDS = 20

/** The board for an admin or staff (staff: their store only, as the API answers); anyone else: the red box with 403. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { isStaff, isAdmin } = await requireStaff(context, url)
  if (!isStaff) return data({ isStaff: false as const, isAdmin: false, board: [] as DispatchBoard }, { status: 403 })
  const board = await dispatchApi.dispatchBoard(apiOf(context), getSession(context))
  if (!board.ok) throwFailure(board)
  return data({ isStaff: true as const, isAdmin, board: board.data }, { headers: { 'Cache-Control': 'no-store' } })
}

/** `assign` (ADMIN, checked by the API too): `orderId` and `riderId` ('' puts it back in the queue). */
export async function action({ request, context, url }: Route.ActionArgs) {
  const { isAdmin } = await requireStaff(context, url)
  const session = getSession(context)
  if (!isAdmin) throw data('Do not have permission', { status: 403 })
  const read = await tryReadForm(request, { multipartMaxBytes: 16 * 1024 })
  if (!read.ok) return redirectWithToast(session, DISPATCH_PATH, { type: 'error', message: read.message })
  const orderId = readText(read.formData, 'orderId')
  const riderId = readText(read.formData, 'riderId') || null
  const result = await dispatchApi.assignRider(apiOf(context), session, { orderId, riderId })
  if (!result.ok) return redirectWithToast(session, DISPATCH_PATH, { type: 'error', message: result.message })
  const message = result.data.riderId ? 'Rider assigned' : 'Back in the queue: no free rider yet'
  return redirectWithToast(session, DISPATCH_PATH, { type: 'success', message })
}

/** Reloads the board every RELOAD_MS while the tab is visible and nothing is being sent. */
function useLiveBoard() {
  const { revalidate, state } = useRevalidator()
  const navigation = useNavigation()
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible' && state === 'idle' && navigation.state === 'idle') void revalidate()
    }, RELOAD_MS)
    return () => window.clearInterval(timer)
  }, [revalidate, state, navigation.state])
}

export default function DispatchPage({ loaderData }: Route.ComponentProps) {
  const { isStaff, isAdmin, board } = loaderData
  useLiveBoard()
  return (
    <RoleGuard allowed={isStaff}>
      <noscript>
        <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
      </noscript>
      <section className="p-4 md:p-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-lg font-semibold text-slate-900">Dispatch</h1>
          <a href={DISPATCH_PATH} className="text-sm font-semibold text-accent hover:underline">
            Refresh
          </a>
        </div>
        <p className="mb-3 text-sm text-slate-600">
          A packed order goes to the store&apos;s free rider on shift who has waited longest. Orders wait here while no rider is free.
        </p>
        <div className="grid gap-4 lg:grid-cols-2">
          {board.map((entry) => (
            <StoreBoard key={entry.store._id} entry={entry} isAdmin={isAdmin} />
          ))}
        </div>
      </section>
    </RoleGuard>
  )
}

type StoreEntry = DispatchBoard[number]
type BoardOrder = StoreEntry['waiting'][number]

/** One store: its waiting orders and its riders. */
function StoreBoard({ entry, isAdmin }: { entry: StoreEntry; isAdmin: boolean }) {
  const onShift = entry.riders.filter((r) => r.onShift)
  return (
    <article
      data-card="dispatch-store"
      data-store-id={entry.store._id}
      aria-label={entry.store.name}
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 className="font-semibold text-slate-900">{entry.store.name}</h2>
      <h3 className="mt-3 text-sm font-semibold text-slate-700">Waiting ({entry.waiting.length})</h3>
      {entry.waiting.length === 0 ? (
        <p className="text-sm text-slate-500">No order waiting.</p>
      ) : (
        <ul aria-label={`Waiting at ${entry.store.name}`} className="mt-1 grid gap-2">
          {entry.waiting.map((order) => (
            <li key={order._id} data-order-id={order._id} className="rounded-lg border border-slate-200 p-2 text-sm">
              <OrderLine order={order} />
              {isAdmin ? <AssignForm order={order} riders={onShift} /> : null}
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-3 text-sm font-semibold text-slate-700">Riders ({onShift.length} on shift)</h3>
      {entry.riders.length === 0 ? (
        <p className="text-sm text-slate-500">No rider in this store.</p>
      ) : (
        <ul aria-label={`Riders of ${entry.store.name}`} className="mt-1 grid gap-2">
          {entry.riders.map((rider) => (
            <li key={rider._id} data-rider-id={rider._id} className="rounded-lg border border-slate-200 p-2 text-sm">
              <p className="font-medium break-words text-slate-900">
                {rider.name}{' '}
                <span className="font-normal text-slate-600">
                  {rider.onShift
                    ? rider.freeSince
                      ? `free since ${formatOrderTime(rider.freeSince)}`
                      : `holding ${rider.orders.length}`
                    : 'off shift'}
                </span>
              </p>
              {rider.orders.map((order) => (
                <div key={order._id} data-order-id={order._id} className="mt-1">
                  <OrderLine order={order} />
                  {isAdmin && order.status === 'packed' ? <AssignForm order={order} riders={onShift} current={rider._id} /> : null}
                </div>
              ))}
            </li>
          ))}
        </ul>
      )}
    </article>
  )
}

/** An order's number (a link to its page), its status and age, and a rider's reason when handed back. */
function OrderLine({ order }: { order: BoardOrder }) {
  return (
    <>
      <p className="flex flex-wrap items-center gap-x-2">
        <Link to={`/dashboard/orders/${order._id}`} className="font-semibold text-accent hover:underline">
          {order.orderId}
        </Link>
        <span className="text-slate-600">
          {order.status === 'out_for_delivery' ? 'out for delivery' : 'packed'} · placed {formatOrderTime(order.createdAt)}
        </span>
      </p>
      {order.deliveryIssue ? (
        <p data-field="delivery-issue" className="text-red-700">
          Could not deliver: {order.deliveryIssue}
        </p>
      ) : null}
    </>
  )
}

/** An admin's reassignment: an on-shift rider of the store, or back to the queue. */
function AssignForm({ order, riders, current }: { order: BoardOrder; riders: StoreEntry['riders']; current?: string }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('orderId') === order._id
  const choices = riders.filter((r) => r._id !== current)
  return (
    <Form method="post" action={DISPATCH_PATH} className="mt-1 flex flex-wrap items-center gap-2" aria-label={`Rider for ${order.orderId}`}>
      <input type="hidden" name="orderId" value={order._id} />
      <label className="sr-only" htmlFor={`rider-${order._id}`}>
        Rider for {order.orderId}
      </label>
      <select
        id={`rider-${order._id}`}
        name="riderId"
        defaultValue=""
        className="min-h-11 max-w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2"
      >
        <option value="">{current ? 'Back to the queue' : 'Queue (the rule decides)'}</option>
        {choices.map((r) => (
          <option key={r._id} value={r._id}>
            {r.name}
          </option>
        ))}
      </select>
      <Button type="submit" size="sm" variant="secondary" disabled={busy}>
        Assign
      </Button>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
