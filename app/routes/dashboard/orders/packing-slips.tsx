/**
 * /dashboard/orders/packing-slips (admin or staff; docs/commerce-api.md, "Packing slips"): printable
 * packing slips, either
 * - `?storeId=<id>`: every order of that store in status `packed` (contract/order-status.ts), oldest
 *   first, at most BULK_ORDERS_MAX (the page says how many more wait), linked from the orders list
 *   when one store is filtered; or
 * - `?ids=…`: the orders named (`ids` repeated, as the orders list's ticked rows send them, or
 *   comma-separated; an order's `_id` or number; at most BULK_ORDERS_MAX), as one order's page links it.
 * Each slip (app/components/packing-slip.tsx) has the order number's Code 128 barcode, drawn here on
 * the server as SVG (app/.server/barcode.ts), and its lines in pick order (category, sub category,
 * product name: the API's rule, api/modules/order/packing-slips.ts). The print stylesheet prints only
 * the slips, one a page. Works without JavaScript; "Print" is the browser's.
 * Errors: 400 for neither or both of `storeId` and `ids`, or too many ids; 403 for a shopper (the
 * permission box); 404 for an unknown store or no such orders.
 */
import { data, Link } from 'react-router'
import type { Route } from './+types/packing-slips'
import { BULK_ORDERS_MAX, packingSlips } from '../../../.server/api/order.ts'
import { failureMessage } from '../../../.server/failure.ts'
import { requireStaff } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { code128Svg } from '../../../.server/barcode.ts'
import { RoleGuard } from '../../../components/admin-guard.tsx'
import { GeneralErrorBoundary } from '../../../components/error-boundary.tsx'
import { SHOP_NAME } from '../../../components/header.tsx'
import { PACKING_SLIP_PRINT_CSS, PackingSlipCard, type SlipBarcode } from '../../../components/packing-slip.tsx'
import type { PackingSlip } from '../../../../contract/order.ts'
import { apiOf } from '../../../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [{ title: `Packing slips | ${SHOP_NAME}` }, { name: 'robots', content: 'noindex' }]

/** The order refs of `search`: every `ids` value, each split at commas, trimmed, without repeats. */
export function slipIds(search: URLSearchParams): string[] {
  const ids = search
    .getAll('ids')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  return [...new Set(ids)]
}

/** A slip as the page shows it: the order and its number's barcode (null when it cannot be drawn). */
interface ShownSlip {
  order: PackingSlip
  barcode: SlipBarcode | null
}

/** The order number's barcode, or null for a number Code 128 cannot carry (never ours: "OD" and digits). */
function barcodeOf(orderNumber: string): SlipBarcode | null {
  try {
    return code128Svg(orderNumber)
  } catch {
    return null
  }
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  const none = { isStaff: false, slips: [] as ShownSlip[], missing: [] as string[], totalCount: 0, storeName: null as string | null }
  if (!isStaff) return data(none, { status: 403 })
  const storeId = url.searchParams.get('storeId')?.trim() || undefined
  const ids = slipIds(url.searchParams)
  if (storeId && ids.length > 0) throw data('Print either one store’s packed orders or the ticked orders, not both', { status: 400 })
  if (!storeId && ids.length === 0) throw data('Tick at least one order, or choose a store, to print packing slips', { status: 400 })
  if (ids.length > BULK_ORDERS_MAX) throw data(`Print at most ${BULK_ORDERS_MAX} packing slips at a time`, { status: 400 })
  const result = await packingSlips(api, getSession(context), storeId ? { storeId } : { orderIds: ids })
  if (!result.ok) throw data(failureMessage(result), { status: result.status })
  const { slips, missing, totalCount } = result.data
  if (!storeId && slips.length === 0) throw data('No such orders', { status: 404 })
  return {
    isStaff: true,
    slips: slips.map((order) => ({ order, barcode: barcodeOf(order.orderId) })),
    missing,
    totalCount,
    storeName: storeId ? (slips[0]?.store.name ?? null) : null,
    storeId: storeId ?? null,
  }
}

export default function PackingSlips({ loaderData }: Route.ComponentProps) {
  const { isStaff, slips, missing, totalCount, storeName } = loaderData
  const storeId = 'storeId' in loaderData ? loaderData.storeId : null
  return (
    <RoleGuard allowed={isStaff}>
      <style>{PACKING_SLIP_PRINT_CSS}</style>
      <section className="packing-slips flex min-w-0 flex-col gap-4 p-4 md:p-6">
        <div className="no-print flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-lg font-semibold break-words text-slate-900">
            Packing slips ({slips.length}){storeId ? ` · packed orders${storeName ? ` of ${storeName}` : ''}` : ''}
          </h1>
          <Link
            to={storeId ? `/dashboard/orders?${new URLSearchParams({ store: storeId, status: 'packed' })}` : '/dashboard/orders'}
            className="text-sm font-semibold text-accent hover:underline"
          >
            ‹ Orders
          </Link>
        </div>
        <p className="no-print text-sm text-slate-600">
          Print this page (Ctrl+P): each slip prints on its own page. Lines are in pick order: by category, then sub category, then name.
        </p>
        {storeId && slips.length === 0 ? (
          <p role="status" className="no-print rounded-lg border border-slate-200 bg-slate-50 p-2 text-sm">
            No packed orders at this store.
          </p>
        ) : null}
        {totalCount > slips.length ? (
          <p role="status" className="no-print rounded-lg border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">
            The {slips.length} oldest of {totalCount} packed orders: print these, send them out, then reload for the rest.
          </p>
        ) : null}
        {missing.length > 0 ? (
          <p role="alert" className="no-print rounded-lg border border-amber-200 bg-amber-50 p-2 text-sm break-words text-amber-900">
            Not found: {missing.join(', ')}
          </p>
        ) : null}
        {slips.map(({ order, barcode }) => (
          <PackingSlipCard key={order._id} order={order} barcode={barcode} />
        ))}
      </section>
    </RoleGuard>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
