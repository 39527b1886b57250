/**
 * Shelves named by a search (docs/search.md, "Ranking"): the categories and sub categories whose
 * names say what the shopper typed. A shelf name is a list of items ("Toor, Channa & Moong Dal" →
 * "toor", "channa", "moong dal"), and each item ends with its head noun ("moong dal" → dal). A
 * search word (in any form, `sameWord`) scores a shelf by how it appears:
 *
 * - NAME (30): the whole name is the phrase ("Milk", "Curd", "Green Tea" for "green tea");
 * - LAST_ITEM (20) or LAST_HEAD (20): the last item is the phrase or ends with it, the shelf's own
 *   kind of product ("Sooji, Maida & Besan" for besan, "Basmati Rice" for rice);
 * - ITEM (15) or HEAD (5): an earlier item is the phrase or ends with it ("Sugar & Jaggery" for
 *   sugar, "Organic Sugar, Jaggery" for sugar);
 * - otherwise 0 ("Glucose & Milk Biscuits" is a shelf of biscuits, not of milk).
 *
 * Read once into memory through the catalogue cache (`search:shelves`; a few hundred rows), so a
 * search costs no query for it; every catalogue write clears it (api/lib/cache.ts).
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '../../db/query.ts'
import type { CatalogDeps } from '../category/service.ts'
import { sameWord, singulars, words } from './terms.ts'

/**
 * Points of a phrase's place in a shelf name (see the module comment). The last item is the shelf's
 * own kind of product ("Rice & Other Flours" is a shelf of flours; "Sugar & Jaggery" holds both), so
 * an item or head noun there counts more than elsewhere.
 */
export const ShelfTier = { NONE: 0, HEAD: 5, ITEM: 15, LAST_HEAD: 20, LAST_ITEM: 20, NAME: 30 } as const

/** A category or sub category as search reads it. */
export interface Shelf {
  id: string
  kind: 'category' | 'subCategory'
  /** The words of each item of the name, in order. */
  items: string[][]
  /** A sub category's categories (its departments); empty for a category. */
  categoryIds: string[]
  /** A category of fresh food (`FRESH_DEPARTMENT`); false for a sub category. */
  fresh?: boolean
}

/**
 * A category whose name says it sells fresh food: fruits, vegetables, meat, fish, eggs (the
 * catalogue's "Fruits & Vegetables", "Eggs, Meat & Fish"). Read from the store's own category names,
 * so a renamed or new fresh department counts without code changes.
 */
export const FRESH_DEPARTMENT = /\b(fruits?|vegetables?|meat|fish|eggs?)\b/i

/** Splits a shelf name into its items' words: on commas, "&" and "and". */
export function shelfItems(name: string): string[][] {
  return name
    .split(/,|&|\band\b/i)
    .map(words)
    .filter((item) => item.length > 0)
}

/** Whether `item` ends with `phrase` (every word the same up to plurals). */
function endsWith(item: string[], phrase: string[]): boolean {
  if (phrase.length > item.length) return false
  const tail = item.slice(item.length - phrase.length)
  return phrase.every((word, i) => sameWord(word, tail[i]!))
}

/** The points of `phrase` (a search word or phrase) in `shelf`'s name (`ShelfTier`). */
export function shelfTier(shelf: Shelf, phrase: string[]): number {
  const all = shelf.items.flat()
  if (all.length === phrase.length && endsWith(all, phrase)) return ShelfTier.NAME
  const last = shelf.items.at(-1) ?? []
  if (last.length === phrase.length && endsWith(last, phrase)) return ShelfTier.LAST_ITEM
  if (endsWith(last, phrase)) return ShelfTier.LAST_HEAD
  if (shelf.items.some((item) => item.length === phrase.length && endsWith(item, phrase))) return ShelfTier.ITEM
  if (shelf.items.some((item) => endsWith(item, phrase))) return ShelfTier.HEAD
  return ShelfTier.NONE
}

/**
 * Whether a shelf whose name gives `phrase` `tier` points holds only things the phrase names, so
 * that its products match the phrase even when their own names do not say it (the "Frozen Indian
 * Breads" shelf's naan is bread): the phrase is the whole name or the shelf's own kind (its last
 * item or that item's head noun). An earlier item ("Toor" of "Toor, Channa & Moong Dal") shares
 * the shelf with other things, so its products match only by their own names.
 */
export function shelfHoldsPhrase(tier: number): boolean {
  return tier === ShelfTier.NAME || tier === ShelfTier.LAST_ITEM || tier === ShelfTier.LAST_HEAD
}

/** Shelves by each singular form of their items' last words (`shelvesNaming`), per list of shelves. */
const namingIndexes = new WeakMap<Shelf[], Map<string, Shelf[]>>()

/**
 * The shelves whose names give `phrase` points, with those points (`shelfTier` > 0). Every tier
 * needs the phrase to end an item of the name, so the phrase's last word is the same word
 * (`sameWord`: a singular form in common) as some item's last word: only the shelves indexed
 * under a singular form of it are scored, not the few hundred of the store.
 */
export function shelvesNaming(shelves: Shelf[], phrase: string[]): Array<{ shelf: Shelf; tier: number }> {
  let index = namingIndexes.get(shelves)
  if (!index) {
    index = new Map()
    for (const shelf of shelves) {
      for (const form of new Set(shelf.items.flatMap((item) => singulars(item.at(-1)!)))) {
        const list = index.get(form) ?? []
        list.push(shelf)
        index.set(form, list)
      }
    }
    namingIndexes.set(shelves, index)
  }
  const last = phrase.at(-1)
  if (last === undefined) return []
  const candidates = new Set(singulars(last).flatMap((form) => index.get(form) ?? []))
  return shelves
    .filter((shelf) => candidates.has(shelf))
    .map((shelf) => ({ shelf, tier: shelfTier(shelf, phrase) }))
    .filter((x) => x.tier > ShelfTier.NONE)
}

/** Every category and sub category, cached until the next catalogue write. */
export function loadShelves(deps: CatalogDeps): Promise<Shelf[]> {
  return deps.cache.get('search:shelves', async () => {
    // raw SQL: a UNION of two tables with an ordered array subquery, one read for the shelf index
    const rows = await queryRows<{ id: string; kind: Shelf['kind']; name: string; categoryIds: string[] }>(
      deps.db,
      sql`select id, 'category' as kind, name, array[]::text[] as "categoryIds" from categories
          union all
          select s.id, 'subCategory' as kind, s.name,
            array(select l.category_id from sub_category_categories l where l.sub_category_id = s.id order by l.category_id)
          from sub_categories s
          order by 1`,
    )
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      items: shelfItems(r.name),
      categoryIds: r.categoryIds,
      fresh: r.kind === 'category' && FRESH_DEPARTMENT.test(r.name),
    }))
  })
}
