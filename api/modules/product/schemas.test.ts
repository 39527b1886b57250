/** Unit tests of the product read body schemas: defaults, the limit cap, and wrong types refused. */
import { describe, expect, it } from 'vitest'
import { MAX_LIMIT } from '../../../contract/paging.ts'
import {
  ProductDetailsSchema,
  ProductsByCategoryAndSubCategorySchema,
  ProductsByCategorySchema,
  ProductSearchSchema,
  UpdateProductSchema,
  decimalPlaces,
} from '../../../contract/product.ts'

describe('ProductSearchSchema', () => {
  it('fills missing and null paging fields with page 1, limit 10 and an empty search', () => {
    expect(ProductSearchSchema.parse({})).toEqual({ page: 1, limit: 10, search: '' })
    expect(ProductSearchSchema.parse({ page: null, limit: null, search: null })).toEqual({ page: 1, limit: 10, search: '' })
  })

  it('caps limit at 100 instead of refusing it', () => {
    expect(MAX_LIMIT).toBe(100)
    expect(ProductSearchSchema.parse({ limit: 1000 }).limit).toBe(100)
    expect(ProductSearchSchema.parse({ limit: 12 }).limit).toBe(12)
  })

  it('accepts whole numbers written as digits (form posts) and keeps unknown keys out', () => {
    expect(ProductSearchSchema.parse({ page: '3', limit: ' 8 ', extra: 1 })).toEqual({ page: 3, limit: 8, search: '' })
  })

  it.each([
    [{ page: 'abc' }, 'page'],
    [{ page: 0 }, 'page'],
    [{ page: 1.5 }, 'page'],
    [{ page: {} }, 'page'],
    [{ limit: -1 }, 'limit'],
    [{ limit: [10] }, 'limit'],
    [{ search: {} }, 'search'],
    [{ search: { $regex: '.*' } }, 'search'],
    [{ search: 42 }, 'search'],
    [{ search: 'x'.repeat(201) }, 'search'],
  ])('refuses %j at %s', (body, path) => {
    const result = ProductSearchSchema.safeParse(body)
    expect(result.success).toBe(false)
    expect(result.error!.issues[0]!.path).toEqual([path])
  })
})

describe('ProductsByCategorySchema', () => {
  it('takes one id or a list, without duplicates, and grouped and groupSizes default to false', () => {
    expect(ProductsByCategorySchema.parse({ id: 'a1' })).toEqual({ id: ['a1'], grouped: false, groupSizes: false })
    expect(ProductsByCategorySchema.parse({ id: ['a1', 'b2', 'a1'], grouped: true, groupSizes: true })).toEqual({
      id: ['a1', 'b2'],
      grouped: true,
      groupSizes: true,
    })
  })

  it.each([
    [{}],
    [{ id: { $ne: null } }],
    [{ id: [{ $ne: null }] }],
    [{ id: 5 }],
    [{ id: '' }],
    [{ id: 'a1', grouped: 'yes' }],
    [{ id: 'a1', groupSizes: 'yes' }],
  ])('refuses %j', (body) => {
    expect(ProductsByCategorySchema.safeParse(body).success).toBe(false)
  })
})

describe('ProductsByCategoryAndSubCategorySchema', () => {
  it('makes the sub category optional (absent, null or empty) and fills paging defaults', () => {
    for (const subCategoryId of [undefined, null, '', []]) {
      expect(ProductsByCategoryAndSubCategorySchema.parse({ categoryId: 'c1', subCategoryId })).toEqual({
        categoryId: ['c1'],
        subCategoryId: null,
        page: 1,
        limit: 10,
      })
    }
    expect(ProductsByCategoryAndSubCategorySchema.parse({ categoryId: ['c1'], subCategoryId: 's1', page: 2, limit: 8 })).toEqual({
      categoryId: ['c1'],
      subCategoryId: ['s1'],
      page: 2,
      limit: 8,
    })
  })

  it('refuses a missing category and objects in place of ids', () => {
    expect(ProductsByCategoryAndSubCategorySchema.safeParse({}).success).toBe(false)
    expect(ProductsByCategoryAndSubCategorySchema.safeParse({ categoryId: { $gt: '' } }).success).toBe(false)
    expect(ProductsByCategoryAndSubCategorySchema.safeParse({ categoryId: 'c1', subCategoryId: { $ne: null } }).success).toBe(false)
  })
})

describe('ProductDetailsSchema', () => {
  it('takes any text (a malformed id is a 404 later, not a 400) but not an object', () => {
    expect(ProductDetailsSchema.parse({ productId: '../../etc/passwd' })).toEqual({ productId: '../../etc/passwd' })
    expect(ProductDetailsSchema.safeParse({ productId: { $ne: null } }).success).toBe(false)
    expect(ProductDetailsSchema.safeParse({}).success).toBe(false)
  })
})

describe('numbers of a product write are checked exactly (no rounding before the check)', () => {
  const fields = (over: Record<string, unknown>) => UpdateProductSchema.safeParse({ _id: 'p1', ...over })
  const message = (over: Record<string, unknown>) => {
    const r = fields(over)
    return r.success ? null : r.error.issues[0].message
  }

  it('counts decimal places on the written form of the number', () => {
    expect(decimalPlaces(2)).toBe(0)
    expect(decimalPlaces(2.5)).toBe(1)
    expect(decimalPlaces(1.15)).toBe(2)
    expect(decimalPlaces(1e-7)).toBe(7)
    expect(decimalPlaces(99.9999999999)).toBe(10)
    expect(decimalPlaces(1e21)).toBe(0)
  })

  it('refuses a fractional stock however it is written', () => {
    expect(message({ stock: 1e-7 })).toBe('Stock must be a whole number')
    expect(message({ stock: '0.0000001' })).toBe('Stock must be a whole number')
    expect(message({ stock: 2.5 })).toBe('Stock must be a whole number')
    expect(fields({ stock: 12 }).success).toBe(true)
    expect(fields({ stock: '12' }).success).toBe(true)
  })

  it('refuses prices with more than two decimals instead of storing them rounded (1e-9 is not 0)', () => {
    expect(message({ price: 1e-9 })).toBe('Price can have at most 2 decimal places')
    expect(message({ price: '0.001' })).toBe('Price can have at most 2 decimal places')
    expect(message({ price: 0 })).toBe('Price must be more than 0')
    expect(fields({ price: 1.15 }).success).toBe(true)
    expect(fields({ price: '440.00' }).success).toBe(true)
  })

  it('refuses a discount of more than ten decimals (a product answers up to ten: docs/commerce-api.md, "The discount on the wire")', () => {
    expect(message({ discount: 99.99999999999 })).toBe('Discount can have at most 10 decimal places')
    expect(fields({ discount: 99.9999999999 }).success).toBe(true)
    expect(message({ discount: 100.01 })).toBe('Discount cannot be more than 100')
    expect(fields({ discount: 12.5 }).success).toBe(true)
  })
})
