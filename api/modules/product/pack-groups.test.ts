/**
 * Pack groups (api/modules/product/pack-groups.ts; docs/product.md, "Pack sizes"): which products
 * are pack sizes of one, the sizes a name mentions taken out (api/modules/product/sizes.ts
 * `withoutSizes`), the order of a picker, and the SQL function `pack_group_key` (migration
 * 0019_pack_groups) agreeing with `packGroupKey` on every product of the bundled catalogue
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLED_CATALOG_CSV } from '../../db/seed/ensure.ts'
import { parseCatalogCsv } from '../../db/seed/import-catalog.ts'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { withoutSizes } from './sizes.ts'
import { byPackSize, packGroupKey } from './pack-groups.ts'

describe('withoutSizes', () => {
  it.each([
    ['Colgate Strong Teeth, 150 gm, India’s No: 1 Toothpaste', 'colgate strong teeth,  , india’s no: 1 toothpaste'],
    ['Butter 2x500 g Pack', 'butter   pack'],
    ['Oil 1 L', 'oil  '],
    ['Paneer - Premium Fresh', 'paneer - premium fresh'],
    // Not sizes: a number without a unit, a unit inside a word, "2X Stronger".
    ['5 Star Chocolate', '5 star chocolate'],
    ['Calcium-boost for 2X Stronger Teeth', 'calcium-boost for 2x stronger teeth'],
    ['Gluten Free Flour', 'gluten free flour'],
  ])('%s → %s', (text, expected) => {
    expect(withoutSizes(text)).toBe(expected)
  })
})

describe('packGroupKey', () => {
  it('gives the sizes of one product one key, whatever the unit', () => {
    const keys = ['200 g', '500 g', '1 kg', '2x200 g'].map((unit) => packGroupKey('Paneer - Premium Fresh', 'Milky Mist', unit))
    expect(new Set(keys)).toEqual(new Set(['milky mist|paneer premium fresh']))
  })

  it('compares brand and name without case, punctuation or spacing', () => {
    expect(packGroupKey('Paneer -  Premium Fresh', ' MILKY MIST ', '1 kg')).toBe(
      packGroupKey('paneer premium fresh', 'Milky Mist', '200 g'),
    )
  })

  it('takes the sizes a name repeats from its unit out of the name', () => {
    const a = packGroupKey('Colgate Strong Teeth, 150 gm, Calcium-boost', 'Colgate', '150 g')
    const b = packGroupKey('Colgate Strong Teeth, 500 gm, Calcium-boost', 'Colgate', '500 g')
    expect(a).toBe('colgate|colgate strong teeth calcium boost')
    expect(b).toBe(a)
  })

  it('keeps other brands, other names and other variants apart', () => {
    const paneer = packGroupKey('Paneer', 'Milky Mist', '200 g')
    expect(packGroupKey('Paneer', 'Amul', '200 g')).not.toBe(paneer)
    expect(packGroupKey('Paneer - Low Fat', 'Milky Mist', '200 g')).not.toBe(paneer)
    expect(packGroupKey('Onion (Loose)', 'Fresho', '1 kg')).not.toBe(packGroupKey('Onion', 'Fresho', '1 kg'))
  })

  it('groups a product without a brand by its name alone', () => {
    expect(packGroupKey('Toor Dal', '', '1 kg')).toBe('|toor dal')
    expect(packGroupKey('Toor Dal', undefined, '500 g')).toBe('|toor dal')
  })

  it('gives no group to a combo, a unit without a size, or a name that is only a size', () => {
    expect(packGroupKey('Chicken Curry Cut 500 g + Breast 500 g', 'Fresho', 'Combo')).toBeNull()
    expect(packGroupKey('Gift Box', 'Ferrero', '1 unit')).toBeNull()
    expect(packGroupKey('500 g', 'Fresho', '500 g')).toBeNull()
  })
})

describe('byPackSize', () => {
  const size = (_id: string, unit: string, sellingPrice = 10) => ({ _id, unit, sellingPrice })
  it('lists grams, then millilitres, then pieces, smallest total first, then cheapest', () => {
    const sorted = byPackSize([
      size('a', '1 kg'),
      size('b', '2x200 g'),
      size('c', '200 g', 20),
      size('d', '500 g'),
      size('e', '200 g', 12),
      size('f', '6 pcs'),
      size('g', '1 L'),
    ])
    expect(sorted.map((s) => s._id)).toEqual(['e', 'c', 'b', 'd', 'a', 'g', 'f'])
  })
})

describe('pack_group_key in SQL', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  }, 60_000)
  afterAll(() => t?.close())

  it('keys every product of the bundled catalogue as packGroupKey does, and finds its pack groups', async () => {
    const rows = parseCatalogCsv(fs.readFileSync(BUNDLED_CATALOG_CSV))
    const text = (values: string[]) =>
      sql`array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`
    const got = await queryRows<{ key: string | null }>(
      t.db,
      sql`select pack_group_key(r.name, r.brand, r.unit) as key
          from unnest(${text(rows.map((r) => r.name))}, ${text(rows.map((r) => r.brand))}, ${text(rows.map((r) => r.unit))})
            with ordinality as r(name, brand, unit, n)
          order by r.n`,
    )
    const mismatches = rows
      .map((r, i) => ({ name: r.name, brand: r.brand, unit: r.unit, ts: packGroupKey(r.name, r.brand, r.unit), sql: got[i]!.key }))
      .filter((m) => m.ts !== m.sql)
    expect(mismatches).toEqual([])
    // The effect on the real catalogue (docs/product.md, "Pack sizes"): Milky Mist's paneer is one group of four.
    const sizes = new Map<string, number>()
    for (const r of rows) {
      const key = packGroupKey(r.name, r.brand, r.unit)
      if (key) sizes.set(key, (sizes.get(key) ?? 0) + 1)
    }
    expect(sizes.get('milky mist|paneer premium fresh')).toBe(4)
    const groups = [...sizes.values()].filter((n) => n > 1)
    console.info(`pack groups of 2+ sizes: ${groups.length}, holding ${groups.reduce((a, n) => a + n, 0)} of ${rows.length} products`)
    expect(groups.length).toBeGreaterThan(900)
  }, 120_000)
})
