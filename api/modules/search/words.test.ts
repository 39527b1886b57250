/**
 * The pure parts of the search: words and forms (terms.ts), shelf tiers (shelves.ts), the choice of
 * a spelling correction (spelling.ts) and the synonym map (synonyms.ts).
 */
import { describe, expect, it } from 'vitest'
import { sameWord, singulars, wordForms } from './terms.ts'
import { shelfHoldsPhrase, shelfItems, shelfTier, ShelfTier, type Shelf } from './shelves.ts'
import { chooseCorrection, maxEdits } from './spelling.ts'
import { synonymMap } from './synonyms.ts'

const shelf = (name: string): Shelf => ({ id: name, kind: 'subCategory', items: shelfItems(name), categoryIds: [] })

describe('word forms', () => {
  it('lists plural and singular forms, and compares words up to a plural', () => {
    expect(singulars('tomatoes')).toEqual(['tomatoes', 'tomatoe', 'tomato'])
    expect(singulars('gas')).toEqual(['gas'])
    expect(wordForms('berry')).toEqual(['berry', 'berrys', 'berryes', 'berries'])
    expect(wordForms('eggs')).toEqual(['eggs', 'egg'])
    expect(sameWord('cookie', 'cookies')).toBe(true)
    expect(sameWord('berries', 'berry')).toBe(true)
    expect(sameWord('dal', 'dals')).toBe(true)
    expect(sameWord('milk', 'mill')).toBe(false)
  })
})

describe('shelf tiers', () => {
  it('scores the whole name, an item and a head noun, and nothing for a modifier', () => {
    expect(shelfTier(shelf('Milk'), ['milk'])).toBe(ShelfTier.NAME)
    expect(shelfTier(shelf('Green Tea'), ['green', 'tea'])).toBe(ShelfTier.NAME)
    expect(shelfTier(shelf('Sooji, Maida & Besan'), ['besan'])).toBe(ShelfTier.LAST_ITEM)
    expect(shelfTier(shelf('Sooji, Maida & Besan'), ['maida'])).toBe(ShelfTier.ITEM)
    expect(shelfTier(shelf('Flavoured, Soya Milk'), ['milk'])).toBe(ShelfTier.LAST_HEAD)
    expect(shelfTier(shelf('Urad & Other Dals'), ['dal'])).toBe(ShelfTier.LAST_HEAD)
    expect(shelfTier(shelf('Organic Sugar, Jaggery'), ['sugar'])).toBe(ShelfTier.HEAD)
    expect(shelfTier(shelf('Rice & Other Flours'), ['rice'])).toBe(ShelfTier.ITEM)
    expect(shelfTier(shelf('Glucose & Milk Biscuits'), ['milk'])).toBe(ShelfTier.NONE)
    expect(shelfTier(shelf('Chocolates'), ['chocolate'])).toBe(ShelfTier.NAME)
  })

  it('lets a shelf hold only the phrase that is its whole name or its own kind', () => {
    const dals = shelf('Toor, Channa & Moong Dal')
    expect(shelfHoldsPhrase(shelfTier(dals, ['dal']))).toBe(true)
    expect(shelfHoldsPhrase(shelfTier(dals, ['toor']))).toBe(false)
    expect(shelfHoldsPhrase(shelfTier(shelf('Boiled & Steam Rice'), ['rice']))).toBe(true)
    expect(shelfHoldsPhrase(shelfTier(shelf('Hair Oil & Serum'), ['oil']))).toBe(false)
    expect(shelfHoldsPhrase(shelfTier(shelf('Curd'), ['curd']))).toBe(true)
  })
})

describe('spelling corrections', () => {
  it('prefers the frequent word at the same distance (bred → bread, not brew)', () => {
    const candidates = [
      { word: 'brew', products: 5 },
      { word: 'bread', products: 13 },
      { word: 'breed', products: 1 },
    ]
    expect(chooseCorrection('bred', 0, candidates)?.word).toBe('bread')
  })

  it('never replaces a known short word, and keeps the first letter', () => {
    expect(chooseCorrection('toor', 5, [{ word: 'tool', products: 50 }])).toBeNull()
    expect(chooseCorrection('toor', 1, [{ word: 'tool', products: 50 }])).toBeNull()
    expect(chooseCorrection('panner', 0, [{ word: 'banner', products: 3 }])).toBeNull()
    expect(chooseCorrection('panner', 0, [{ word: 'paneer', products: 10 }])?.word).toBe('paneer')
  })

  it('corrects a known rare long word only to a far commoner one', () => {
    expect(chooseCorrection('panner', 1, [{ word: 'paneer', products: 30 }])?.word).toBe('paneer')
    expect(chooseCorrection('panner', 1, [{ word: 'paneer', products: 6 }])).toBeNull()
  })

  it('bounds the edits by the length of the word', () => {
    expect([3, 4, 5, 7, 8].map(maxEdits)).toEqual([1, 1, 2, 2, 3])
    expect(chooseCorrection('tea', 0, [{ word: 'team', products: 40 }])?.word).toBe('team')
    expect(chooseCorrection('ta', 0, [{ word: 'tea', products: 40 }])).toBeNull()
    expect(chooseCorrection('chcolate', 0, [{ word: 'chocolate', products: 100 }])?.word).toBe('chocolate')
  })
})

describe('synonym map', () => {
  it('maps shopper words to catalogue phrases, both ways when asked, normalised', () => {
    const map = synonymMap([
      { word: 'Doodh', means: 'milk', bothWays: false },
      { word: 'dahi', means: 'curd', bothWays: true },
      { word: 'atta', means: 'Wheat Flour', bothWays: true },
      { word: 'rava', means: 'rava', bothWays: false },
    ])
    expect(map.get('doodh')).toEqual([['milk']])
    expect(map.get('milk')).toBeUndefined()
    expect(map.get('curd')).toEqual([['dahi']])
    expect(map.get('wheat flour')).toEqual([['atta']])
    expect(map.get('rava')).toEqual([])
  })
})
