/**
 * /dashboard/stores/:storeId/stock/export (admin or staff; docs/store-stock-csv.md): the store's
 * stock as CSV, by SKU. A resource route, GET only: the API's CSV (GET /api/inventory/export) is
 * streamed on to the browser as `text/csv` with `Content-Disposition: attachment`, never read whole
 * here. A shopper gets 403 (the API decides too), an unknown store 404, an API that cannot be reached 503.
 */
import { data } from 'react-router'
import type { Route } from './+types/export'
import { exportStockCsv } from '../../../../../.server/api/stock-csv.ts'
import { requireStaff } from '../../../../../.server/auth.ts'
import { getSession } from '../../../../../.server/context.ts'
import { csvDownload } from '../../../../../.server/csv-download.ts'
import { apiOf } from '../../../../../.server/api-context.ts'

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const api = apiOf(context)
  const { isStaff } = await requireStaff(context, url)
  if (!isStaff) throw data('Do not have permission', { status: 403 })
  const answer = await exportStockCsv(api, getSession(context), params.storeId)
  return csvDownload(answer, 'stock.csv')
}
