/**
 * The product CSV export (GET /api/product/export; docs/product-csv.md): every product, published
 * or not, in the format the import reads (./csv.ts), streamed a page of EXPORT_PAGE products at a
 * time in id order (keyset paging), so memory stays flat whatever the catalogue's size and the
 * first bytes leave at once. Cells are guarded against formula injection (OWASP "CSV Injection").
 * The grid's filters (./admin-list.ts `adminProductWhere`) narrow it to the products the grid shows.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { csvText, productCells, type ExportProduct } from './csv.ts'
import { stockOf } from './stock.ts'
import { adminProductWhere } from './admin-list.ts'
import type { AdminProductFilter } from '../../../contract/product-admin.ts'

/** Products read per query while streaming. */
export const EXPORT_PAGE = 1000

/**
 * One page of the products `where` selects after `afterId` (id order), with their category and sub
 * category names in the admin's order.
 */
async function exportPage(db: Db, afterId: string, where: SQL): Promise<ExportProduct[]> {
  // raw SQL: each product with its ordered category and sub category names (correlated array_agg), keyset paged
  return queryRows<ExportProduct>(
    db,
    sql`select p.id, p.sku, p.name, p.unit, p.price as mrp, p.selling_price as "sellingPrice", ${stockOf()} as stock, p.publish,
               p.image, p.description, p.more_details as "moreDetails", p.hsn,
               coalesce((select array_agg(c.name order by l.position, l.category_id) from product_categories l
                         join categories c on c.id = l.category_id where l.product_id = p.id), '{}') as categories,
               coalesce((select array_agg(s.name order by l.position, l.sub_category_id) from product_sub_categories l
                         join sub_categories s on s.id = l.sub_category_id where l.product_id = p.id), '{}') as "subCategories"
        from products p where p.id > ${afterId} and ${where} order by p.id limit ${EXPORT_PAGE}`,
  )
}

/**
 * The whole catalogue as a stream of CSV text (UTF-8, header first, CRLF line ends). A database
 * failure mid-way errors the stream (the client sees a cut-off download, never a partial file
 * that looks whole: the last line would lack its CRLF). `filter`: the grid's filters (its sort is
 * not used: the export is always in id order); none exports every product.
 */
export function exportProductsCsv(db: Db, filter: Partial<AdminProductFilter> = {}): ReadableStream<Uint8Array> {
  const where = adminProductWhere(filter)
  const encoder = new TextEncoder()
  let afterId = ''
  let first = true
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await exportPage(db, afterId, where)
      if (page.length > 0 || first) controller.enqueue(encoder.encode(csvText(page.map(productCells), first)))
      first = false
      if (page.length < EXPORT_PAGE) controller.close()
      else afterId = page[page.length - 1]!.id
    },
  })
}
