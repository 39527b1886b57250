/**
 * The relevance test set (api/modules/search/relevance-set.json; docs/search.md, "Relevance") on the
 * real 8,208-product catalogue, imported into a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL). Every query goes through POST /api/product/search-product, as the storefront
 * sends it; the first five results are judged against the set. Prints precision@5 and the "first
 * result relevant" rate (in all and per kind of query) and every query that missed, then asserts the
 * targets: first result relevant for at least 95 % of the queries, mean precision@5 at least 0.9, and
 * the header prompt's words each leading to their obvious shelf.
 *
 * precision@5 of one query = relevant results among the first five / min(5, relevant products in the
 * catalogue), so a query with only three right answers can still score 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { importCatalog } from '../../db/seed/import-catalog.ts'
import { BUNDLED_CATALOG_CSV } from '../../db/seed/ensure.ts'
import { logger } from '../../../server-shared/logger.ts'
// The judge is shared with the search evaluation (eval/search-heldout/evaluate.ts), so both score this set alike.
import { isRelevant, judgingCatalogue, loadRelevanceSet, TUNING_KINDS, type CatalogProduct, type Judged } from './relevance-judge.ts'

const SET = { queries: loadRelevanceSet() }
/** Targets (docs/search.md, "Relevance"). */
const FIRST_RELEVANT_TARGET = 0.95
const PRECISION_TARGET = 0.9

let t: TestApp
let catalogue: CatalogProduct[]
let byId: Map<string, CatalogProduct>

beforeAll(async () => {
  t = await createTestApp()
  await importCatalog({ db: t.db, storage: t.deps.storage, csvPath: BUNDLED_CATALOG_CSV, logger })
  catalogue = await judgingCatalogue(t.db)
  byId = new Map(catalogue.map((p) => [p.id, p]))
}, 180_000)
afterAll(() => t?.close())

describe('search relevance on the real catalogue', () => {
  it('meets the precision@5 and first-result targets', async () => {
    const results: Array<{ judged: Judged; top: CatalogProduct[]; precision: number; firstRelevant: boolean; firstShelfOk: boolean }> = []
    for (const judged of SET.queries) {
      const res = await t.call('product/search-product', { json: { search: judged.q, page: 1, limit: 5 } })
      expect(res.status).toBe(200)
      const top = (res.body.data as Array<{ _id: string }>).map((p) => byId.get(p._id)!)
      const available = catalogue.filter((p) => isRelevant(p, judged.relevant)).length
      const hits = top.filter((p) => isRelevant(p, judged.relevant)).length
      const precision = available === 0 ? 0 : hits / Math.min(5, available)
      const firstRelevant = top[0] !== undefined && isRelevant(top[0], judged.relevant)
      const firstShelfOk = !judged.firstShelves || (top[0] !== undefined && judged.firstShelves.includes(top[0].shelf))
      results.push({ judged, top, precision, firstRelevant, firstShelfOk })
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
    const summary = (rows: typeof results) =>
      `precision@5 ${mean(rows.map((r) => r.precision)).toFixed(2)}, first result relevant ${(
        100 * mean(rows.map((r) => (r.firstRelevant ? 1 : 0)))
      ).toFixed(0)} % (${rows.length} queries)`
    const lines = [`relevance set (${t.kind}): ${summary(results)}`]
    for (const kind of TUNING_KINDS) {
      lines.push(`  ${kind}: ${summary(results.filter((r) => r.judged.kind === kind))}`)
    }
    for (const r of results.filter((r) => r.precision < 1 || !r.firstRelevant || !r.firstShelfOk)) {
      lines.push(
        `  - "${r.judged.q}" p@5 ${r.precision.toFixed(2)}${r.firstRelevant ? '' : ' FIRST-MISS'}${r.firstShelfOk ? '' : ' SHELF-MISS'}: ${r.top
          .map((p) => `${p.name.slice(0, 40)} [${p.shelf}]`)
          .join(' | ')}`,
      )
    }
    console.log(lines.join('\n'))
    expect(results.filter((r) => r.judged.prompt && !r.firstShelfOk).map((r) => r.judged.q)).toEqual([])
    expect(mean(results.map((r) => (r.firstRelevant ? 1 : 0)))).toBeGreaterThanOrEqual(FIRST_RELEVANT_TARGET)
    expect(mean(results.map((r) => r.precision))).toBeGreaterThanOrEqual(PRECISION_TARGET)
  }, 120_000)
})
