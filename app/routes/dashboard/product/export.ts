/**
 * /dashboard/product/export (admin; docs/product-csv.md, "The admin grid"): the CSV of the products
 * the grid's filters select (`?q=&stock=&category=&subCategory=&brand=`, as on /dashboard/product;
 * no filter: every product), in the format /dashboard/product/import reads back unchanged. A resource
 * route, GET only: the API's CSV (GET /api/product/export) is streamed on to the browser as
 * `text/csv` with `Content-Disposition: attachment`, never read whole here. A non-admin gets 403 (the
 * API decides too), a filter the schema refuses 400, an API that cannot be reached 503.
 */
import { data } from 'react-router'
import type { Route } from './+types/export'
import { exportProductsCsv } from '../../../.server/api/product-admin.ts'
import { requireAdmin } from '../../../.server/auth.ts'
import { getSession } from '../../../.server/context.ts'
import { csvDownload } from '../../../.server/csv-download.ts'
import { readProductGrid } from '../../../lib/product-grid.ts'
import { apiOf } from '../../../.server/api-context.ts'

export async function loader({ context, url }: Route.LoaderArgs) {
  const api = apiOf(context)
  await requireAdmin(context, url)
  const { filter, errors } = readProductGrid(url.searchParams)
  if (errors.length > 0) throw data(errors[0]!, { status: 400 })
  const answer = await exportProductsCsv(api, getSession(context), filter)
  return csvDownload(answer, 'products.csv')
}
