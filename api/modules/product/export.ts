/**
 * The product CSV export (GET /api/product/export; docs/product-csv.md): every product, published
 * or not, in the format the import reads (./csv.ts), streamed a page of EXPORT_PAGE products at a
 * time in id order (keyset paging), so memory stays flat whatever the catalogue's size and the
 * first bytes leave at once. Cells are guarded against formula injection (OWASP "CSV Injection").
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/query.ts'
import { csvText, productCells, type ExportProduct } from './csv.ts'
import { stockOf } from './stock.ts'

/** Products read per query while streaming. */
export const EXPORT_PAGE = 1000

/** One page of products after `afterId` (id order), with their category and sub category names in the admin's order. */
async function exportPage(db: Db, afterId: string): Promise<ExportProduct[]> {
  return queryRows<ExportProduct>(
    db,
    sql`select p.id, p.sku, p.name, p.unit, p.price, p.selling_price as "sellingPrice", ${stockOf()} as stock, p.publish,
               p.image, p.description, p.more_details as "moreDetails",
               coalesce((select array_agg(c.name order by l.position, l.category_id) from product_categories l
                         join categories c on c.id = l.category_id where l.product_id = p.id), '{}') as categories,
               coalesce((select array_agg(s.name order by l.position, l.sub_category_id) from product_sub_categories l
                         join sub_categories s on s.id = l.sub_category_id where l.product_id = p.id), '{}') as "subCategories"
        from products p where p.id > ${afterId} order by p.id limit ${EXPORT_PAGE}`,
  )
}

/**
 * The whole catalogue as a stream of CSV text (UTF-8, header first, CRLF line ends). A database
 * failure mid-way errors the stream (the client sees a cut-off download, never a partial file
 * that looks whole: the last line would lack its CRLF).
 */
export function exportProductsCsv(db: Db): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let afterId = ''
  let first = true
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await exportPage(db, afterId)
      if (page.length > 0 || first) controller.enqueue(encoder.encode(csvText(page.map(productCells), first)))
      first = false
      if (page.length < EXPORT_PAGE) controller.close()
      else afterId = page[page.length - 1]!.id
    },
  })
}
