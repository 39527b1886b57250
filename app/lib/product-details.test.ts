import { describe, expect, it } from 'vitest'
import { detailLabel, productDetailRows } from './product-details.ts'

describe('detailLabel', () => {
  it('capitalises every word and writes known abbreviations in capitals', () => {
    expect(detailLabel('brand')).toBe('Brand')
    expect(detailLabel('source_sku')).toBe('Source SKU')
    expect(detailLabel('shelf life')).toBe('Shelf Life')
    expect(detailLabel('fssai_id')).toBe('FSSAI ID')
  })
})

describe('productDetailRows', () => {
  const details = { brand: 'Bio-Oil', sku: 'BB-1699', 'Source SKU': 'X-1', vendor_sku: 'V-9', skus_bundled: '3', Weight: ' ', count: 3 }

  it('shows the SKU to admins only', () => {
    expect(productDetailRows(details, false)).toEqual([
      { label: 'Brand', value: 'Bio-Oil' },
      { label: 'Skus Bundled', value: '3' },
    ])
    expect(productDetailRows(details, true).map((row) => row.label)).toEqual(['Brand', 'SKU', 'Source SKU', 'Vendor SKU', 'Skus Bundled'])
  })

  it('answers no rows for no details', () => {
    expect(productDetailRows(null, true)).toEqual([])
    expect(productDetailRows(undefined, false)).toEqual([])
  })
})
