/**
 * The bundled data itself, without a database: the full CSV parses to 8,208 rows in 11 categories
 * and 334 sub categories, every row gets a fitting picture from the copied artwork, and the artwork
 * folder holds exactly the mapped files with their licence and attribution.
 */
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  ART,
  ART_DIR,
  allArtworkFiles,
  artworkForCategory,
  artworkForProduct,
  artworkForSubCategory,
  normalizeForMatch,
} from './artwork.ts'
import { BUNDLED_CATALOG_CSV } from './ensure.ts'
import { discountPercent, parseCatalogCsv, stockFor } from './import-catalog.ts'

const rows = parseCatalogCsv(fs.readFileSync(BUNDLED_CATALOG_CSV))

describe('the bundled catalogue CSV', () => {
  it('has 8,208 products with unique ids in 11 categories and 334 sub categories', () => {
    expect(rows).toHaveLength(8208)
    expect(new Set(rows.map((r) => r.productId)).size).toBe(8208)
    expect(new Set(rows.map((r) => r.category)).size).toBe(11)
    expect(new Set(rows.map((r) => `${r.category}|${r.subCategory}`)).size).toBe(334)
    expect(new Set(rows.map((r) => r.subCategory)).size).toBe(334) // no name shared by two categories
  })

  it('has prices that give a discount of 0-100 % and a stock of 5-200', () => {
    for (const r of rows) {
      expect(r.mrp).toBeGreaterThan(0)
      const d = discountPercent(r.mrp, r.sellingPrice)
      expect(d).toBeGreaterThanOrEqual(0)
      expect(d).toBeLessThanOrEqual(100)
      const s = stockFor(r.productId)
      expect(s).toBeGreaterThanOrEqual(5)
      expect(s).toBeLessThanOrEqual(200)
    }
    expect(rows.every((r) => r.brand === r.brand.trim() && !/\s{2}|\n/.test(r.name))).toBe(true)
  })
})

describe('discount and stock', () => {
  it('rounds the discount and clamps it to 0-100', () => {
    expect(discountPercent(69.75, 52)).toBe(25)
    expect(discountPercent(100, 100)).toBe(0)
    expect(discountPercent(100, 120)).toBe(0) // selling above MRP is no negative discount
    expect(discountPercent(100, 0)).toBe(100)
    expect(discountPercent(0, 0)).toBe(0)
    expect(discountPercent(3, 2)).toBe(33)
    expect(discountPercent(210, 181)).toBe(14) // 13.8 rounds up
    expect(discountPercent(100, 33.4)).toBe(67)
  })

  it('gives the same stock for the same id, and different stocks across ids', () => {
    expect(stockFor('1')).toBe(stockFor('1'))
    expect(new Set(['1', '2', '3', '4', '5', '6', '7', '8'].map(stockFor)).size).toBeGreaterThan(4)
  })
})

describe('artwork mapping', () => {
  it('gives every product, sub category and category a picture, mostly from the product name', () => {
    const matches = { name: 0, 'sub category': 0, category: 0, fallback: 0 }
    for (const r of rows) {
      const choice = artworkForProduct(r)
      expect(allArtworkFiles()).toContain(choice.file)
      matches[choice.match]++
      expect(artworkForSubCategory(r.subCategory, r.category).match).toBe('sub category')
      expect(artworkForCategory(r.category).match).toBe('category')
    }
    // Measured when written: 6,977 by name (85 %), 1,231 by sub category, none by category or cart.
    expect(matches.name / rows.length).toBeGreaterThan(0.8)
    expect(matches.category + matches.fallback).toBe(0)
  })

  it('gives the 11 categories 11 different pictures', () => {
    const cats = [...new Set(rows.map((r) => r.category))]
    expect(new Set(cats.map((c) => artworkForCategory(c).file)).size).toBe(11)
  })

  it('picks what a product is, not a flavour or ingredient in its name', () => {
    const pick = (name: string, subCategory: string, category: string) => artworkForProduct({ name, subCategory, category }).art
    expect(pick('Onion (Loose)', 'Potato, Onion & Tomato', 'Fruits & Vegetables')).toBe('onion')
    expect(pick('Mango Pickle - Andhra Style', 'Other Veg Pickle', 'Snacks & Branded Foods')).toBe('jar')
    expect(pick('Tomato Ketchup - Classic', 'Tomato Ketchup & Sauces', 'Snacks & Branded Foods')).toBe('tomato')
    expect(pick('Chocolate Milkshake', 'Flavoured, Soya Milk', 'Bakery, Cakes & Dairy')).toBe('milk')
    expect(pick('Cookies - Honey Oatmeal', 'Cookies', 'Snacks & Branded Foods')).toBe('cookie')
    expect(pick('Honey & Almond Body Lotion', 'Body Care', 'Beauty & Hygiene')).toBe('lotion')
    expect(pick('Chicken Curry Cut - Small Pieces', 'Fresh Chicken', 'Eggs, Meat & Fish')).toBe('poultryLeg')
    expect(pick('Maxx Pet Plastic Premium Container - Pink', 'Containers Sets', 'Kitchen, Garden & Pets')).toBe('jar')
    expect(pick('Cat Treats - Salmon Rings', 'Pet Meals & Treats', 'Kitchen, Garden & Pets')).toBe('cat')
    expect(pick('Strawberry Shine Lip Balm', 'Lips', 'Beauty & Hygiene')).toBe('kissMark')
  })

  it('falls back to the sub category, the category, then the cart', () => {
    expect(artworkForProduct({ name: 'Zyxw', subCategory: 'Chocolates', category: 'Snacks & Branded Foods' })).toMatchObject({
      art: 'chocolate',
      match: 'sub category',
    })
    expect(artworkForProduct({ name: 'Zyxw', subCategory: 'New Shelf', category: 'Beverages' })).toMatchObject({
      art: 'juiceBox',
      match: 'category',
    })
    expect(artworkForProduct({ name: 'Zyxw', subCategory: 'New Shelf', category: 'New Aisle' })).toMatchObject({
      art: 'cart',
      match: 'fallback',
    })
    expect(artworkForSubCategory('Green Tea Mixes', 'Beverages')).toMatchObject({ art: 'teacup', match: 'name' })
    expect(artworkForCategory('Stationery')).toMatchObject({ art: 'cart', match: 'fallback' })
  })

  it('matches whole words, with plurals, across punctuation and "&"', () => {
    expect(normalizeForMatch('Potato, Onion & Tomato')).toBe('potato onion and tomato')
    const pick = (name: string) => artworkForProduct({ name, subCategory: 'X', category: 'Fruits & Vegetables' }).art
    expect(pick('Onions')).toBe('onion')
    expect(pick('Tomatoes - Hybrid')).toBe('tomato')
    expect(pick('Pineapple')).toBe('pineapple') // not "apple"
    expect(pick('Eggless Something')).toBe('broccoli') // "egg" is not a prefix match
  })
})

describe('the artwork folder', () => {
  const files = fs.readdirSync(ART_DIR)

  it('holds exactly the mapped files, each a 256×256 WebP, under 3 MB in all', async () => {
    const webp = files.filter((f) => f.endsWith('.webp')).sort()
    expect(webp).toEqual(allArtworkFiles())
    let total = 0
    for (const f of webp) {
      const meta = await sharp(path.join(ART_DIR, f)).metadata()
      expect(meta, f).toMatchObject({ format: 'webp', width: 256, height: 256 })
      total += fs.statSync(path.join(ART_DIR, f)).size
    }
    expect(total).toBeLessThan(3 * 1024 * 1024)
    expect(webp.length).toBe(new Set(Object.values(ART)).size)
  })

  it('ships the MIT licence and an attribution listing every file', () => {
    expect(files).toContain('LICENSE')
    const license = fs.readFileSync(path.join(ART_DIR, 'LICENSE'), 'utf8')
    expect(license).toContain('Copyright (c) Microsoft Corporation')
    expect(license).toContain('MIT License')
    const attribution = fs.readFileSync(path.join(ART_DIR, 'ATTRIBUTION.md'), 'utf8')
    for (const f of allArtworkFiles()) expect(attribution).toContain(`\`${f}\``)
  })
})
