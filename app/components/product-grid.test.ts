/** The admin grid's row (app/components/product-grid.tsx `productGridRow`): the wire's `price` read as the MRP. */
import { describe, expect, it } from 'vitest'
import { productGridRow } from './product-grid.tsx'

describe('productGridRow', () => {
  it("names the wire's price the MRP and drops what the grid does not show", () => {
    const row = productGridRow({
      _id: 'p1',
      sku: 'BB-1',
      name: 'Butter',
      brand: 'Amul',
      unit: '500 g',
      image: '',
      price: 285,
      sellingPrice: 270.5,
      stock: 4,
      publish: true,
      updatedAt: '2026-11-28T00:00:00.000Z',
    })
    expect(row).toEqual({
      _id: 'p1',
      sku: 'BB-1',
      name: 'Butter',
      brand: 'Amul',
      unit: '500 g',
      image: '',
      mrp: 285,
      sellingPrice: 270.5,
      stock: 4,
      publish: true,
    })
  })
})
