/**
 * Product search and filtered listings (docs/search.md; decision
 * docs/decisions/0016-search-ranking-synonyms-spelling.md).
 *
 * `searchProducts` serves POST /api/product/search-product and /api/product/get: the search is
 * understood (synonyms, spelling, prefixes: ./understand.ts), matched and ranked by the catalogue's
 * structure (./ranking.ts), filtered, sorted and counted per facet (./list-query.ts), and answered
 * with what it was taken to mean (`understood`). `productListing` serves the category listing with
 * the same filters, sorts and facets. Without the optional fields both answer exactly as before.
 *
 * Cost (docs/security.md, "Search cost"): answers are cached under every input; a search the cache
 * cannot answer is rate-limited per client (`opts.beforeSearch`), waits at the process's gate
 * (`opts.gate`, api/lib/gate.ts) and runs in one transaction with a statement timeout. Its database
 * work is bounded by the words it keeps: at most 8, one vocabulary query for all of them (index
 * probes on a table of words, not a scan of products), and words the vocabulary cannot place are
 * dropped before any product is read, so a search of random words costs one small query.
 */
import { sql } from 'drizzle-orm'
import type { Gate } from '../../lib/gate.ts'
import type { Db } from '../../db/client.ts'
import {
  newestPage,
  productsByCategoryAndSubCategory,
  storeCached,
  textArray,
  type ProductPage,
  type ProductReadDeps,
} from '../product/reads.ts'
import type { ProductSearchInput, ProductsByCategoryAndSubCategoryInput } from '../../../contract/product.ts'
import { listPage, type ListQuery } from './list-query.ts'
import { searchListParts } from './ranking.ts'
import { changesList, type ListOptions } from './schemas.ts'
import type { Facets, Understood } from '../../../contract/search.ts'
import { loadShelves, ShelfTier, shelvesNaming, type Shelf } from './shelves.ts'
import { carries } from './modifiers.ts'
import { CANDIDATE_SIMILARITY } from './spelling.ts'
import { loadSynonyms } from './synonyms.ts'
import { takeSize, type QuerySize } from '../product/sizes.ts'
import { searchTerms, words } from './terms.ts'
import { understand, type Group } from './understand.ts'

/**
 * Longest a search may run (PostgreSQL `statement_timeout`, for its transaction only); past it the
 * search answers 503 (api/lib/faults.ts) instead of holding a connection the store needs.
 */
export const SEARCH_STATEMENT_TIMEOUT_MS = 2000

/** A page of a list with what the optional fields asked for. */
export interface ListAnswer extends ProductPage {
  facets?: Facets
  understood?: Understood
}

/** Runs a list query: its page as answered. */
async function listed(db: Pick<Db, 'execute'>, query: ListQuery): Promise<ListAnswer> {
  const page = await listPage(db, query)
  return { data: page.products, totalCount: page.totalCount, ...(page.facets ? { facets: page.facets } : {}) }
}

/** The typed words of `groups` with corrections applied, and the pack size as typed: what the search was run as. */
function queryText(terms: string[], groups: Group[], corrections: Map<string, string>, size: QuerySize | null): string {
  const kept = new Set(groups.flatMap((g) => g.typed))
  return [...terms.filter((t) => kept.has(t)).map((t) => corrections.get(t) ?? t), ...(size ? [size.typed] : [])].join(' ')
}

/**
 * The group a search keeps when no product has all its words: the last group that names a kind of
 * product, an item of some sub category's name ends with it ("butter" in "butter nandini": "Butter &
 * Margarine"), which is the thing being bought; the last group when none does (docs/search.md,
 * "Matching"). A brand or an adjective names no shelf, so it is the word dropped.
 */
export function productGroup(groups: Group[], shelves: Shelf[]): Group {
  const namesShelf = (g: Group) =>
    g.alternatives.some(
      // Any item of a sub category's name ending with it: "butter" of "Butter & Margarine".
      (a) => !a.prefix && shelvesNaming(shelves, a.phrase).some((x) => x.shelf.kind === 'subCategory'),
    )
  return [...groups].reverse().find(namesShelf) ?? groups.at(-1)!
}

/**
 * Whether a word no product name has may still name a shelf's products: some sub category's name
 * lists it as an item ("jam" of "Jams, Marmalade, Spreads"; docs/search.md, "Matching").
 */
function listsShelf(shelves: Shelf[], word: string): boolean {
  return shelvesNaming(shelves, [word]).some((x) => x.shelf.kind === 'subCategory' && x.tier >= ShelfTier.ITEM)
}

/** Whether a product's name and brand ("Red Label" for red) carry one of a modifier group's phrases (./modifiers.ts `carries`). */
function carriesAny(text: string, group: Group): boolean {
  return group.alternatives.some((a) => carries(text, a.phrase, a.anyOrder))
}

/**
 * One page of published products matching `search`, ranked (see the module comment), or of all
 * published products newest first when the search has no word. Cached under
 * `product:search:[words, page, limit, options]`.
 * @param input.page 1-based page; input.limit page size (already capped by the schema)
 * @param opts.beforeSearch runs before a search the cache could not answer (the route's per-client
 *   rate limit) and may throw to refuse it; opts.gate bounds how many such searches query at once
 * @returns the page, the number of matches in all, `facets` when asked, `understood` for a search
 */
export function searchProducts(
  deps: ProductReadDeps,
  input: ProductSearchInput & Partial<ListOptions>,
  opts: { beforeSearch?: () => Promise<void>; gate?: Gate } = {},
): Promise<ListAnswer> {
  // A pack size ("500g", "2 x 200 g") is never a word to match: it ranks and narrows the products
  // the other words find (docs/search.md, "Pack sizes").
  const { size, rest } = takeSize(input.search)
  const terms = searchTerms(rest)
  const options = withDefaults(input)
  const { page, limit } = input
  const sizeKey = size ? [size.unit, size.total, size.count, size.each, size.packs ?? false] : null
  const key = `product:search:${JSON.stringify([terms.join(' '), page, limit, options, ...(size ? [sizeKey] : [])])}`
  // A search ranks in-stock products first (./list-query.ts): any product crossing 0 may reorder it.
  const cacheOptions = { availabilityOrdered: true }
  return storeCached(
    deps,
    key,
    async () => {
      // A search of a size alone names no product: nothing matches, and the answer says the size was
      // left out (docs/search.md, "Pack sizes"), rather than listing every product of that size.
      if (terms.length === 0 && size) {
        const understood: Understood = { query: '', synonyms: [], corrections: [], ignored: [size.typed], relaxed: [] }
        return { data: [], totalCount: 0, understood }
      }
      if (terms.length === 0) {
        if (!changesList(options)) return newestPage(deps, sql`p.publish`, page, limit)
        return listed(deps.db, {
          where: sql`true`,
          ranking: { score: null },
          options,
          page,
          limit,
          storeId: deps.storeId,
        })
      }
      // Only a search the cache could not answer costs database time: that is what is rate-limited.
      await opts.beforeSearch?.()
      // Read before the transaction: PGlite runs one statement at a time, and both are usually cached.
      const [vocabulary, shelves] = await Promise.all([loadSynonyms(deps), loadShelves(deps)])
      const run = () =>
        deps.db.transaction(async (tx) => {
          // Settings for this transaction only, made by its first query (the vocabulary look-up,
          // `lookUpWords`), so they hold from the next statement on:
          // - the statement timeout (past it the search answers 503);
          // - the similarity threshold of pg_trgm's `%` (spelling candidates);
          // - no sequential scans: the planner prices scans of products and of the vocabulary below
          //   the full-text and trigram indexes whose keys come from the search's own rows, then tests
          //   every row (6 ms instead of 0.3 ms for one word on 8,208 products; 70 ms instead of 1.5 ms
          //   for a spelling look-up on 12,000 words, measured);
          // - no JIT: priced that way a statement would start PostgreSQL's JIT compiler, about 20 ms a
          //   statement, more than the search itself.
          // The look-up itself needs none of them: it probes two b-tree indexes, at most 8 words.
          const settings = sql`set_config('statement_timeout', ${String(SEARCH_STATEMENT_TIMEOUT_MS)}, true),
            set_config('pg_trgm.similarity_threshold', ${String(CANDIDATE_SIMILARITY)}, true),
            set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`
          const understanding = await understand(tx, terms, vocabulary, settings, (word) => listsShelf(shelves, word))
          const corrections = new Map(understanding.corrections.map((c) => [c.typed, c.to]))
          const understood: Understood = {
            query: queryText(terms, understanding.groups, corrections, size),
            synonyms: understanding.synonyms.map((s) => ({ word: s.typed, means: s.means })),
            corrections: understanding.corrections.map((c) => ({ word: c.typed, to: c.to })),
            ignored: understanding.ignored,
            relaxed: [],
            ...(understanding.notStocked.length > 0
              ? { notStocked: understanding.notStocked.map((n) => ({ word: n.typed, showing: n.showing })) }
              : {}),
          }
          if (understanding.groups.length === 0) return { data: [], totalCount: 0, understood }
          const query = (groups: Group[]): ListQuery => ({
            ...searchListParts(groups, shelves, terms.join(' '), size),
            options,
            page,
            limit,
            storeId: deps.storeId,
          })
          let answer = await listed(tx, query(understanding.groups))
          // No product has every word: keep the search's product word (`productGroup`), which is what
          // the shopper is buying ("brown bread" → bread, "butter amul" → butter), and say which words
          // were dropped.
          const filtered = options.brand.length > 0 || options.price !== null || options.discount !== null
          const hard = understanding.groups.filter((g) => !g.soft)
          let kept = understanding.groups
          if (answer.totalCount === 0 && hard.length > 1 && !filtered) {
            const head = productGroup(hard, shelves)
            kept = understanding.groups.filter((g) => g === head || g.soft)
            answer = await listed(tx, query(kept))
            understood.relaxed = hard.filter((g) => g !== head).flatMap((g) => g.typed)
          }
          // A modifier no product of the page carries was not found: say so, as for a dropped word.
          const missing = kept.filter((g) => g.soft && !answer.data.some((p) => carriesAny(`${p.name} ${p.more_details?.brand ?? ''}`, g)))
          if (missing.length > 0) {
            understood.relaxed = [...understood.relaxed, ...missing.flatMap((g) => g.typed)]
            kept = kept.filter((g) => !missing.includes(g))
          }
          if (kept !== understanding.groups) understood.query = queryText(terms, kept, corrections, size)
          const first = answer.data[0]
          // The notice and the list agree: when no product of the page is what the notice says is shown
          // ("No vim products; showing dishwash bar" above a dishwash powder: the store has no dishwash
          // bar), the notice names the shelf the page shows instead (docs/search.md, "Matching").
          if (understood.notStocked && first) {
            const shownShelf = first.subCategory[0]?.name.toLowerCase()
            understood.notStocked = understood.notStocked.map((n) =>
              shownShelf &&
              !answer.data.some((p) => n.showing.some((phrase) => carries(`${p.name} ${p.more_details?.brand ?? ''}`, words(phrase))))
                ? { ...n, showing: [shownShelf] }
                : n,
            )
          }
          // What was not found is answered with the nearest shelf: the first product's.
          if (first && (understood.relaxed.length > 0 || understood.notStocked)) {
            const [category] = first.category
            const [subCategory] = first.subCategory
            if (category && subCategory) {
              understood.shelf = {
                category: { _id: category._id, name: category.name },
                subCategory: { _id: subCategory._id, name: subCategory.name },
              }
            }
          }
          return { ...answer, understood }
        })
      return opts.gate ? opts.gate.run(run) : run()
    },
    cacheOptions,
  )
}

/**
 * One page of a category listing (POST /api/product/get-product-by-category-and-subcategory) with
 * the optional filters, sort and facets; without them, exactly `productsByCategoryAndSubCategory`.
 * Cached under `product:listing:[categoryIds, subCategoryIds, page, limit, options]`; a listing the
 * cache cannot answer waits at `opts.gate` like a search (counting a large category's facets is
 * the costliest listing there is).
 */
export function productListing(
  deps: ProductReadDeps,
  input: ProductsByCategoryAndSubCategoryInput & Partial<ListOptions>,
  opts: { gate?: Gate } = {},
): Promise<ListAnswer> {
  const options = withDefaults(input)
  if (!changesList(options)) return productsByCategoryAndSubCategory(deps, input)
  const { categoryId, subCategoryId, page, limit } = input
  const key = `product:listing:${JSON.stringify([categoryId, subCategoryId, page, limit, options])}`
  const run = () =>
    listed(deps.db, {
      candidates: sql`select pc.product_id as id from product_categories pc where pc.category_id = any(${textArray(categoryId)})`,
      where: subCategoryId
        ? sql`exists (select 1 from product_sub_categories psc
                      where psc.product_id = p.id and psc.sub_category_id = any(${textArray(subCategoryId)}))`
        : sql`true`,
      ranking: { score: null },
      options,
      page,
      limit,
      storeId: deps.storeId,
    })
  return storeCached(deps, key, () => (opts.gate ? opts.gate.run(run) : run()), { availabilityOrdered: true })
}

/** The list options of a request that may lack them (callers other than the routes). */
function withDefaults(input: Partial<ListOptions>): ListOptions {
  return {
    brand: input.brand ?? [],
    price: input.price ?? null,
    discount: input.discount ?? null,
    sort: input.sort ?? 'relevance',
    facets: input.facets ?? false,
    groupSizes: input.groupSizes ?? false,
  }
}
