import { describe, expect, it } from 'vitest'
import { categoryPath, idFromSlug, isCanonicalSlug, listingPath, nameFromSlug, productPath, slugify, toSlug } from './slug.ts'

const ID = '65f1c0ffee0123456789abcd'

describe('slugify (docs/product.md, "Slugs": spaces, commas and dollar signs become hyphens)', () => {
  it('replaces spaces, commas and dollar signs with hyphens', () => {
    expect(slugify('Amul Taaza Milk')).toBe('Amul-Taaza-Milk')
    expect(slugify('Salt,Sugar')).toBe('Salt-Sugar')
    expect(slugify('Value$Pack')).toBe('Value-Pack')
  })

  it('collapses runs of separators into one hyphen and trims the ends', () => {
    expect(slugify('Fruits & Vegetables')).toBe('Fruits-Vegetables')
    expect(slugify('Potato, Onion & Tomato')).toBe('Potato-Onion-Tomato')
    expect(slugify('  Tea ,, Coffee $ ')).toBe('Tea-Coffee')
    expect(slugify('--Dal--')).toBe('Dal')
  })

  it('removes characters that would break a path segment', () => {
    expect(slugify('Oil/Ghee? 50% #1')).toBe('Oil-Ghee-50-1')
    expect(slugify('Atta (5 kg) + Dal = Combo')).toBe('Atta-5-kg-Dal-Combo')
    expect(slugify('Ready.To.Eat')).toBe('Ready-To-Eat')
  })

  it('drops apostrophes instead of splitting the word', () => {
    expect(slugify("Haldiram's Bhujia")).toBe('Haldirams-Bhujia')
    expect(slugify('Kellogg’s Corn Flakes')).toBe('Kelloggs-Corn-Flakes')
  })

  it('keeps letter case and letters of any script', () => {
    expect(slugify('Crème Brûlée')).toBe('Crème-Brûlée')
    expect(slugify('अरहर दाल')).toBe('अरहर-दाल')
    // NFC: a decomposed é and a precomposed é give the same slug.
    expect(slugify('Cafe\u0301 Latte')).toBe(slugify('Caf\u00e9 Latte'))
  })

  it('gives an empty string for a name with no letters or digits', () => {
    expect(slugify(' & $ , ')).toBe('')
  })
})

describe('toSlug and idFromSlug (the id is the last dash-separated piece)', () => {
  it('joins the readable name and the id with a dash', () => {
    expect(toSlug('Fruits & Vegetables', ID)).toBe(`Fruits-Vegetables-${ID}`)
  })

  it('falls back to the bare id when the name has nothing readable', () => {
    expect(toSlug('&&', ID)).toBe(ID)
    expect(idFromSlug(toSlug('&&', ID))).toBe(ID)
  })

  it('reads the id back from any slug it made', () => {
    for (const name of ['Potato, Onion & Tomato', 'Value$Pack', 'Dal', 'Multi-Grain Atta - 5 kg', 'अरहर दाल']) {
      expect(idFromSlug(toSlug(name, ID))).toBe(ID)
    }
  })

  it('takes the last piece of hand-written slugs too', () => {
    expect(idFromSlug('Milk-abc123')).toBe('abc123')
    expect(idFromSlug('abc123')).toBe('abc123')
    expect(idFromSlug('Milk-')).toBeNull()
    expect(idFromSlug('')).toBeNull()
  })

  it('reads the name words before the id', () => {
    expect(nameFromSlug(`Fruits-Vegetables-${ID}`)).toBe('Fruits Vegetables')
    expect(nameFromSlug(ID)).toBe('')
  })

  it('tells canonical slugs from stale ones', () => {
    const product = { _id: ID, name: 'Amul Gold Milk' }
    expect(isCanonicalSlug(`Amul-Gold-Milk-${ID}`, product)).toBe(true)
    expect(isCanonicalSlug(`Amul-Milk-${ID}`, product)).toBe(false)
    expect(isCanonicalSlug(ID, product)).toBe(false)
  })
})

describe('link builders', () => {
  const category = { _id: 'c1', name: 'Fruits & Vegetables' }
  const subCategory = { _id: 's2', name: 'Potato, Onion & Tomato' }

  it('builds product, category and listing paths', () => {
    expect(productPath({ _id: 'p3', name: 'Fresho Onion, 1 kg' })).toBe('/product/Fresho-Onion-1-kg-p3')
    expect(categoryPath(category)).toBe('/Fruits-Vegetables-c1')
    expect(listingPath(category, subCategory)).toBe('/Fruits-Vegetables-c1/Potato-Onion-Tomato-s2')
  })

  it('percent-encodes names in other scripts so the path is ASCII', () => {
    const path = productPath({ _id: 'p4', name: 'अरहर दाल' })
    expect(path).toMatch(/^[\x21-\x7e]+$/)
    expect(decodeURIComponent(path)).toBe('/product/अरहर-दाल-p4')
  })
})
