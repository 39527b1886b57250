/**
 * The CSV exports as a spreadsheet opens them (api/lib/csv-cells.ts; docs/commerce-api.md, "Admin
 * orders at volume"; docs/product-csv.md): the orders export, its lines export and the product export
 * of a fresh database, with a shopper, an address and a product named in Hindi, are converted by
 * LibreOffice Calc (`soffice --headless`, Debian's libreoffice-calc-nogui, installed by .ci/run) with
 * its CSV filter set to UTF-8, as a user picks "Unicode (UTF-8)" in its text import dialog. The
 * converted sheets must hold ₹ in the headers and the Hindi text intact, the byte order mark dropped
 * (the first header reads as itself), the amounts read as numbers, and a formula-like name shown as
 * text, never run.
 *
 * Without `soffice` on the machine the test is skipped with the reason; `npm test` in CI has it.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../db/schema.ts'
import { createTestApp, type TestApp } from '../testing/app.ts'
import { createAdmin, type SignedIn } from '../testing/auth.ts'
import { insertProduct } from '../testing/fixtures.ts'
import { createShopperWithAddress, placeWithKey } from '../testing/orders.ts'

const run = promisify(execFile)
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice'
const hasSoffice = fs.existsSync(SOFFICE)
/** LibreOffice's CSV import filter: comma, double quote, UTF-8, from line 1 (LibreOffice Help, "Filter Options for the CSV Filter"). */
const CSV_UTF8_FILTER = 'Text - txt - csv (StarCalc):44,34,76,1'

const HINDI_NAME = 'आशा राव'
const HINDI_PRODUCT = 'तूर दाल'
const FORMULA_NAME = '=HYPERLINK("http://evil.example","x")'

let t: TestApp
let admin: SignedIn
let dir: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csv-sheet-'))
  const product = await insertProduct(t.db, { name: HINDI_PRODUCT, unit: '1 kg', price: 180, sellingPrice: 150, stock: 10 })
  for (const name of [HINDI_NAME, FORMULA_NAME]) {
    const who = await createShopperWithAddress(t)
    await t.db.update(users).set({ name }).where(eq(users.id, who.user.id))
    expect((await t.call('cart/create', { method: 'POST', json: { productId: product.id }, token: who.token })).status).toBe(200)
    expect((await placeWithKey(t, who, `sheet-${name.length}-${process.pid}`)).status).toBe(201)
  }
}, 180_000)
afterAll(async () => {
  await t?.close()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

/** Saves the export at `url` (admin) as `name`.csv. */
async function save(url: string, name: string): Promise<string> {
  const res = await t.app.request(url, { headers: { Authorization: `Bearer ${admin.token}` } })
  expect(res.status).toBe(200)
  const file = path.join(dir, `${name}.csv`)
  fs.writeFileSync(file, new Uint8Array(await res.arrayBuffer()))
  return file
}

/** The cells of LibreOffice's HTML rendering of a sheet, row by row, as text (entities decoded). */
function cellsOf(html: string): { text: string; number: string | null }[][] {
  const decode = (s: string) =>
    s
      .replace(/<[^>]+>/g, '')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
      .replace(/&amp;/g, '&')
      .trim()
  return [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)].map(([, attrs, inner]) => ({
      text: decode(inner!),
      number: /sdval="([^"]+)"/.exec(attrs!)?.[1] ?? null,
    })),
  )
}

describe.skipIf(!hasSoffice)('the CSV exports in LibreOffice Calc', () => {
  it('keep ₹ and Hindi, drop the byte order mark, read amounts as numbers and never run a formula', async () => {
    const files = [
      await save('/api/order/admin/export?sort=oldest', 'orders'),
      await save('/api/order/admin/export/lines?sort=oldest', 'lines'),
      await save('/api/product/export', 'products'),
    ]
    await run(
      SOFFICE,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        `--infilter=${CSV_UTF8_FILTER}`,
        '--convert-to',
        'html',
        '--outdir',
        dir,
        ...files,
      ],
      { timeout: 120_000 },
    )
    const sheet = (name: string) => cellsOf(fs.readFileSync(path.join(dir, `${name}.html`), 'utf8'))

    const orders = sheet('orders')
    const header = orders[0]!.map((c) => c.text)
    expect(header[0]).toBe('Order number')
    expect(header).toContain('Grand total (₹)')
    const byName = (name: string) => orders.find((row) => row[header.indexOf('Customer')]!.text.endsWith(name))!
    const hindi = byName(HINDI_NAME)
    expect(hindi[header.indexOf('Customer')]!.text).toBe(HINDI_NAME)
    expect(Number(hindi[header.indexOf('Grand total (₹)')]!.number)).toBeGreaterThan(0)
    // Guarded: the cell is the text with its leading apostrophe, not a formula's result.
    const formula = byName(FORMULA_NAME)[header.indexOf('Customer')]!
    expect(formula.text).toBe(`'${FORMULA_NAME}`)
    expect(formula.number).toBeNull()

    const lines = sheet('lines')
    const lineHeader = lines[0]!.map((c) => c.text)
    expect(lineHeader[0]).toBe('Order number')
    expect(lineHeader).toContain('Selling price (₹)')
    const line = lines.find((row) => row[lineHeader.indexOf('Product')]!.text === HINDI_PRODUCT)!
    expect(Number(line[lineHeader.indexOf('Selling price (₹)')]!.number)).toBe(150)

    const products = sheet('products').map((row) => row.map((c) => c.text))
    expect(products.some((row) => row.includes(HINDI_PRODUCT))).toBe(true)
    expect(products[0]![0]!.startsWith('\uFEFF')).toBe(false)
  }, 180_000)
})
