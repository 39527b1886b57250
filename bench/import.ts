/**
 * `npx tsx bench/import.ts`: the product CSV import at volume on PostgreSQL (docs/product-csv.md,
 * "Performance"; target: 10,000 rows in under 30 s). On a fresh database of the server named by
 * BENCH_DATABASE_URL or TEST_DATABASE_URL (created and dropped, as the API tests do), with 11
 * categories, 330 sub categories and one stored image, an in-process API checks and then applies:
 *
 * 1. a file of BENCH_ROWS (10,000) new products (dry run, then apply: all created);
 * 2. the export of that catalogue, read back (all unchanged);
 * 3. the same file with every price and stock changed (all updated).
 *
 * Prints the wall time of each step in milliseconds. Without a PostgreSQL URL it runs on PGlite and
 * says so. Not part of `npm test`.
 */
import { performance } from 'node:perf_hooks'
import { createTestApp } from '../api/testing/app.ts'
import { createAdmin } from '../api/testing/auth.ts'
import { insertCategory, insertSubCategory, storeTestImage } from '../api/testing/fixtures.ts'
import { CSV_COLUMNS, csvText } from '../api/modules/product/csv.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000)
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
if (serverUrl) process.env.TEST_DATABASE_URL = serverUrl

const t = await createTestApp()
try {
  const admin = await createAdmin(t)
  const image = await storeTestImage(t)
  const shelves: { category: string; sub: string }[] = []
  for (let c = 0; c < 11; c++) {
    const category = await insertCategory(t.db, { name: `Category ${c}`, image })
    for (let s = 0; s < 30; s++) {
      const sub = await insertSubCategory(t.db, { name: `Shelf ${c}-${s}`, image, categoryIds: [category.id] })
      shelves.push({ category: category.name, sub: sub.name })
    }
  }

  /** BENCH_ROWS rows of the full format; `bump` moves every price and stock. */
  const file = (bump: number) => {
    const rows = Array.from({ length: ROWS }, (_, i) => {
      const shelf = shelves[i % shelves.length]!
      const mrp = 20 + (i % 500) + bump
      const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
        sku: `BENCH-${i}`,
        id: '',
        name: `Bench product ${i} masala ${i % 97}`,
        brand: `Brand ${i % 120}`,
        unit: `${100 + (i % 9) * 50} g`,
        mrp: mrp.toFixed(2),
        selling_price: (mrp * 0.9).toFixed(2),
        stock: String((i * 7 + bump) % 500),
        publish: 'true',
        categories: shelf.category,
        sub_categories: shelf.sub,
        images: image,
        description: `A product for the import bench, number ${i}, with a description of ordinary length.`,
        more_details: '{"Shelf Life":"6 months"}',
        hsn: '',
      }
      return CSV_COLUMNS.map((c) => cells[c])
    })
    return csvText(rows, true)
  }

  const timed = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    const result = await fn()
    console.log(`${label}: ${Math.round(performance.now() - started)} ms`)
    return result
  }
  const dryRun = async (text: string) => {
    const form = new FormData()
    form.append('file', new File([text], 'bench.csv', { type: 'text/csv' }))
    const res = await t.call('product/import', { method: 'POST', body: form, token: admin.token })
    if (res.status !== 200 || res.body.data.errorCount > 0) throw new Error(JSON.stringify(res.body).slice(0, 500))
    return res.body.data as { upload: string; counts: unknown }
  }
  const apply = async (upload: string) => {
    const res = await t.call('product/import/apply', { method: 'POST', json: { upload }, token: admin.token })
    if (res.status !== 200) throw new Error(JSON.stringify(res.body).slice(0, 500))
    return res.body.data.counts
  }

  console.log(`product CSV import bench: ${ROWS} rows on ${t.kind}`)
  const created = file(0)
  console.log(`file: ${(created.length / 1024 / 1024).toFixed(1)} MB`)
  const check1 = await timed('1. dry run (all new)', () => dryRun(created))
  console.log('   ', JSON.stringify(await timed('1. apply (create)', () => apply(check1.upload))))
  const exported = await timed('2. export', async () => {
    const res = await t.app.request('/api/product/export', { headers: { Authorization: `Bearer ${admin.token}` } })
    return res.text()
  })
  console.log('   ', JSON.stringify((await timed('2. dry run of the export (all unchanged)', () => dryRun(exported))).counts))
  const changed = file(3)
  const check3 = await timed('3. dry run (all changed)', () => dryRun(changed))
  console.log('   ', JSON.stringify(await timed('3. apply (update)', () => apply(check3.upload))))
} finally {
  await t.close()
}
