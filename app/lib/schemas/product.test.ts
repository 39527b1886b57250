import { describe, expect, it } from 'vitest'
import { parseWithZod } from '@conform-to/zod/v4'
import {
  CATEGORY_REQUIRED_MESSAGE,
  FIELD_NAME_DUPLICATE_MESSAGE,
  FIELD_NAME_REQUIRED_MESSAGE,
  FIELD_NAME_TOO_LONG_MESSAGE,
  IMAGE_REQUIRED_MESSAGE,
  ProductFormSchema,
  SELLING_ABOVE_MRP_MESSAGE,
  TOO_MANY_FIELDS_MESSAGE,
  derivedDiscountText,
  fieldNameError,
  productFormDefaults,
} from './product.ts'
import { MORE_DETAILS_MAX } from '../../../contract/product.ts'

/** A form body as the browser sends it: each [name, value] pair in order (names may repeat). */
function form(entries: Array<[string, string]>) {
  const formData = new FormData()
  for (const [name, value] of entries) formData.append(name, value)
  return formData
}

const VALID: Array<[string, string]> = [
  ['name', '  Amul Taaza Toned Milk '],
  ['description', 'Fresh toned milk'],
  ['image[0]', '/uploads/0123456789abcdef01234567.webp'],
  ['category', 'cat1'],
  ['subCategory', 'sub1'],
  ['unit', '500 ml'],
  ['stock', '25'],
  ['price', '27'],
  ['sellingPrice', '27'],
]

/** VALID with `overrides` replacing (or, with value null, removing) fields by name. */
function validWith(overrides: Record<string, string | null>, extra: Array<[string, string]> = []) {
  const entries = VALID.filter(([name]) => !(name in overrides))
  for (const [name, value] of Object.entries(overrides)) if (value !== null) entries.push([name, value])
  return form([...entries, ...extra])
}

function parse(formData: FormData) {
  return parseWithZod(formData, { schema: ProductFormSchema })
}

/** The field errors of a failed parse, by field name (Conform's paths). */
function errorsOf(formData: FormData): Record<string, string[]> {
  const submission = parse(formData)
  expect(submission.status).toBe('error')
  return (submission.reply().error ?? {}) as Record<string, string[]>
}

describe('ProductFormSchema: a valid form', () => {
  it('gives the API create payload: trimmed text, numbers, lists, more_details as a map', () => {
    const submission = parse(
      validWith({}, [
        ['category', 'cat2'],
        ['image[1]', 'https://cdn.example.com/cccccccccccccccccccccccc.webp'],
        ['more_details[0].key', 'Brand'],
        ['more_details[0].value', ' Amul '],
        ['more_details[1].key', 'Shelf Life'],
        ['more_details[1].value', '2 days'],
      ]),
    )
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toEqual({
      name: 'Amul Taaza Toned Milk',
      description: 'Fresh toned milk',
      image: ['/uploads/0123456789abcdef01234567.webp', 'https://cdn.example.com/cccccccccccccccccccccccc.webp'],
      category: ['cat1', 'cat2'],
      subCategory: ['sub1'],
      unit: '500 ml',
      stock: 25,
      price: 27,
      sellingPrice: 27,
      more_details: { Brand: 'Amul', 'Shelf Life': '2 days' },
      hsn: null,
    })
  })

  it('reads an HSN code of 4, 6 or 8 digits; empty is none (the shelf’s heading)', () => {
    const ok = parse(validWith({ hsn: ' 04012000 ' }))
    expect(ok.status === 'success' && ok.value.hsn).toBe('04012000')
    expect(errorsOf(validWith({ hsn: '401' }))).toEqual({ hsn: ['HSN code must be 4, 6 or 8 digits (e.g. 0401 or 04012000)'] })
    expect(
      ProductFormSchema.safeParse({
        ...productFormDefaults({
          name: 'Milk',
          description: 'Milk',
          image: ['/uploads/0123456789abcdef01234567.webp'],
          category: ['c1'],
          subCategory: [],
          unit: '1 l',
          stock: 1,
          price: 30,
          discount: 0,
          more_details: {},
          hsn: '0401',
        }),
      }).data?.hsn,
    ).toBe('0401')
  })

  it('accepts no sub category and no extra field', () => {
    const submission = parse(validWith({ subCategory: null }))
    expect(submission.status === 'success' && submission.value.subCategory).toEqual([])
    expect(submission.status === 'success' && submission.value.more_details).toEqual({})
  })

  it('drops duplicate and blank ids and urls', () => {
    const submission = parse(
      validWith({}, [
        ['category', 'cat1'],
        ['category', ' '],
        ['image[1]', '/uploads/0123456789abcdef01234567.webp'],
      ]),
    )
    expect(submission.status === 'success' && submission.value.category).toEqual(['cat1'])
    expect(submission.status === 'success' && submission.value.image).toHaveLength(1)
  })
})

describe('ProductFormSchema: required fields (docs/product.md, "Validation rules")', () => {
  it('names every missing required field with its message', () => {
    expect(errorsOf(form([]))).toEqual({
      name: ['Name is required'],
      description: ['Description is required'],
      image: [IMAGE_REQUIRED_MESSAGE],
      category: [CATEGORY_REQUIRED_MESSAGE],
      unit: ['Unit is required'],
      stock: ['Number of Stock is required'],
      price: ['MRP is required'],
      sellingPrice: ['Selling Price is required'],
    })
  })

  it('treats blank text as missing', () => {
    expect(errorsOf(validWith({ name: '   ', unit: '', stock: ' ' }))).toEqual({
      name: ['Name is required'],
      unit: ['Unit is required'],
      stock: ['Number of Stock is required'],
    })
  })

  it('refuses an image address that is not an upload or http(s)', () => {
    expect(errorsOf(validWith({ 'image[0]': 'javascript:alert(1)' }))['image[0]']).toEqual(['Not an uploaded image'])
    expect(errorsOf(validWith({ 'image[0]': '//evil.example/x.png' }))['image[0]']).toEqual(['Not an uploaded image'])
  })
})

describe('ProductFormSchema: numbers (stock, MRP, selling price)', () => {
  const valueOf = (overrides: Record<string, string>) => {
    const submission = parse(validWith(overrides))
    if (submission.status !== 'success') throw new Error(JSON.stringify(submission.reply().error))
    return submission.value
  }

  it('coerces the text of numeric inputs to numbers', () => {
    expect(valueOf({ stock: '007', price: '99.5', sellingPrice: '87.25' })).toMatchObject({ stock: 7, price: 99.5, sellingPrice: 87.25 })
    expect(valueOf({ price: '.5', sellingPrice: '.5' }).price).toBe(0.5)
  })

  it('accepts Indian digit grouping', () => {
    expect(valueOf({ price: '1,00,000', sellingPrice: '95,000', stock: '1 000' })).toMatchObject({
      price: 100000,
      sellingPrice: 95000,
      stock: 1000,
    })
  })

  it('refuses text that is not plain decimal notation', () => {
    expect(errorsOf(validWith({ stock: 'ten', price: '1e3', sellingPrice: 'Infinity' }))).toEqual({
      stock: ['Number of Stock must be a number'],
      price: ['MRP must be a number'],
      sellingPrice: ['Selling Price must be a number'],
    })
    expect(errorsOf(validWith({ price: '0x10' })).price).toEqual(['MRP must be a number'])
  })

  it('refuses negative numbers', () => {
    expect(errorsOf(validWith({ stock: '-1', price: '-0.01', sellingPrice: '-5' }))).toEqual({
      stock: ['Number of Stock cannot be negative'],
      price: ['MRP must be more than 0'],
      sellingPrice: ['Selling Price cannot be negative'],
    })
  })

  it('allows zero stock and a free product but not a zero MRP (an MRP of nothing is a typo)', () => {
    expect(valueOf({ stock: '0', sellingPrice: '0' })).toMatchObject({ stock: 0, sellingPrice: 0 })
    expect(errorsOf(validWith({ price: '0', sellingPrice: '0' })).price).toEqual(['MRP must be more than 0'])
    expect(valueOf({ price: '0.01', sellingPrice: '0.01' }).price).toBe(0.01)
  })

  it('keeps the selling price at most the MRP, to the paisa', () => {
    expect(valueOf({ price: '289', sellingPrice: '260' })).toMatchObject({ price: 289, sellingPrice: 260 })
    expect(valueOf({ price: '251', sellingPrice: '251.00' })).toMatchObject({ price: 251, sellingPrice: 251 })
    expect(errorsOf(validWith({ price: '251', sellingPrice: '251.01' }))).toEqual({ sellingPrice: [SELLING_ABOVE_MRP_MESSAGE] })
    // Said beside the other fields' errors, not only once they are fixed.
    expect(errorsOf(validWith({ name: '', price: '10', sellingPrice: '11' }))).toEqual({
      name: ['Name is required'],
      sellingPrice: [SELLING_ABOVE_MRP_MESSAGE],
    })
  })

  it('wants a whole stock and at most two decimals of MRP and selling price', () => {
    expect(errorsOf(validWith({ stock: '2.5', price: '10.999', sellingPrice: '3.333' }))).toEqual({
      stock: ['Number of Stock must be a whole number'],
      price: ['MRP can have at most 2 decimal places'],
      sellingPrice: ['Selling Price can have at most 2 decimal places'],
    })
    expect(valueOf({ price: '19.99', sellingPrice: '19.99' }).price).toBe(19.99)
  })

  it('caps stock and prices', () => {
    expect(errorsOf(validWith({ stock: '1000001', price: '10000000.01', sellingPrice: '10000000.01' }))).toEqual({
      stock: ['Number of Stock cannot be more than 10,00,000'],
      price: ['MRP cannot be more than 1,00,00,000'],
      sellingPrice: ['Selling Price cannot be more than 1,00,00,000'],
    })
  })
})

describe('derivedDiscountText (shown beside MRP and Selling Price)', () => {
  it('reads the discount of the selling price off the MRP, never rounded up', () => {
    expect(derivedDiscountText('255', '251')).toBe('1.56% OFF')
    expect(derivedDiscountText('289', '260')).toBe('10.03% OFF')
    expect(derivedDiscountText('1,000', '900')).toBe('10% OFF')
    expect(derivedDiscountText('251', '251')).toBe('No discount')
  })

  it('is null while an amount is missing or not a number, or the selling price is above the MRP', () => {
    expect(derivedDiscountText('', '10')).toBeNull()
    expect(derivedDiscountText('100', 'abc')).toBeNull()
    expect(derivedDiscountText(undefined, undefined)).toBeNull()
    expect(derivedDiscountText('100', '100.01')).toBeNull()
  })
})

describe('ProductFormSchema: extra fields (more_details)', () => {
  it('requires every extra field, naming it in the message', () => {
    const errors = errorsOf(
      validWith({}, [
        ['more_details[0].key', 'Brand'],
        ['more_details[0].value', '  '],
        ['more_details[1].key', 'Origin'],
        ['more_details[1].value', 'India'],
      ]),
    )
    expect(errors).toEqual({ 'more_details[0].value': ['Brand is required'] })
  })

  it('refuses duplicate names (ignoring case and spaces) once, on the list', () => {
    const errors = errorsOf(
      validWith({}, [
        ['more_details[0].key', 'Brand'],
        ['more_details[0].value', 'Amul'],
        ['more_details[1].key', ' brand '],
        ['more_details[1].value', 'Mother Dairy'],
        ['more_details[2].key', 'BRAND'],
        ['more_details[2].value', 'Nandini'],
      ]),
    )
    expect(errors).toEqual({ more_details: [FIELD_NAME_DUPLICATE_MESSAGE] })
  })

  it('refuses a field without a name', () => {
    expect(
      errorsOf(
        validWith({}, [
          ['more_details[0].key', ''],
          ['more_details[0].value', 'x'],
        ]),
      ),
    ).toEqual({
      more_details: [FIELD_NAME_REQUIRED_MESSAGE],
    })
  })

  it(`allows at most ${MORE_DETAILS_MAX} fields`, () => {
    const extra: Array<[string, string]> = []
    for (let i = 0; i <= MORE_DETAILS_MAX; i++) extra.push([`more_details[${i}].key`, `F${i}`], [`more_details[${i}].value`, 'v'])
    expect(errorsOf(validWith({}, extra)).more_details).toEqual([TOO_MANY_FIELDS_MESSAGE])
  })
})

describe('fieldNameError (the Add Field dialog)', () => {
  it('refuses an empty or blank name (the original app did not)', () => {
    expect(fieldNameError('', [])).toBe(FIELD_NAME_REQUIRED_MESSAGE)
    expect(fieldNameError('   ', [])).toBe(FIELD_NAME_REQUIRED_MESSAGE)
    expect(fieldNameError(null, [])).toBe(FIELD_NAME_REQUIRED_MESSAGE)
  })

  it('refuses a name already used, ignoring case and spaces', () => {
    expect(fieldNameError('brand ', ['Brand'])).toBe(FIELD_NAME_DUPLICATE_MESSAGE)
    expect(fieldNameError('Brand', ['Origin'])).toBeNull()
  })

  it('refuses names that would set a prototype', () => {
    expect(fieldNameError('__proto__', [])).toBe('"__proto__" cannot be a field name')
    expect(fieldNameError(' constructor ', [])).toBe('"constructor" cannot be a field name')
  })

  it('refuses a name that is too long and a field beyond the limit', () => {
    expect(fieldNameError('x'.repeat(51), [])).toBe(FIELD_NAME_TOO_LONG_MESSAGE)
    expect(
      fieldNameError(
        'New',
        Array.from({ length: MORE_DETAILS_MAX }, (_, i) => `F${i}`),
      ),
    ).toBe(TOO_MANY_FIELDS_MESSAGE)
  })
})

describe('productFormDefaults (edit)', () => {
  it('turns an API product into form values that parse back to the same payload', () => {
    const defaults = productFormDefaults({
      name: 'Ghee',
      description: 'Pure cow ghee',
      image: ['/uploads/0123456789abcdef01234567.webp'],
      category: [{ _id: 'c1' }, 'c2'],
      subCategory: [{ _id: 's1' }],
      unit: '1 l',
      stock: 3,
      price: 640.5,
      discount: 10,
      more_details: { Brand: 'Amul' },
    })
    expect(defaults).toMatchObject({ category: ['c1', 'c2'], stock: '3', price: '640.5', more_details: [{ key: 'Brand', value: 'Amul' }] })
    const result = ProductFormSchema.safeParse(defaults)
    expect(result.success && result.data).toMatchObject({ price: 640.5, more_details: { Brand: 'Amul' }, subCategory: ['s1'] })
  })

  it('shows the stored selling price, so a form saved without touching it sends it back to the paisa', () => {
    // Amul Butter 500 g: MRP ₹255, selling price ₹251 (a 1.57 % discount, no whole percent).
    const product = { name: 'Amul Butter', description: 'Pasteurised', image: ['/uploads/0123456789abcdef01234567.webp'] }
    const defaults = productFormDefaults({
      ...product,
      category: ['c1'],
      subCategory: [],
      unit: '500 g',
      stock: 12,
      price: 255,
      sellingPrice: 251,
      discount: 1.5686,
      more_details: {},
    })
    expect(defaults).toMatchObject({ price: '255', sellingPrice: '251' })
    const result = ProductFormSchema.safeParse({ ...defaults, stock: '13' })
    expect(result.success && result.data).toMatchObject({ stock: 13, price: 255, sellingPrice: 251 })
    expect(result.success && 'discount' in result.data).toBe(false)
  })
})
