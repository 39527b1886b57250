/**
 * Pack sizes (api/modules/product/sizes.ts; docs/search.md, "Pack sizes"): the search's size words,
 * the catalogue's units, the tiers, and the SQL function `pack_size` (migration 0009_pack_size)
 * agreeing with `packSize` on every unit of the bundled catalogue (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL).
 */
import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLED_CATALOG_CSV } from '../../db/seed/ensure.ts'
import { parseCatalogCsv } from '../../db/seed/import-catalog.ts'
import { queryRows } from '../../db/query.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { packSize, sizeTier, takeSize, type QuerySize } from './sizes.ts'

const size = (unit: QuerySize['unit'], total: number, count: number | null = null, each = total) => ({ unit, total, count, each })

describe('sizes typed in a search', () => {
  it.each([
    ['amul butter 500g', 'amul butter', size('g', 500), '500g'],
    ['amul butter 500 g', 'amul butter', size('g', 500), '500 g'],
    ['1kg sugar', 'sugar', size('g', 1000), '1kg'],
    ['sugar 1.5 kg', 'sugar', size('g', 1500), '1.5 kg'],
    ['oil 1,5 l', 'oil', size('ml', 1500), '1,5 l'],
    ['milk 1 l', 'milk', size('ml', 1000), '1 l'],
    ['sunflower oil 1 ltr', 'sunflower oil', size('ml', 1000), '1 ltr'],
    ['coconut oil 1 litre', 'coconut oil', size('ml', 1000), '1 litre'],
    ['frooti 200ml', 'frooti', size('ml', 200), '200ml'],
    ['eggs 6 pcs', 'eggs', size('pc', 6), '6 pcs'],
    ['eggs 30 pieces', 'eggs', size('pc', 30), '30 pieces'],
    ['half kg sugar', 'sugar', size('g', 500), 'half kg'],
    ['1/2 kg atta', 'atta', size('g', 500), '1/2 kg'],
    ['quarter kg paneer', 'paneer', size('g', 250), 'quarter kg'],
    ['2 x 200 g paneer', 'paneer', size('g', 400, 2, 200), '2 x 200 g'],
    ['paneer 2x200g', 'paneer', size('g', 400, 2, 200), '2x200g'],
    ['eggs dozen', 'eggs', size('pc', 12), 'dozen'],
    ['elaichi 50 gm', 'elaichi', size('g', 50), '50 gm'],
    ['vitamin c 500 mg', 'vitamin c', size('g', 0.5), '500 mg'],
  ])('%s → words "%s" and the size', (search, rest, expected, typed) => {
    const taken = takeSize(search)
    expect(taken.rest).toBe(rest)
    expect(taken.size).toEqual({ ...expected, typed })
  })

  it.each(['parle g', 'vitamin b12', '7up', '3 in 1 coffee', 'g', 'milk', '100 plus', 'kg', 'lg tv', 'gl 500'])(
    'finds no size in "%s" and leaves it whole',
    (search) => {
      expect(takeSize(search)).toEqual({ size: null, rest: search })
    },
  )

  it.each([
    ['maggi 4 pack', 'maggi', 4, '4 pack'],
    ['maggi pack of 4', 'maggi', 4, 'pack of 4'],
    ['Maggi 6 Packs', 'maggi', 6, '6 packs'],
    ['oreo box of 12', 'oreo', 12, 'box of 12'],
  ])('reads the pack count of "%s" as a quantity, never a word', (search, rest, packs, typed) => {
    expect(takeSize(search)).toEqual({ size: { unit: 'pc', total: packs, count: packs, each: 1, typed, packs: true }, rest })
  })

  it('ranks a pack count by the number of packs alone: a multipack of that many, or that many pieces', () => {
    const four = takeSize('maggi 4 pack').size!
    expect(sizeTier(four, packSize('4x70 g'))).toBe(3)
    expect(sizeTier(four, packSize('4 pcs'))).toBe(3)
    expect(sizeTier(four, packSize('70 g'))).toBe(0)
    expect(sizeTier(four, packSize('2x70 g'))).toBe(0)
  })

  it('takes the size alone when the search is only a size', () => {
    expect(takeSize('500g')).toEqual({ size: { ...size('g', 500), typed: '500g' }, rest: '' })
  })
})

describe('sizes of the catalogue', () => {
  it.each([
    ['500 g', { unit: 'g', total: 500, count: 1, each: 500 }],
    ['500 gm', { unit: 'g', total: 500, count: 1, each: 500 }],
    ['250gm', { unit: 'g', total: 250, count: 1, each: 250 }],
    ['1 kg', { unit: 'g', total: 1000, count: 1, each: 1000 }],
    ['1.5 kg', { unit: 'g', total: 1500, count: 1, each: 1500 }],
    ['200 g Pouch', { unit: 'g', total: 200, count: 1, each: 200 }],
    ['2x200 g', { unit: 'g', total: 400, count: 2, each: 200 }],
    ['4 x 250 ml', { unit: 'ml', total: 1000, count: 4, each: 250 }],
    ['1 l', { unit: 'ml', total: 1000, count: 1, each: 1000 }],
    ['1 litre', { unit: 'ml', total: 1000, count: 1, each: 1000 }],
    ['200ml', { unit: 'ml', total: 200, count: 1, each: 200 }],
    ['1l (1 kg)', { unit: 'ml', total: 1000, count: 1, each: 1000 }],
    ['6 pcs', { unit: 'pc', total: 6, count: 1, each: 6 }],
    ['1 pc', { unit: 'pc', total: 1, count: 1, each: 1 }],
    ['6 pcs + 2 pcs', { unit: 'pc', total: 6, count: 1, each: 6 }],
    ['10 tablets', { unit: 'pc', total: 10, count: 1, each: 10 }],
    ['set of 4', { unit: 'pc', total: 4, count: 1, each: 4 }],
    ["3's pack", { unit: 'pc', total: 3, count: 1, each: 3 }],
    ['100 ml each', { unit: 'ml', total: 100, count: 1, each: 100 }],
    ['1 pc (approx. 1.2-1.5 kg)', { unit: 'pc', total: 1, count: 1, each: 1 }],
  ])('reads "%s"', (unit, expected) => {
    expect(packSize(unit)).toEqual(expected)
  })

  it.each(['Combo', 'bb Combo', '30 cm', '', '1 kit'])('finds no size in "%s"', (unit) => {
    expect(packSize(unit)).toBeNull()
  })
})

describe('size tiers', () => {
  const q = (text: string) => takeSize(text).size!
  it('puts the same size first, then near sizes, then the same kind of unit', () => {
    expect(sizeTier(q('500g'), packSize('500 g'))).toBe(3)
    expect(sizeTier(q('1 kg'), packSize('2x500 g'))).toBe(3)
    expect(sizeTier(q('half kg'), packSize('500 gm'))).toBe(3)
    expect(sizeTier(q('1 l'), packSize('1000 ml'))).toBe(3)
    expect(sizeTier(q('500g'), packSize('400 g'))).toBe(2)
    expect(sizeTier(q('500g'), packSize('100 g'))).toBe(1)
    expect(sizeTier(q('500g'), packSize('500 ml'))).toBe(0)
    expect(sizeTier(q('500g'), packSize('Combo'))).toBe(0)
  })

  it('asks a multipack search for the same count of the same size', () => {
    expect(sizeTier(q('2 x 200 g'), packSize('2x200 g'))).toBe(3)
    expect(sizeTier(q('2 x 200 g'), packSize('400 g'))).toBe(2)
    expect(sizeTier(q('2 x 200 g'), packSize('4x100 g'))).toBe(2)
  })
})

describe('pack_size in SQL', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  }, 60_000)
  afterAll(() => t?.close())

  it('reads every unit of the bundled catalogue as packSize does', async () => {
    const units = [...new Set(parseCatalogCsv(fs.readFileSync(BUNDLED_CATALOG_CSV)).map((r) => r.unit))]
    expect(units.length).toBeGreaterThan(100)
    const rows = await queryRows<{ unit: string; size: string[] | null }>(
      t.db,
      sql`select u as unit, pack_size(u)::text[] as size from unnest(${sql`array[${sql.join(
        units.map((u) => sql`${u}`),
        sql`, `,
      )}]::text[]`}) u`,
    )
    const kinds = { g: 1, ml: 2, pc: 3 }
    const mismatches = rows.filter((r) => {
      const ts = packSize(r.unit)
      const expected = ts ? [kinds[ts.unit], ts.total, ts.count, ts.each] : null
      const got = r.size ? r.size.map(Number) : null
      return JSON.stringify(expected) !== JSON.stringify(got)
    })
    expect(mismatches).toEqual([])
  })
})
