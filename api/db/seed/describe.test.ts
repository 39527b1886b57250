/** Generated product descriptions: unit wording, brand handling, determinism, and the whole CSV reading cleanly. */
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { brandedName, describeProduct, unitPhrase } from './describe.ts'
import { BUNDLED_CATALOG_CSV } from './ensure.ts'
import { parseCatalogCsv } from './import-catalog.ts'

describe('unitPhrase', () => {
  it.each([
    ['2 kg', 'in a 2 kg pack'],
    ['1 Kg', 'in a 1 kg pack'],
    ['500 ml', 'in a 500 ml pack'],
    ['1 L', 'in a 1 L pack'],
    ['250gm', 'in a 250 g pack'],
    ['12 pcs', 'in a pack of 12'],
    ['1 pc', 'as a single piece'],
    ['1 pc (approx. 1 -3 kg)', 'as a single piece (approx. 1 -3 kg)'],
    ['2x200 g', 'as a multipack of 2 x 200 g'],
    ['3 X 100 ml', 'as a multipack of 3 x 100 ml'],
    ['Combo', 'as a combo'],
    ['set of 4', 'as a set of 4'],
    ['(Pack Of 50)', 'in a pack of 50'],
    ['60 Tablets', 'in a pack of 60 tablets'],
    ['12 inch', 'as 12 inch'],
  ])('%s → %s', (unit, phrase) => {
    expect(unitPhrase(unit)).toBe(phrase)
  })
})

describe('describeProduct', () => {
  const onion = {
    id: '1',
    name: 'Onion (Loose)',
    brand: 'Fresho',
    unit: '2 kg',
    subCategory: 'Potato, Onion & Tomato',
    category: 'Fruits & Vegetables',
  }

  it('names the product, its unit, sub category and category, with the category note', () => {
    const text = describeProduct(onion)
    expect(text).toMatch(
      /^Fresho Onion \(Loose\) comes in a 2 kg pack\. One of our Potato, Onion & Tomato picks in Fruits & Vegetables\. Wash well before use\.$/,
    )
  })

  it('is deterministic and varies its wording between products', () => {
    expect(describeProduct(onion)).toBe(describeProduct({ ...onion }))
    const openings = new Set(Array.from({ length: 30 }, (_, i) => describeProduct({ ...onion, id: String(i) }).split('.')[1]))
    expect(openings.size).toBe(3)
  })

  it('does not repeat a brand the name already starts with', () => {
    expect(brandedName('Fresho', 'Fresho Signature Bread')).toBe('Fresho Signature Bread')
    expect(brandedName('Amul', 'Butter')).toBe('Amul Butter')
    expect(describeProduct({ ...onion, name: 'Fresho Signature Bread' })).not.toContain('Fresho Fresho')
  })

  it('reads cleanly for all 8,208 products', () => {
    const rows = parseCatalogCsv(fs.readFileSync(BUNDLED_CATALOG_CSV))
    for (const r of rows) {
      const text = describeProduct({ id: r.productId, ...r })
      expect(text).not.toMatch(/undefined|null|\s{2}|\.\./)
      expect(text.endsWith('.')).toBe(true)
      expect(text).toContain(r.category)
    }
  })
})
