import { describe, it, expect } from 'vitest'
import { isCombo, isRelevant, parsePackSize, sizeMatches, termMatches, type Product } from './judge.ts'

const butter500: Product = {
  name: 'Pasteurised Butter',
  brand: 'Amul ',
  category: 'Bakery, Cakes & Dairy',
  subCategory: 'Butter & Margarine',
  packSize: '500 g',
}
const butter2x500: Product = { ...butter500, name: 'Butter - Pasteurized', packSize: '2x500 g' }
const milk: Product = {
  name: 'GoodLife UHT Treated Toned Milk',
  brand: 'Nandini',
  category: 'Bakery, Cakes & Dairy',
  subCategory: 'Milk',
  packSize: '1 L',
}
const dairyMilk: Product = {
  name: 'Chocolate Home Treats Pack',
  brand: 'Cadbury Dairy Milk',
  category: 'Snacks & Branded Foods',
  subCategory: 'Chocolates',
  packSize: '126 g',
}
const eggless: Product = {
  name: 'Eggless Premium Vanilla Cake Mix',
  brand: 'HappyChef',
  category: 'Snacks & Branded Foods',
  subCategory: 'Home Baking',
  packSize: '300 g',
}
const combo: Product = {
  name: 'Chicken Curry Cut Without Skin 500 g + Mutton - Curry Cut 500 g',
  brand: 'Fresho',
  category: 'Eggs, Meat & Fish',
  subCategory: 'Fresh Chicken',
  packSize: 'Combo',
}

describe('termMatches', () => {
  it('matches whole words and phrases, ignoring case and punctuation', () => {
    expect(termMatches('butter', 'Butter - Pasteurized')).toBe(true)
    expect(termMatches('ginger garlic', 'Ginger Garlic/Adrak Lehsun Paste')).toBe(true)
    expect(termMatches('egg', 'Eggless Premium Vanilla Cake Mix')).toBe(false)
    expect(termMatches('tea', 'Mutton Goatkid Steak')).toBe(false)
  })
  it('treats a trailing * as a word prefix', () => {
    expect(termMatches('fennel*', 'Organic-FennelSeeds')).toBe(true)
    expect(termMatches('egg*', 'Eggless Premium Vanilla Cake Mix')).toBe(true)
  })
})

describe('pack sizes', () => {
  it('parses single packs, multipacks and units', () => {
    expect(parsePackSize('500 g')).toEqual({ count: 1, each: 500, base: 'g' })
    expect(parsePackSize('1.5 Kg')).toEqual({ count: 1, each: 1500, base: 'g' })
    expect(parsePackSize('2x200 g')).toEqual({ count: 2, each: 200, base: 'g' })
    expect(parsePackSize('3x(2x150 g)')).toEqual({ count: 6, each: 150, base: 'g' })
    expect(parsePackSize('1 L each')).toEqual({ count: 1, each: 1000, base: 'ml' })
    expect(parsePackSize("2x36's pack")).toEqual({ count: 2, each: 36, base: 'pcs' })
    expect(parsePackSize('Combo')).toBeNull()
  })
  it('compares totals, or exact multipacks when a count is given', () => {
    expect(sizeMatches({ value: 1, unit: 'kg' }, '2x500 g')).toBe(true)
    expect(sizeMatches({ value: 500, unit: 'g' }, '2x500 g')).toBe(false)
    expect(sizeMatches({ value: 200, unit: 'g', count: 2 }, '2x200 g')).toBe(true)
    expect(sizeMatches({ value: 200, unit: 'g', count: 2 }, '400 g')).toBe(false)
    expect(sizeMatches({ value: 1, unit: 'l' }, '1000 ml')).toBe(true)
    expect(sizeMatches({ value: 1, unit: 'l' }, '1 kg')).toBe(false)
    expect(sizeMatches({ value: 6, unit: 'pcs' }, '6 pcs')).toBe(true)
  })
})

describe('isRelevant', () => {
  it('requires every field a clause sets', () => {
    const j = { subCategories: ['Butter & Margarine'], brandIn: ['Amul'], nameAll: ['butter'], size: { value: 500, unit: 'g' as const } }
    expect(isRelevant(j, butter500)).toBe(true)
    expect(isRelevant(j, butter2x500)).toBe(false)
    expect(isRelevant({ ...j, brandIn: ['Fresho'] }, butter500)).toBe(false)
  })
  it('keeps "milk" to milk, not milk chocolate', () => {
    const j = { subCategories: ['Milk'] }
    expect(isRelevant(j, milk)).toBe(true)
    expect(isRelevant(j, dairyMilk)).toBe(false)
  })
  it('applies nameAny and nameNone', () => {
    expect(isRelevant({ nameAny: ['egg', 'eggs'] }, eggless)).toBe(false)
    expect(isRelevant({ nameAny: ['cake'], nameNone: ['eggless'] }, eggless)).toBe(false)
    expect(isRelevant({ nameAny: ['cake'] }, eggless)).toBe(true)
  })
  it('accepts when any clause of anyOf accepts', () => {
    const j = { anyOf: [{ subCategories: ['Milk'] }, { brandIn: ['cadbury dairy milk'] }] }
    expect(isRelevant(j, milk)).toBe(true)
    expect(isRelevant(j, dairyMilk)).toBe(true)
    expect(isRelevant(j, eggless)).toBe(false)
  })
  it('rejects combos when noCombo is set', () => {
    expect(isCombo(combo)).toBe(true)
    expect(isRelevant({ subCategories: ['Fresh Chicken'] }, combo)).toBe(true)
    expect(isRelevant({ subCategories: ['Fresh Chicken'], noCombo: true }, combo)).toBe(false)
  })
})
