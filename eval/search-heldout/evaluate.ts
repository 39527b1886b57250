/**
 * The search evaluation (eval/search-heldout/README.md, "Metrics"): every query of the frozen, blind
 * held-out sets (./queries.json, h001–h254; ./queries-2.json, n001–n100, README "The second set
 * (n001–n100)") and of the tuning set (api/modules/search/relevance-set.json) through the search the
 * storefront's /search page runs, on a fresh database with the real catalogue.
 *
 *   npm run eval:search                 (the first held-out set and the tuning set, as before)
 *   npm run eval:search -- --set 2      (the second held-out set and the tuning set)
 *   npm run eval:search -- --set 3      (the third held-out set and the tuning set)
 *   npm run eval:search -- --set all    (the three held-out sets and the tuning set)
 *
 * PGlite; with TEST_DATABASE_URL set, a fresh PostgreSQL database.
 *
 * The store: the API built by the tests' own builder (api/testing/app.ts `createTestApp`) with the
 * bundled catalogue imported by the store's importer (api/db/seed/import-catalog.ts), and a search rate
 * limit no run reaches (a few hundred searches from one address would otherwise be refused). Each query
 * goes through POST /api/product/search-product with the body the /search page sends for its first
 * page (app/routes/search.tsx: the query trimmed to 200 characters, page 1 of 12, the list options of
 * no filter from app/lib/list-filters.ts `filtersBody`); the first five products are judged.
 *
 * Held-out set: each product of the answer is mapped to the judge's shape (name; brand from
 * `more_details.brand`; category and sub category names; pack size = `unit`) and judged by
 * ./judge.ts `isRelevant`. first result relevant = the first product is relevant; precision@5 =
 * relevant among the first five ÷ min(5, R), R from ./counts.json; when the search lists the pack
 * sizes of one product as one card (`groupSizes`, docs/product.md, "Pack sizes"), R counts cards:
 * the relevant products' pack groups (api/modules/product/pack-groups.ts `packGroupKey`), since the
 * first five cannot hold two sizes of one product. An unanswerable query scores 1 on
 * both only when the answer says plainly that nothing matches and offers its nearest shelf
 * (`unanswerableHit`). Tuning set: its own judge (api/modules/search/relevance-judge.ts), the same two
 * metrics, R counted over the imported catalogue as its test counts it.
 *
 * Prints both sets' figures, overall and by kind, and writes the held-out misses (query → first three
 * products) with the figures and the commit to ./last-run.txt (not committed).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import type { Understood } from '../../contract/search.ts'
import { filtersBody, readListFilters } from '../../app/lib/list-filters.ts'
import { createTestApp, type TestApp } from '../../api/testing/app.ts'
import { importCatalog } from '../../api/db/seed/import-catalog.ts'
import { BUNDLED_CATALOG_CSV } from '../../api/db/seed/ensure.ts'
import { createRateLimits } from '../../api/lib/rate-limit.ts'
import { logger } from '../../server-shared/logger.ts'
import {
  isRelevant as isTuningRelevant,
  judgingCatalogue,
  loadRelevanceSet,
  TUNING_KINDS,
  type CatalogProduct,
  type Judged,
} from '../../api/modules/search/relevance-judge.ts'
import { packGroupKey } from '../../api/modules/product/pack-groups.ts'
import { isRelevant, type Judgment, type Product } from './judge.ts'

const HERE = import.meta.dirname
/** Where the CLI writes the last run's figures and misses (.gitignore). */
export const LAST_RUN_FILE = path.join(HERE, 'last-run.txt')

/** The /search page's first page: 12 results (docs/product.md, "Constants": page sizes, search 12). */
const SEARCH_PAGE_SIZE = 12
/** Longest query the /search page sends upstream (app/routes/search.tsx). */
const MAX_QUERY_LENGTH = 200
/** Results judged per query (eval/search-heldout/README.md, "Metrics": precision@5). */
const JUDGED = 5

/** One held-out query (eval/search-heldout/README.md, "Queries"). */
export interface HeldOutQuery {
  id: string
  query: string
  kind: string[]
  intent: string
  relevant: Judgment
  unanswerable?: boolean
  nearestShelf?: string
}

/** The held-out kinds of the first set in the README's order; a query counts in each of its kinds. */
export const HELD_OUT_KINDS = [
  'single-word',
  'multi-word',
  'hindi',
  'regional',
  'brand',
  'brand-product',
  'sized',
  'misspelled',
  'unanswerable',
] as const

/** The second set's kinds: the first set's plus `attribute` and `multi-intent` (README, "The second set (n001–n100)"). */
export const HELD_OUT_2_KINDS = [...HELD_OUT_KINDS, 'attribute', 'multi-intent'] as const

/**
 * The held-out sets: "1" is queries.json / counts.json (h001–h254), "2" is queries-2.json / counts-2.json (n001–n100),
 * "3" is queries-3.json / counts-3.json (t001–t100, README "The third set (t001–t100)"; same kinds as the second),
 * "4" is queries-4.json / counts-4.json (f001–f100, README "The fourth set (f001–f100)"; same kinds).
 */
export const HELD_OUT_SETS = {
  '1': { queries: 'queries.json', counts: 'counts.json', kinds: HELD_OUT_KINDS },
  '2': { queries: 'queries-2.json', counts: 'counts-2.json', kinds: HELD_OUT_2_KINDS },
  '3': { queries: 'queries-3.json', counts: 'counts-3.json', kinds: HELD_OUT_2_KINDS },
  '4': { queries: 'queries-4.json', counts: 'counts-4.json', kinds: HELD_OUT_2_KINDS },
} as const

export type HeldOutSetId = keyof typeof HELD_OUT_SETS

/**
 * Reads the CLI's `--set` option: "1" (the default, the first set only), "2", "3", "4", or "all" (the four).
 * Throws on anything else, so a typo does not silently score the wrong set.
 */
export function parseSets(args: string[]): HeldOutSetId[] {
  const at = args.indexOf('--set')
  const value = at >= 0 ? args[at + 1] : '1'
  if (value === 'all') return ['1', '2', '3', '4']
  if (value === '1' || value === '2' || value === '3' || value === '4') return [value]
  throw new Error(`--set takes 1, 2, 3, 4 or all, not "${value ?? ''}"`)
}

/** A product as the search answers it (contract/product.ts `ProductSchema`), the fields judged. */
export interface AnswerProduct {
  _id: string
  name: string
  unit: string
  category: Array<{ name: string }>
  subCategory: Array<{ name: string }>
  more_details: Record<string, string>
}

/** The search's answer to one query: the first page's products, the count of all matches, what it was taken to mean. */
export interface SearchAnswer {
  products: AnswerProduct[]
  totalCount: number
  understood?: Understood
}

/** The score of one query. `first` and `precision` are in [0, 1]. */
export interface QueryScore {
  id: string
  query: string
  kinds: string[]
  first: number
  precision: number
  /** Relevant products in the catalogue (R), or their pack groups when the search groups sizes; 0 for an unanswerable query. */
  available: number
  top: AnswerProduct[]
  /** For an unanswerable query: the no-match line the storefront shows, if any. */
  message?: string | null
  unanswerable?: boolean
}

/** Mean figures of a group of queries: first result relevant and precision@5, both in [0, 1]. */
export interface Summary {
  label: string
  queries: number
  firstRelevant: number
  precision: number
}

export interface SetEvaluation {
  scores: QueryScore[]
  overall: Summary
  byKind: Summary[]
}

export interface Evaluation {
  /** The first held-out set (queries.json), when it was scored. */
  heldOut?: SetEvaluation
  /** The second held-out set (queries-2.json), when it was scored. */
  heldOut2?: SetEvaluation
  /** The third held-out set (queries-3.json), when it was scored. */
  heldOut3?: SetEvaluation
  /** The fourth set's figures, when it was scored (`--set 4` or `all`). */
  heldOut4?: SetEvaluation
  tuning: SetEvaluation
  /** Held-out queries (of the sets scored) whose R counted over the imported catalogue differs from their counts file (the data drifted). */
  countDrift: string[]
  /** Wall time of the searches and judging, in seconds. */
  seconds: number
}

/** The held-out queries of one set (./queries.json by default, or ./queries-2.json; frozen). */
export function loadHeldOut(set: HeldOutSetId = '1'): HeldOutQuery[] {
  return JSON.parse(fs.readFileSync(path.join(HERE, HELD_OUT_SETS[set].queries), 'utf8')) as HeldOutQuery[]
}

/** R per held-out query id of one set (./counts.json or ./counts-2.json, written by ./check.ts from the catalogue CSV). */
export function loadCounts(set: HeldOutSetId = '1'): Record<string, { relevant: number }> {
  return JSON.parse(fs.readFileSync(path.join(HERE, HELD_OUT_SETS[set].counts), 'utf8')) as Record<string, { relevant: number }>
}

/**
 * A product of the answer in the judge's shapes (eval/search-heldout/README.md, "Judgment language"): one per (category,
 * sub category) pair it is filed under, so it is relevant when any placement is.
 */
export function toJudgeProducts(p: AnswerProduct): Product[] {
  const brand = p.more_details.brand ?? ''
  const categories = p.category.length > 0 ? p.category.map((c) => c.name) : ['']
  const shelves = p.subCategory.length > 0 ? p.subCategory.map((s) => s.name) : ['']
  return categories.flatMap((category) => shelves.map((subCategory) => ({ name: p.name, brand, category, subCategory, packSize: p.unit })))
}

const heldOutRelevant = (judgment: Judgment, p: AnswerProduct | undefined) =>
  p !== undefined && toJudgeProducts(p).some((product) => isRelevant(judgment, product))

/** Pack-size words and bare numbers: left out, they say nothing about whether an item is stocked. */
const SIZE_WORDS = new Set(['mg', 'g', 'gm', 'gms', 'kg', 'kgs', 'ml', 'l', 'ltr', 'litre', 'liter', 'pc', 'pcs', 'x'])
/** Whether a typed word could name an item: two letters or more, and not a pack-size word. */
const namesSomething = (word: string) => /\p{L}\p{L}/u.test(word) && !SIZE_WORDS.has(word.toLowerCase())

/** The /search page's line for brands not stocked (app/routes/search.tsx, `SearchMeaning`). */
export function notStockedLine(notStocked: NonNullable<Understood['notStocked']>): string {
  return notStocked.map((n) => `No ${n.word} products; showing ${n.showing.join(', ')}.`).join(' ')
}

/**
 * The line the /search page shows when a search found nothing for what was typed
 * (app/routes/search.tsx, `Results` and `SearchMeaning`), or null when it shows none: no product at
 * all; no product with every word ("No product matches all of …", `understood.relaxed`); or typed
 * words that match nothing and were left out (`understood.ignored`), when one of them could name an
 * item (not "g" or "1").
 */
export function noMatchMessage(q: string, answer: SearchAnswer): string | null {
  if (answer.totalCount === 0) return `We found no products for “${q}”.`
  const u = answer.understood
  // A brand the store does not stock (contract/search.ts `Understood.notStocked`): "No Parle products; showing biscuits."
  if (u?.notStocked && u.notStocked.length > 0) return notStockedLine(u.notStocked)
  if (u && u.relaxed.length > 0) return `No product matches all of “${q}”: showing results for ${u.query}.`
  // Only a left-out word that names something counts: "No products match “g”" says nothing of the item.
  if (u && u.ignored.some(namesSomething)) return `No products match ${u.ignored.map((w) => `“${w}”`).join(', ')}, so we left it out.`
  return null
}

/**
 * An unanswerable query's hit (eval/search-heldout/README.md, "Metrics"): the answer (a) says plainly that the item is not
 * stocked, and (b) offers the nearest shelf. (a) is the storefront's own no-match line
 * (`noMatchMessage`: nothing found, words dropped or left out, or a brand not stocked,
 * contract/search.ts `Understood.notStocked`), and (b) is the shelf the answer offers
 * (`Understood.shelf`) or the first product shown, on `nearestShelf`. Products shown as if they
 * matched, without such a line, miss.
 */
export function unanswerableHit(q: string, answer: SearchAnswer, nearestShelf: string): boolean {
  if (noMatchMessage(q, answer) === null) return false
  if (answer.understood?.shelf?.subCategory.name === nearestShelf) return true
  const first = answer.products[0]
  return first !== undefined && first.subCategory.some((s) => s.name === nearestShelf)
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)

function summarize(label: string, scores: QueryScore[]): Summary {
  return { label, queries: scores.length, firstRelevant: mean(scores.map((s) => s.first)), precision: mean(scores.map((s) => s.precision)) }
}

/** The search as the storefront's /search page runs it, on a store with the real catalogue. */
export interface Store {
  search(q: string): Promise<SearchAnswer>
  /** The imported catalogue, one row per (product, sub category, category). */
  catalogue: CatalogProduct[]
  /** "pglite" or "postgres". */
  kind: string
  /** Seconds the catalogue import took. */
  importSeconds: number
  /** The search lists each pack group once (`groupSizes`): R counts pack groups, not products. */
  groupsSizes?: boolean
  close(): Promise<void>
}

/** What one search result stands for: its pack group when the search groups sizes, else the product itself. */
function cardOf(store: Store, row: { id: string; name: string; brand: string; unit: string }): string {
  return (store.groupsSizes ? packGroupKey(row.name, row.brand, row.unit) : null) ?? row.id
}

/**
 * Builds the store: a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL) with the bundled
 * catalogue imported, behind the API. Close it when done.
 */
export async function openStore(): Promise<Store> {
  // One address sends every search: a limit no run reaches (the store's is 120 a minute).
  const rateLimits = { ...createRateLimits(), searchByIp: new RateLimiterMemory({ points: 1e9, duration: 1 }) }
  const t: TestApp = await createTestApp({ rateLimits })
  try {
    const started = performance.now()
    await importCatalog({ db: t.db, storage: t.deps.storage, csvPath: BUNDLED_CATALOG_CSV, logger })
    const importSeconds = (performance.now() - started) / 1000
    const catalogue = await judgingCatalogue(t.db)
    // The body of the /search page's first page without filters (its loader: `filtersBody(readListFilters(url))`).
    const options = filtersBody(readListFilters(new URL('http://store.invalid/search')))
    return {
      kind: t.kind,
      importSeconds,
      catalogue,
      groupsSizes: options.groupSizes === true,
      async search(q) {
        const search = q.trim().slice(0, MAX_QUERY_LENGTH)
        const res = await t.call('product/search-product', { json: { search, page: 1, limit: SEARCH_PAGE_SIZE, ...options } })
        if (res.status !== 200) throw new Error(`search "${q}" answered ${res.status}: ${JSON.stringify(res.body)}`)
        return { products: res.body.data, totalCount: res.body.totalCount, understood: res.body.understood }
      },
      close: () => t.close(),
    }
  } catch (error) {
    await t.close()
    throw error
  }
}

/** Scores every held-out query (eval/search-heldout/README.md, "Metrics"). */
async function scoreHeldOut(store: Store, queries: HeldOutQuery[], counts: Record<string, { relevant: number }>): Promise<QueryScore[]> {
  const scores: QueryScore[] = []
  for (const q of queries) {
    const answer = await store.search(q.query)
    const top = answer.products.slice(0, JUDGED)
    const base = { id: q.id, query: q.query, kinds: q.kind, top }
    if (q.unanswerable) {
      const hit = unanswerableHit(q.query, answer, q.nearestShelf ?? '') ? 1 : 0
      scores.push({ ...base, first: hit, precision: hit, available: 0, message: noMatchMessage(q.query, answer), unanswerable: true })
      continue
    }
    const products = counts[q.id]?.relevant ?? 0
    if (products === 0) throw new Error(`${q.id} "${q.query}": no relevant count in counts.json (run check.ts)`)
    const available = store.groupsSizes ? relevantCards(store, q.relevant) : products
    const hits = top.filter((p) => heldOutRelevant(q.relevant, p)).length
    scores.push({ ...base, first: heldOutRelevant(q.relevant, top[0]) ? 1 : 0, precision: hits / Math.min(JUDGED, available), available })
  }
  return scores
}

/** Scores every tuning query as its test does (api/modules/search/relevance.test.ts), R over the imported catalogue. */
async function scoreTuning(store: Store, queries: Judged[]): Promise<QueryScore[]> {
  const scores: QueryScore[] = []
  const asJudged = (p: AnswerProduct) =>
    p.subCategory.flatMap((s) =>
      p.category.map((c) => ({ name: p.name, brand: p.more_details.brand ?? '', shelf: s.name, category: c.name, unit: p.unit })),
    )
  const relevant = (p: AnswerProduct | undefined, judged: Judged) =>
    p !== undefined && asJudged(p).some((row) => isTuningRelevant(row, judged.relevant))
  for (const [i, judged] of queries.entries()) {
    const top = (await store.search(judged.q)).products.slice(0, JUDGED)
    const available = new Set(store.catalogue.filter((p) => isTuningRelevant(p, judged.relevant)).map((p) => cardOf(store, p))).size
    const hits = top.filter((p) => relevant(p, judged)).length
    scores.push({
      id: `t${String(i + 1).padStart(3, '0')}`,
      query: judged.q,
      kinds: [judged.kind],
      first: relevant(top[0], judged) ? 1 : 0,
      precision: available === 0 ? 0 : hits / Math.min(JUDGED, available),
      available,
      top,
    })
  }
  return scores
}

/** The pack groups (cards) of the imported catalogue's products a held-out judgment accepts (`groupsSizes`: R). */
function relevantCards(store: Store, judgment: Judgment): number {
  const cards = new Set<string>()
  for (const row of store.catalogue) {
    const placement = { name: row.name, brand: row.brand, category: row.category, subCategory: row.shelf, packSize: row.unit }
    if (isRelevant(judgment, placement)) cards.add(cardOf(store, row))
  }
  return cards.size
}

/** Held-out queries whose R over the imported catalogue differs from counts.json (eval/search-heldout/README.md, "How it was written, blind": a changed catalogue). */
function countDrift(store: Store, queries: HeldOutQuery[], counts: Record<string, { relevant: number }>): string[] {
  const products = new Map<string, Product[]>()
  for (const row of store.catalogue) {
    const list = products.get(row.id) ?? []
    list.push({ name: row.name, brand: row.brand, category: row.category, subCategory: row.shelf, packSize: row.unit })
    products.set(row.id, list)
  }
  const drift: string[] = []
  for (const q of queries) {
    const here = [...products.values()].filter((placements) => placements.some((p) => isRelevant(q.relevant, p))).length
    const frozen = counts[q.id]?.relevant ?? 0
    if (here !== frozen) drift.push(`${q.id} "${q.query}": ${here} relevant in the imported catalogue, ${frozen} in counts.json`)
  }
  return drift
}

/** One held-out set's scores, overall and by kind (with "answerable" first and "hindi or regional" last). */
function heldOutEvaluation(held: QueryScore[], kinds: readonly string[]): SetEvaluation {
  const answerable = held.filter((s) => !s.unanswerable)
  const hindiOrRegional = held.filter((s) => s.kinds.includes('hindi') || s.kinds.includes('regional'))
  return {
    scores: held,
    overall: summarize('all', held),
    byKind: [
      summarize('answerable', answerable),
      ...kinds.map((kind) =>
        summarize(
          kind,
          held.filter((s) => s.kinds.includes(kind)),
        ),
      ),
      summarize('hindi or regional', hindiOrRegional),
    ],
  }
}

/**
 * Runs the held-out `sets` (default: the first only, as before the second set existed) and the
 * tuning set through `store`'s search and scores them.
 */
export async function evaluate(store: Store, sets: HeldOutSetId[] = ['1']): Promise<Evaluation> {
  const started = performance.now()
  const scored: Partial<Record<HeldOutSetId, SetEvaluation>> = {}
  const drift: string[] = []
  for (const set of sets) {
    const queries = loadHeldOut(set)
    const counts = loadCounts(set)
    scored[set] = heldOutEvaluation(await scoreHeldOut(store, queries, counts), HELD_OUT_SETS[set].kinds)
    drift.push(...countDrift(store, queries, counts))
  }
  const tuned = await scoreTuning(store, loadRelevanceSet())
  return {
    heldOut: scored['1'],
    heldOut2: scored['2'],
    heldOut3: scored['3'],
    heldOut4: scored['4'],
    tuning: {
      scores: tuned,
      overall: summarize('all', tuned),
      byKind: TUNING_KINDS.map((kind) =>
        summarize(
          kind,
          tuned.filter((s) => s.kinds.includes(kind)),
        ),
      ),
    },
    countDrift: drift,
    seconds: (performance.now() - started) / 1000,
  }
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`.padStart(8)
const row = (s: Summary) =>
  `  ${s.label.padEnd(20)} ${String(s.queries).padStart(4)}   ${pct(s.firstRelevant)}      ${s.precision.toFixed(2)}`
const header = `  ${'queries'.padEnd(20)} ${'n'.padStart(4)}   first result relevant   P@5`
const productLine = (p: AnswerProduct) =>
  `${p.name} (${p.more_details.brand ?? ''}, ${p.unit}) [${p.subCategory.map((s) => s.name).join(', ')}]`

/** The held-out sets that were scored, with the file each came from. */
function scoredSets(e: Evaluation): { file: string; set: SetEvaluation }[] {
  return [
    ...(e.heldOut ? [{ file: HELD_OUT_SETS['1'].queries, set: e.heldOut }] : []),
    ...(e.heldOut2 ? [{ file: HELD_OUT_SETS['2'].queries, set: e.heldOut2 }] : []),
    ...(e.heldOut3 ? [{ file: HELD_OUT_SETS['3'].queries, set: e.heldOut3 }] : []),
    ...(e.heldOut4 ? [{ file: HELD_OUT_SETS['4'].queries, set: e.heldOut4 }] : []),
  ]
}

/** The figures of every scored set as text. */
export function figures(e: Evaluation): string {
  return [
    ...scoredSets(e).flatMap(({ file, set }) => [
      `held-out set (eval/search-heldout/${file}: frozen, written blind); P@5 = relevant in the first 5 ÷ min(5, R)`,
      header,
      row(set.overall),
      ...set.byKind.map(row),
      '',
    ]),
    'tuning set (api/modules/search/relevance-set.json), scored the same way',
    header,
    row(e.tuning.overall),
    ...e.tuning.byKind.map(row),
  ].join('\n')
}

/** Every scored held-out query, of all the sets scored. */
function heldOutScores(e: Evaluation): QueryScore[] {
  return scoredSets(e).flatMap(({ set }) => set.scores)
}

/** The held-out misses: each query that did not score 1 on both metrics, with its first three products. */
export function misses(e: Evaluation): string {
  const lines: string[] = []
  for (const s of heldOutScores(e).filter((s) => s.first < 1 || s.precision < 1)) {
    const tag = s.unanswerable ? 'UNANSWERABLE MISS' : `${s.first < 1 ? 'FIRST-MISS ' : ''}p@5 ${s.precision.toFixed(2)} (R ${s.available})`
    lines.push(`${s.id} "${s.query}" [${s.kinds.join(', ')}] ${tag}`)
    if (s.unanswerable) lines.push(`    says: ${s.message ?? '(nothing: shown as if it matched)'}`)
    const top = s.top.slice(0, 3)
    lines.push(...(top.length > 0 ? top.map((p, i) => `    ${i + 1}. ${productLine(p)}`) : ['    (no results)']))
  }
  return lines.join('\n')
}

/** The commit under test, with "+changes" when the work tree differs from it; "unknown" outside git. */
function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: HERE, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: HERE, encoding: 'utf8' }).trim() !== ''
    return dirty ? `${head}+changes` : head
  } catch {
    return 'unknown'
  }
}

async function main() {
  const sets = parseSets(process.argv.slice(2))
  const started = performance.now()
  const store = await openStore()
  try {
    const e = await evaluate(store, sets)
    const total = (performance.now() - started) / 1000
    const heading =
      `search evaluation, commit ${commit()}, ${new Date().toISOString()}, ${store.kind}: ` +
      `catalogue import ${store.importSeconds.toFixed(1)} s, ${heldOutScores(e).length + e.tuning.scores.length} searches ` +
      `${e.seconds.toFixed(1)} s, total ${total.toFixed(1)} s`
    const drift = e.countDrift.length > 0 ? ['', 'R drift (counts file vs the imported catalogue):', ...e.countDrift] : []
    console.log([heading, '', figures(e), ...drift].join('\n'))
    const missed = heldOutScores(e).filter((s) => s.first < 1 || s.precision < 1).length
    fs.writeFileSync(
      LAST_RUN_FILE,
      [heading, '', figures(e), ...drift, '', `held-out misses (${missed}: first result not relevant or P@5 below 1)`, misses(e), ''].join(
        '\n',
      ),
    )
    console.log(`\n${missed} held-out misses (query → first three products): ${path.relative(process.cwd(), LAST_RUN_FILE)}`)
  } finally {
    await store.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
