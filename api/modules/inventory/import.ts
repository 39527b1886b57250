/**
 * One store's stock from CSV (docs/store-stock-csv.md), in the two steps of the product import
 * (docs/product-csv.md): the dry run (POST /api/inventory/import?storeId=) checks every row against
 * the catalogue and the store's stock and lists each change (before → after) and each error (line,
 * column, message), writing nothing; the apply (POST /api/inventory/import/apply?storeId=, the same
 * file) checks it again inside ONE transaction, with the store's stock rows locked, and only when no
 * row has an error writes every changed stock, audited like any stock edit (api/lib/audit.ts,
 * action `stock`), then invalidates the caches.
 *
 * A row names its product by SKU; a row without SKU by its product id (the export writes both, so a
 * product without a SKU round-trips too). Only `stock` is written: `name` and `unit` are for the
 * person reading the file.
 */
import { eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/client.ts'
import { inventory } from '../../db/schema.ts'
import { BadRequest } from '../../lib/errors.ts'
import { recordAudit, type ActorDeps } from '../../lib/audit.ts'
import { decodeCsv } from '../../lib/csv-cells.ts'
import { IMPORT_ERRORS_MAX, type ImportError } from '../../../contract/product-import.ts'
import { STOCK_CHANGES_LISTED, type StockChange, type StockImportAnswer } from '../../../contract/stock-csv.ts'
import { parseStockCsv, StockFileError } from './csv.ts'
import { requireStore, storeStockRows } from './export.ts'
import { bulkStockWrites, refreshStockBits } from './stock-bits.ts'

/** Rows per insert statement (3 parameters a row, well under PostgreSQL's 65,535). */
const WRITE_BATCH = 1000
/** Above this many changed rows the availability bits are rebuilt once instead of row by row (./stock-bits.ts). */
export const BULK_BITS_FROM = 2000

/** The dry run's findings: every error (line order), every change, and how many rows set the stock they had. */
export interface StockImportPlan {
  rows: number
  errors: ImportError[]
  changes: StockChange[]
  unchanged: number
}

/**
 * Checks `text` against the catalogue and store `storeId`'s stock as `db` sees it (a transaction,
 * for the apply) and lists what it would change. Row errors: unknown SKU or id, the same product
 * twice in the file, plus the reading errors of ./csv.ts (stock not a whole number 0..STOCK_MAX,
 * wrong cell count, header problems on line 1).
 * @throws 400 when the text is not a readable CSV, empty, or over STOCK_CSV_MAX_ROWS rows
 */
export async function planStockImport(db: Pick<Db, 'select'>, storeId: string, text: string): Promise<StockImportPlan> {
  let parsed
  try {
    parsed = parseStockCsv(text)
  } catch (err) {
    if (err instanceof StockFileError) throw BadRequest(err.message, [{ path: 'file', message: err.message }])
    throw err
  }
  const errors = [...parsed.errors]
  const changes: StockChange[] = []
  let unchanged = 0
  if (parsed.rows.length > 0) {
    const current = await storeStockRows(db, storeId)
    const bySku = new Map(current.filter((p) => p.sku).map((p) => [p.sku!, p]))
    const byId = new Map(current.map((p) => [p.id, p]))
    const seen = new Map<string, number>()
    for (const row of parsed.rows) {
      const product = row.sku ? bySku.get(row.sku) : byId.get(row.id)
      if (!product) {
        errors.push(
          row.sku
            ? { line: row.line, column: 'sku', message: `Unknown SKU "${row.sku}"` }
            : { line: row.line, column: 'id', message: `No product has id "${row.id}"` },
        )
        continue
      }
      const earlier = seen.get(product.id)
      if (earlier !== undefined) {
        const what = row.sku ? `SKU "${row.sku}"` : 'This product'
        errors.push({ line: row.line, column: row.sku ? 'sku' : 'id', message: `${what} is also on line ${earlier}` })
        continue
      }
      seen.set(product.id, row.line)
      if (product.stock === row.stock) unchanged += 1
      else
        changes.push({
          line: row.line,
          sku: product.sku ?? '',
          productId: product.id,
          name: product.name,
          before: product.stock,
          after: row.stock,
        })
    }
  }
  errors.sort((a, b) => a.line - b.line)
  return { rows: parsed.rowCount, errors, changes, unchanged }
}

/** The plan as the API answers it: the first STOCK_CHANGES_LISTED changes, the first IMPORT_ERRORS_MAX errors. */
function answerOf(plan: StockImportPlan, applied: boolean): StockImportAnswer {
  return {
    applied,
    counts: { rows: plan.rows, changed: plan.changes.length, unchanged: plan.unchanged },
    changes: plan.changes.slice(0, STOCK_CHANGES_LISTED),
    errors: plan.errors.slice(0, IMPORT_ERRORS_MAX),
    errorCount: plan.errors.length,
  }
}

/**
 * The dry run: what importing `bytes` into store `storeId` would change, and every error. Writes nothing.
 * @throws 404 unknown store; 400 bytes that are not UTF-8 or not a readable CSV
 */
export async function dryRunStockImport(deps: Pick<AppDeps, 'db'>, storeId: string, bytes: Uint8Array): Promise<StockImportAnswer> {
  await requireStore(deps.db, storeId)
  return answerOf(await planStockImport(deps.db, storeId, decodeCsv(bytes)), false)
}

/**
 * The apply: in ONE transaction, locks store `storeId`'s stock rows, checks `bytes` again against the
 * stock as it is now and, when no row has an error, writes every changed stock and one audit entry
 * per product (`inventory` `<storeId>/<productId>`, action `stock`, before and after in units). Any
 * error leaves the stock as it was. The caches are invalidated after the commit.
 * @throws 404 unknown store; 400 bytes that are not UTF-8 or not a readable CSV; 400 with one issue
 *   per row error (`path` "line 7, stock") when a row does not apply
 */
export async function applyStockImport(
  deps: Pick<AppDeps, 'db' | 'cache'> & ActorDeps,
  storeId: string,
  bytes: Uint8Array,
): Promise<StockImportAnswer> {
  const text = decodeCsv(bytes)
  const plan = await deps.db.transaction(async (tx) => {
    await requireStore(tx, storeId)
    // Lock the store's stock rows, so an order or an edit of this store waits for the import (and the other way round).
    await tx.select({ productId: inventory.productId }).from(inventory).where(eq(inventory.storeId, storeId)).for('update')
    const plan = await planStockImport(tx, storeId, text)
    if (plan.errors.length > 0) {
      const issues = plan.errors
        .slice(0, IMPORT_ERRORS_MAX)
        .map((e) => ({ path: `line ${e.line}${e.column ? `, ${e.column}` : ''}`, message: e.message }))
      throw BadRequest(`The file does not apply: ${plan.errors.length} error(s); nothing was written`, issues)
    }
    const bulk = plan.changes.length >= BULK_BITS_FROM
    if (bulk) await bulkStockWrites(tx)
    for (let i = 0; i < plan.changes.length; i += WRITE_BATCH) {
      await tx
        .insert(inventory)
        .values(plan.changes.slice(i, i + WRITE_BATCH).map((c) => ({ storeId, productId: c.productId, stock: c.after })))
        .onConflictDoUpdate({
          target: [inventory.storeId, inventory.productId],
          set: { stock: sql`excluded.stock`, updatedAt: sql`now()` },
        })
    }
    if (bulk) await refreshStockBits(tx, [storeId])
    await recordAudit(
      tx,
      plan.changes.map((c) => ({
        actor: deps.actor,
        action: 'stock' as const,
        entity: 'inventory' as const,
        entityId: `${storeId}/${c.productId}`,
        before: { stock: c.before },
        after: { stock: c.after },
      })),
    )
    return plan
  })
  if (plan.changes.length > 0) deps.cache.invalidate()
  return answerOf(plan, true)
}
