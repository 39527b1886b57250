/**
 * Checks every judgment of a held-out set against the catalogue CSV and writes its counts file:
 * how many catalogue products each query's judgment accepts. The first set is queries.json →
 * counts.json (the default); `--set 2` checks the second set, queries-2.json → counts-2.json
 * (eval/search-heldout/README.md, "The second set (n001–n100)"), `--set 3` the third, queries-3.json →
 * counts-3.json ("The third set (t001–t100)"), and `--set N` any later set, queries-N.json → counts-N.json
 * ("The fourth set (f001–f100)"). Fails when an answerable query accepts
 * nothing, an unanswerable one accepts anything, or a judgment names a category, sub category or
 * nearest shelf that the catalogue does not have.
 *
 *   npx tsx eval/search-heldout/check.ts [path/to/bigbasket-products.csv] [--set N] [--show]
 */
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { isRelevant, type Clause, type Judgment, type Product } from './judge.ts'

interface Query {
  id: string
  query: string
  kind: string[]
  intent: string
  relevant: Judgment
  unanswerable?: boolean
  nearestShelf?: string
}

const here = import.meta.dirname
const args = process.argv.slice(2)
const show = args.includes('--show')
const setAt = args.indexOf('--set')
const set = setAt >= 0 ? args[setAt + 1] : '1'
if (!/^[1-9][0-9]*$/.test(set)) throw new Error(`--set takes a set number (1, 2, 3, 4, ...), not "${set}"`)
const suffix = set === '1' ? '' : `-${set}`
const csvPath =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--set') ??
  process.env.CATALOG_CSV ??
  '/work/shared/catalog/bigbasket-products.csv'

const rows: Record<string, string>[] = parse(fs.readFileSync(csvPath), { columns: true, skip_empty_lines: true })
const products: (Product & { id: string })[] = rows.map((r) => ({
  id: r.ProductID,
  name: r.ProductName.trim(),
  brand: r.Brand.trim(),
  category: r.Category.trim(),
  subCategory: r.SubCategory.trim(),
  packSize: r.Quantity.trim(),
}))
const categories = new Set(products.map((p) => p.category))
const subCategories = new Set(products.map((p) => p.subCategory))

const queries: Query[] = JSON.parse(fs.readFileSync(path.join(here, `queries${suffix}.json`), 'utf8'))
const problems: string[] = []
const counts: Record<string, { query: string; relevant: number; unanswerable?: true }> = {}

for (const q of queries) {
  const clauses: Clause[] = 'anyOf' in q.relevant ? q.relevant.anyOf : [q.relevant]
  for (const c of clauses) {
    for (const s of c.categories ?? []) if (!categories.has(s)) problems.push(`${q.id}: unknown category "${s}"`)
    for (const s of c.subCategories ?? []) if (!subCategories.has(s)) problems.push(`${q.id}: unknown sub category "${s}"`)
  }
  if (q.unanswerable && (!q.nearestShelf || !subCategories.has(q.nearestShelf)))
    problems.push(`${q.id}: nearestShelf "${q.nearestShelf}" is not a sub category`)
  const hits = products.filter((p) => isRelevant(q.relevant, p))
  counts[q.id] = { query: q.query, relevant: hits.length, ...(q.unanswerable ? { unanswerable: true as const } : {}) }
  if (q.unanswerable && hits.length > 0) problems.push(`${q.id} "${q.query}": unanswerable but ${hits.length} products match`)
  if (!q.unanswerable && hits.length === 0) problems.push(`${q.id} "${q.query}": no product matches`)
  if (show) {
    console.log(`${q.id} ${JSON.stringify(q.query)} -> ${hits.length}${q.unanswerable ? ' (unanswerable)' : ''}`)
    for (const p of hits.slice(0, 8)) console.log(`    ${p.brand} | ${p.name} | ${p.packSize} | ${p.subCategory}`)
    if (hits.length > 8) console.log(`    ... ${hits.length - 8} more`)
  }
}

fs.writeFileSync(path.join(here, `counts${suffix}.json`), JSON.stringify(counts, null, 2) + '\n')
const answerable = queries.filter((q) => !q.unanswerable)
const fewer = answerable.filter((q) => counts[q.id].relevant < 5).map((q) => `${q.id} ${q.query} (${counts[q.id].relevant})`)
console.log(`${queries.length} queries, ${answerable.length} answerable; ${fewer.length} answerable with fewer than 5 relevant products.`)
if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}
