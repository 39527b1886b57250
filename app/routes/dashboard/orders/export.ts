/**
 * /dashboard/orders/export (admin or staff; docs/commerce-api.md, "Admin orders at volume"): the CSV of every
 * order the list's filters select (`?q=&status=&from=&to=&sort=`, as on /dashboard/orders), or with
 * `?rows=lines` one row per order line (`ORDER_EXPORT_ROWS_PARAM`). A resource
 * route, GET only: the API's CSV (GET /api/order/admin/export) is streamed on to the browser as
 * `text/csv` with `Content-Disposition: attachment`, never read whole here. A non-admin gets 403 (the
 * API decides too), a filter the schema refuses 400, an API that cannot be reached 503.
 */
import { data } from 'react-router'
import type { Route } from './+types/export'
import { AdminOrderFilterSchema, exportOrdersCsv } from '../../../.server/api/order.ts'
import { requireStaff } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { csvDownload } from '../../../.server/csv-download.ts'
import { apiOf } from '../../../.server/api-context.ts'
import { ORDER_EXPORT_ROWS_PARAM as ROWS_PARAM } from '../../../lib/order-filters.ts'

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) throw data('Do not have permission', { status: 403 })
  const raw = Object.fromEntries(
    [...url.searchParams].filter(([key, value]) => key !== 'page' && key !== ROWS_PARAM && value.trim() !== ''),
  )
  const filter = AdminOrderFilterSchema.safeParse(raw)
  if (!filter.success) throw data(filter.error.issues[0]!.message, { status: 400 })
  const lines = url.searchParams.get(ROWS_PARAM) === 'lines'
  const answer = await exportOrdersCsv(api, getSession(context), filter.data, lines ? 'lines' : 'orders')
  return csvDownload(answer, lines ? 'order-lines.csv' : 'orders.csv')
}
