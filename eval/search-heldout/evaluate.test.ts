/**
 * The search evaluation (./evaluate.ts) runs end to end: every held-out and tuning query is searched
 * and scored as eval/search-heldout/README.md, "Metrics" defines, every figure is a rate in [0, 1],
 * and the held-out set meets its targets (docs/search.md, "Relevance"; decision
 * docs/decisions/0028-search-held-out-ranking.md): first result relevant for at least 85 % of the
 * queries and mean P@5 at least 0.8, over all of them and over the multi-word and the sized ones
 * alike. The second held-out set (./queries-2.json, n001–n100, written blind later) is scored in the
 * same run over its answerable queries against the floor of its first run (78 %, P@5 0.79), below its
 * targets of 90 % and 0.8 (eval/search-heldout/README.md, "The second set (n001–n100)"). The fourth set
 * (./queries-4.json, f001–f100, written blind and scored once the search changes it measures were made)
 * must meet those targets over its answerable queries. One store (one
 * PGlite with the real catalogue) serves the whole file: a new instance costs seconds
 * (docs/stack.md, "PGlite").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/** Held-out targets (docs/search.md, "Relevance"): first result relevant, mean precision@5. */
const FIRST_RELEVANT_TARGET = 0.85
const PRECISION_TARGET = 0.8
/**
 * Second-set floors over its answerable queries: below its figures now, 84.5 % and P@5 0.86 (its first run: 78.9 %
 * and 0.80), and below the
 * targets of 90 % and 0.80 it is to reach (eval/search-heldout/README.md, "The second set (n001–n100)").
 * Raise them as the search improves; never lower them to pass.
 */
const SECOND_FIRST_RELEVANT_FLOOR = 0.8
const SECOND_PRECISION_FLOOR = 0.8
/**
 * Fourth-set targets over its answerable queries (eval/search-heldout/README.md, "The fourth set (f001–f100)"):
 * its first blind run scored 92.5 % and P@5 0.88.
 */
const FOURTH_FIRST_RELEVANT_TARGET = 0.9
const FOURTH_PRECISION_TARGET = 0.8
import { loadRelevanceSet } from '../../api/modules/search/relevance-judge.ts'
import {
  evaluate,
  figures,
  loadHeldOut,
  noMatchMessage,
  openStore,
  parseSets,
  toJudgeProducts,
  unanswerableHit,
  type AnswerProduct,
  type Evaluation,
  type SearchAnswer,
  type SetEvaluation,
  type Store,
} from './evaluate.ts'

const product = (name: string, shelf: string, extra: Partial<AnswerProduct> = {}): AnswerProduct => ({
  _id: name,
  name,
  unit: '1 kg',
  category: [{ name: 'Foodgrains, Oil & Masala' }],
  subCategory: [{ name: shelf }],
  more_details: { brand: 'AKAR' },
  ...extra,
})
const understood = (fields: Partial<NonNullable<SearchAnswer['understood']>>) => ({
  query: '',
  synonyms: [],
  corrections: [],
  ignored: [],
  relaxed: [],
  ...fields,
})

describe('the unanswerable rule (README, "Metrics")', () => {
  const salts = [product('Salt/Uppu - Crystal', 'Salts')]

  it('is a hit when the answer says nothing has every word and shows the nearest shelf', () => {
    const answer = { products: salts, totalCount: 41, understood: understood({ query: 'salt', relaxed: ['tata'] }) }
    expect(noMatchMessage('tata salt', answer)).toBe('No product matches all of “tata salt”: showing results for salt.')
    expect(unanswerableHit('tata salt', answer, 'Salts')).toBe(true)
    expect(unanswerableHit('tata salt', answer, 'Dustbins')).toBe(false)
  })

  it('misses products shown as if they matched, an empty answer, and a left-out size word', () => {
    expect(unanswerableHit('tata salt', { products: salts, totalCount: 41, understood: understood({ query: 'tata salt' }) }, 'Salts')).toBe(
      false,
    )
    expect(unanswerableHit('tata salt', { products: [], totalCount: 0 }, 'Salts')).toBe(false)
    const sizeOnly = { products: salts, totalCount: 41, understood: understood({ query: 'salt', ignored: ['g'] }) }
    expect(noMatchMessage('salt g', sizeOnly)).toBeNull()
  })

  it('is a hit when the answer says the brand is not stocked and offers the nearest shelf', () => {
    const biscuits = [product('Tiger Glucose Biscuits', 'Glucose & Milk Biscuits')]
    const shelf = { category: { _id: 'c', name: 'Snacks & Branded Foods' }, subCategory: { _id: 's', name: 'Glucose & Milk Biscuits' } }
    const said = understood({ query: 'parle g', notStocked: [{ word: 'parle g', showing: ['biscuits'] }], shelf })
    const answer = { products: biscuits, totalCount: 25, understood: said }
    expect(noMatchMessage('parle g', answer)).toBe('No parle g products; showing biscuits.')
    expect(unanswerableHit('parle g', answer, 'Glucose & Milk Biscuits')).toBe(true)
    expect(unanswerableHit('parle g', answer, 'Cookies')).toBe(false)
  })

  it('maps an answer product to the judge: brand from more_details, shelf names, pack size', () => {
    expect(toJudgeProducts(product('Salt/Uppu - Crystal', 'Salts'))).toEqual([
      { name: 'Salt/Uppu - Crystal', brand: 'AKAR', category: 'Foodgrains, Oil & Masala', subCategory: 'Salts', packSize: '1 kg' },
    ])
  })
})

describe('the --set option', () => {
  it('scores the first set by default, the second with --set 2, the third with --set 3, the fourth with --set 4, the four with --set all, and refuses anything else', () => {
    expect(parseSets([])).toEqual(['1'])
    expect(parseSets(['--set', '1'])).toEqual(['1'])
    expect(parseSets(['--set', '2'])).toEqual(['2'])
    expect(parseSets(['--set', 'all'])).toEqual(['1', '2', '3', '4'])
    expect(parseSets(['--set', '3'])).toEqual(['3'])
    expect(parseSets(['--set', '4'])).toEqual(['4'])
    expect(() => parseSets(['--set', '5'])).toThrow(/--set takes 1, 2, 3, 4 or all/)
    expect(() => parseSets(['--set'])).toThrow(/--set takes/)
  })
})

/** A scored set that must be there (the run below scores both). */
function scored(set: SetEvaluation | undefined, name: string): SetEvaluation {
  if (!set) throw new Error(`${name} was not scored`)
  return set
}

describe('the search evaluation on the real catalogue', () => {
  let store: Store
  let result: Evaluation
  let first: SetEvaluation
  let second: SetEvaluation
  let fourth: SetEvaluation

  beforeAll(async () => {
    store = await openStore()
    result = await evaluate(store, ['1', '2', '4'])
    first = scored(result.heldOut, 'queries.json')
    second = scored(result.heldOut2, 'queries-2.json')
    fourth = scored(result.heldOut4, 'queries-4.json')
    console.log(figures(result))
  }, 200_000)
  afterAll(() => store?.close())

  it('scores every query of every set, each figure in [0, 1]', () => {
    expect(first.scores.map((s) => s.id)).toEqual(loadHeldOut().map((q) => q.id))
    expect(second.scores.map((s) => s.id)).toEqual(loadHeldOut('2').map((q) => q.id))
    expect(result.tuning.scores.map((s) => s.query)).toEqual(loadRelevanceSet().map((q) => q.q))
    expect(first.overall.queries).toBe(loadHeldOut().length)
    expect(second.overall.queries).toBe(100)
    expect(fourth.scores.map((s) => s.id)).toEqual(loadHeldOut('4').map((q) => q.id))
    const all = [first, second, fourth, result.tuning].flatMap((set) => [set.overall, ...set.byKind])
    for (const s of all) {
      expect(s.firstRelevant, s.label).toBeGreaterThanOrEqual(0)
      expect(s.firstRelevant, s.label).toBeLessThanOrEqual(1)
      expect(s.precision, s.label).toBeGreaterThanOrEqual(0)
      expect(s.precision, s.label).toBeLessThanOrEqual(1)
    }
    for (const s of [...first.scores, ...second.scores, ...fourth.scores, ...result.tuning.scores]) {
      expect([0, 1]).toContain(s.first)
      expect(s.precision).toBeGreaterThanOrEqual(0)
      expect(s.precision).toBeLessThanOrEqual(1)
    }
    // Every kind of the README has queries (a kind with none would print a meaningless 0).
    for (const set of [first, second, fourth]) expect(set.byKind.filter((s) => s.queries === 0).map((s) => s.label)).toEqual([])
  })

  it('meets the held-out targets, over all queries and over the multi-word and the sized ones', () => {
    const groups = [first.overall, ...first.byKind.filter((s) => s.label === 'multi-word' || s.label === 'sized')]
    expect(groups.map((s) => s.label)).toEqual(['all', 'multi-word', 'sized'])
    for (const s of groups) {
      expect(s.firstRelevant, `${s.label}: first result relevant`).toBeGreaterThanOrEqual(FIRST_RELEVANT_TARGET)
      expect(s.precision, `${s.label}: P@5`).toBeGreaterThanOrEqual(PRECISION_TARGET)
    }
  })

  describe('the second held-out set (n001–n100)', () => {
    it('holds its floor over its answerable queries: first result relevant ≥ 80 %, P@5 ≥ 0.8', () => {
      const answerable = second.byKind.find((s) => s.label === 'answerable')
      expect(answerable?.queries).toBe(loadHeldOut('2').filter((q) => !q.unanswerable).length)
      expect(answerable?.firstRelevant, 'answerable: first result relevant').toBeGreaterThanOrEqual(SECOND_FIRST_RELEVANT_FLOOR)
      expect(answerable?.precision, 'answerable: P@5').toBeGreaterThanOrEqual(SECOND_PRECISION_FLOOR)
    })
  })

  describe('the fourth held-out set (f001–f100), scored blind after the 2027-02 vocabulary and the organic head noun', () => {
    it('meets the search targets over its answerable queries: first result relevant ≥ 90 %, P@5 ≥ 0.8', () => {
      const answerable = fourth.byKind.find((s) => s.label === 'answerable')
      expect(answerable?.queries).toBe(loadHeldOut('4').filter((q) => !q.unanswerable).length)
      expect(answerable?.firstRelevant, 'answerable: first result relevant').toBeGreaterThanOrEqual(FOURTH_FIRST_RELEVANT_TARGET)
      expect(answerable?.precision, 'answerable: P@5').toBeGreaterThanOrEqual(FOURTH_PRECISION_TARGET)
    })
  })
})
