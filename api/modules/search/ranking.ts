/**
 * What a search matches and how it ranks, as the parts of a list statement
 * (api/modules/search/list-query.ts). The rules are docs/search.md, "Matching" and "Ranking":
 * `POINTS` and `STRONG_SCORE` below are that document's table of points, and its relevance set
 * (docs/search.md, "Relevance") is where a change to them must prove itself.
 *
 * Ranking reads the catalogue's own structure (the sub category and category names, the product
 * name's head noun `search_head`, the brand), never a rule per query, so a catalogue's new shelves
 * and products rank without code changes. A product matches a group (api/modules/search/understand.ts)
 * by its name or brand, or by a shelf that holds what the group names (api/modules/search/shelves.ts).
 * Ties in the order the document gives end with the id, so paging is stable.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { ListQuery } from './list-query.ts'
import { shelfHoldsPhrase, shelvesNaming, ShelfTier, type Shelf } from './shelves.ts'
import { phraseQuery, wordForms, wordQuery } from './terms.ts'
import type { QuerySize } from '../product/sizes.ts'
import type { Alternative, Group } from './understand.ts'

/** Points per signal (docs/search.md, "Ranking"). */
export const POINTS = {
  EXACT_NAME: 100,
  WHOLE_SEARCH_SHELF: 30,
  DEPARTMENT: 10,
  HEAD: 15,
  HEAD_ELSEWHERE: 5,
  WORD: 10,
  OTHER_WORD: 8,
  PREFIX: 4,
  BRAND: 12,
  /** A fresh product (a shelf of the store's fresh departments, `Shelf.fresh`) whose name says what was searched. */
  FRESH: 12,
  /** Taken off a bundle ("Combo" pack, a name that joins products with "+") unless the search asks for a combo. */
  COMBO: -25,
  /** A modifier of the search (a colour, an attribute: `Group.soft`) that the name carries. */
  MODIFIER: 20,
} as const
/** Words by which a search asks for a bundle, so bundles are not ranked down. */
const COMBO_WORDS = new Set(['combo', 'combos', 'pack', 'packs', 'bundle', 'kit', 'set'])
/** Least points of a product the search's shelf or head noun agrees with (docs/search.md, "Ranking"). */
export const STRONG_SCORE = 30

/** The kind codes of the SQL function `pack_size` (migration 0009_pack_size). */
const SIZE_KINDS = { g: 1, ml: 2, pc: 3 } as const

/**
 * `r_size`: how well the product's pack size answers `size`, the tiers of `sizeTier`
 * (api/modules/product/sizes.ts) over the product's stored `search_pack` (`pack_size` of its unit,
 * migration 0009_pack_size).
 */
function sizeColumn(size: QuerySize): SQL {
  const total = sql`${String(size.total)}::numeric`
  const sameCount =
    size.count === null
      ? sql`true`
      : sql`(p.search_pack[3] = ${String(size.count)}::numeric and p.search_pack[4] = ${String(size.each)}::numeric)`
  const s = sql.raw('p.search_pack')
  if (size.packs) {
    // A pack count: a multipack of that many, or that many pieces (`sizeTier`), or a pack that holds
    // that many of its brand's single pack on the same shelf: Maggi's 280 g is its 4 x 70 g pack,
    // printed as one weight (docs/search.md, "Pack sizes"). The look-up reads the shelf's products
    // (GIN index on `search_sub_category_ids`) and runs only for a search naming a pack count.
    const singles = sql`exists (select 1 from products q
        where q.publish and q.id <> p.id and q.search_sub_category_ids && p.search_sub_category_ids
          and q.more_details->>'brand' = p.more_details->>'brand'
          and q.search_pack[1] = ${s}[1] and q.search_pack[3] = 1 and q.search_pack[2] * ${total} = ${s}[2])`
    return sql`(case when ${s} is null then 0
                 when ${s}[3] = ${total} or (${s}[1] = ${SIZE_KINDS.pc} and ${s}[2] = ${total}) then 3
                 when ${s}[3] = 1 and ${total} > 1 and ${singles} then 3 else 0 end) as r_size`
  }
  return sql`(case when ${s} is null or ${s}[1] <> ${SIZE_KINDS[size.unit]} then 0
                 when ${s}[2] = ${total} and ${sameCount} then 3
                 when ${s}[2] >= ${total} / 2 and ${s}[2] <= ${total} * 2 then 2 else 1 end) as r_size`
}

/** A tsquery text matching any of `alternatives` (restricted to the name or brand with `weight`); '' for none. */
function anyOf(alternatives: Alternative[], weight?: 'A' | 'B'): string {
  return alternatives
    .map((a) =>
      a.anyOrder
        ? `(${a.phrase.map((word) => wordQuery(word, { weight })).join(' & ')})`
        : `(${phraseQuery(a.phrase, { prefix: a.prefix, weight })})`,
    )
    .join(' | ')
}

const tsquery = (text: string) => sql`to_tsquery('simple', ${text})`

/** A `text[]` of bound parameters. */
function textArray(values: string[]): SQL {
  return values.length
    ? sql`array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`
    : sql`array[]::text[]`
}

/**
 * The condition and ranking of a search understood as `groups` (at least one), over the store's
 * `shelves`; `typed` is the search as typed (words joined by spaces, its size left out); `size` the pack
 * size it names, if any (api/modules/product/sizes.ts, `takeSize`), ranked and filtered by
 * (docs/search.md, "Pack sizes"). Every part reads the product
 * row alone (no subquery): the condition is answered by the GIN indexes on `search_doc` and
 * `search_sub_category_ids` in one bitmap scan, and the ranking columns are a few comparisons.
 */
export function searchListParts(
  groups: Group[],
  shelves: Shelf[],
  typed: string,
  size: QuerySize | null = null,
): Pick<ListQuery, 'where' | 'ranking'> {
  const whole = groups.flatMap((g) => g.typed)
  // The last group that names the thing bought (not a modifier): its shelves are the search's
  // departments and its last word the head noun.
  const lastHard = Math.max(
    0,
    groups.findLastIndex((g) => !g.soft),
  )
  // Points per (sub category, group); categories get half of the sum over the groups. Only the
  // shelves a phrase names are visited (`shelvesNaming`).
  const shelfPoints: Array<{ id: string; g: number; score: number }> = []
  const categoryPoints = new Map<string, number>()
  const holding: string[][] = groups.map(() => [])
  const departments = new Set<string>()
  const best = new Map<Shelf, number[]>()
  groups.forEach((group, g) => {
    for (const alt of group.alternatives) {
      if (alt.prefix || alt.anyOrder) continue
      for (const { shelf, tier } of shelvesNaming(shelves, alt.phrase)) {
        const points = best.get(shelf) ?? groups.map(() => ShelfTier.NONE as number)
        points[g] = Math.max(points[g]!, tier)
        best.set(shelf, points)
        const holds = shelfHoldsPhrase(tier) || (alt.byShelf === true && tier >= ShelfTier.ITEM)
        if (shelf.kind === 'subCategory' && holds && !group.soft) {
          if (!holding[g]!.includes(shelf.id)) holding[g]!.push(shelf.id)
          if (g === lastHard) for (const id of shelf.categoryIds) departments.add(id)
        }
      }
    }
  })
  for (const [shelf, points] of best) {
    if (shelf.kind === 'category') {
      const sum = points.reduce((a, b) => a + b, 0)
      if (sum > 0) categoryPoints.set(shelf.id, Math.round(sum / 2))
    } else {
      points.forEach((score, g) => {
        if (score > 0) shelfPoints.push({ id: shelf.id, g, score })
      })
    }
  }
  if (groups.length > 1) {
    for (const { shelf, tier } of shelvesNaming(shelves, whole)) {
      if (shelf.kind === 'subCategory' && tier >= ShelfTier.ITEM)
        shelfPoints.push({ id: shelf.id, g: -1, score: POINTS.WHOLE_SEARCH_SHELF })
    }
  }

  // Shelf points are read from the product's own copies of its links (`search_sub_category_ids`,
  // `search_category_ids`, migration 0007_search_shelves): a product on several scored shelves gets
  // the most points of them, the first tier its ids overlap, highest first.
  const bestOf = (column: SQL, points: Array<{ id: string; score: number }>) => {
    const tiers = [...new Set(points.map((x) => x.score))].sort((a, b) => b - a)
    if (tiers.length === 0) return sql`0`
    const whens = tiers.map((tier) => {
      const ids = [...new Set(points.filter((x) => x.score === tier).map((x) => x.id))]
      return sql`when ${column} && ${textArray(ids)} then ${sql.raw(String(tier))}`
    })
    return sql`(case ${sql.join(whens, sql` `)} else 0 end)`
  }
  const shelfOf = (g: number) =>
    bestOf(
      sql`p.search_sub_category_ids`,
      shelfPoints.filter((x) => x.g === g),
    )
  // A modifier never leaves a product out: it only ranks (docs/search.md, "Modifiers").
  const matches = groups.flatMap((group, g) => {
    if (group.soft) return []
    const byWords = sql`p.search_doc @@ ${tsquery(anyOf(group.alternatives))}`
    return [holding[g]!.length ? sql`(${byWords} or p.search_sub_category_ids && ${textArray(holding[g]!)})` : byWords]
  })
  const where = sql.join(matches, sql` and `)

  // Each part is computed once per product as a column of `matched` (r_…), and the points are
  // added up from those columns (`score`), so no text-search test runs twice.
  const columns: SQL[] = []
  const groupPoints = groups.map((group, g) => {
    // A synonym is the same thing in other words ("pudina" is mint), so it counts as the typed word;
    // a spelling correction is a guess, and counts less.
    const typedAlts = group.alternatives.filter((a) => !a.prefix && (a.source === 'typed' || a.source === 'synonym'))
    const otherAlts = group.alternatives.filter((a) => !a.prefix && a.source !== 'typed' && a.source !== 'synonym')
    const hits = [
      typedAlts.length ? sql`when p.search_doc @@ ${tsquery(anyOf(typedAlts, 'A'))} then ${POINTS.WORD}` : sql``,
      otherAlts.length ? sql`when p.search_doc @@ ${tsquery(anyOf(otherAlts, 'A'))} then ${POINTS.OTHER_WORD}` : sql``,
      sql`when p.search_doc @@ ${tsquery(anyOf(group.alternatives, 'A'))} then ${POINTS.PREFIX}`,
    ]
    const whole = [...typedAlts, ...otherAlts]
    const inBrand = whole.length ? sql`(case when p.search_doc @@ ${tsquery(anyOf(whole, 'B'))} then ${POINTS.BRAND} else 0 end)` : sql`0`
    columns.push(sql`(case ${sql.join(hits, sql` `)} else 0 end) as ${sql.raw(`r_n${g}`)}`)
    columns.push(sql`${shelfOf(g)} as ${sql.raw(`r_s${g}`)}`)
    columns.push(sql`${inBrand} as ${sql.raw(`r_b${g}`)}`)
    const [n, sh, b] = [`m.r_n${g}`, `m.r_s${g}`, `m.r_b${g}`].map((c) => sql.raw(c))
    // A bundle gets no modifier points: "red" of a "Red Chilli Powder + Turmeric" combo must not lift
    // it over the single chilli powders (docs/search.md, "Modifiers").
    if (group.soft) return sql`(case when m.r_combo then ${n} when ${n} > 0 or ${b} > 0 then ${n} + ${b} + ${POINTS.MODIFIER} else 0 end)`
    return sql`(${n} + (case when ${n} > 0 then ${sh} else ${sh} / 2 end) + ${b})`
  })
  const last = groups[lastHard]!
  const heads = [...new Set(last.alternatives.filter((a) => !a.prefix).flatMap((a) => wordForms(a.phrase.at(-1)!)))]
  columns.push(
    sql`${bestOf(
      sql`p.search_category_ids`,
      [...categoryPoints].map(([id, score]) => ({ id, score })),
    )} as r_category`,
  )
  columns.push(heads.length ? sql`p.search_head && ${textArray(heads)} as r_head` : sql`false as r_head`)
  // Fresh produce before processed food with the same words ("green chilli" is the chilli, then the
  // sauce): the product is on a fresh department and its own name says the search's last thing.
  const fresh = shelves.filter((shelf) => shelf.fresh).map((shelf) => shelf.id)
  columns.push(fresh.length ? sql`p.search_category_ids && ${textArray(fresh)} as r_fresh` : sql`false as r_fresh`)
  // A bundle ranks after single products unless the search asks for one (docs/search.md, "Ranking").
  // Substring tests only (no regular expression): they run once per match.
  const wantsCombo = whole.some((word) => COMBO_WORDS.has(word))
  columns.push(
    wantsCombo ? sql`false as r_combo` : sql`(p.unit ilike '%combo%' or p.name like '% + %' or p.name ilike '%combo%') as r_combo`,
  )
  columns.push(departments.size ? sql`p.search_category_ids && ${textArray([...departments])} as r_department` : sql`true as r_department`)
  // The length first: lower-casing every matched name costs more than all the other columns
  // (measured), and only names of the search's length can equal it.
  columns.push(sql`(length(p.name) = ${[...typed].length} and lower(p.name) = ${typed}) as r_exact`, sql`${shelfOf(-1)} as r_whole`)
  if (size) columns.push(sizeColumn(size))
  const headPoints = departments.size
    ? sql`(case when m.r_department then ${POINTS.DEPARTMENT} + (case when m.r_head then ${POINTS.HEAD} else 0 end)
               when m.r_head then ${POINTS.HEAD_ELSEWHERE} else 0 end)`
    : sql`(case when m.r_head then ${POINTS.HEAD} else 0 end)`
  const lastNamed = sql.raw(`m.r_n${lastHard}`)
  const score = sql`(case when m.r_exact then ${POINTS.EXACT_NAME} else 0 end) + m.r_whole + m.r_category
      + ${headPoints} + ${sql.join(groupPoints, sql` + `)}
      + (case when m.r_fresh and ${lastNamed} >= ${POINTS.OTHER_WORD} then ${POINTS.FRESH} else 0 end)
      + (case when m.r_combo then ${POINTS.COMBO} else 0 end)`
  return {
    where,
    ranking: {
      columns: sql.join(columns, sql`, `),
      score,
      strongScore: STRONG_SCORE,
      sized: size !== null,
      bundlesLast: groups.some((g) => g.soft),
    },
  }
}
