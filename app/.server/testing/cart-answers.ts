/**
 * The API's cart answers as the BFF's tests stand them in (docs/commerce-api.md, "Cart"): products
 * and a whole cart in the original client's wire format (contract/cart.ts, contract/product.ts).
 */
import type { Product } from '../../../contract/product.ts'

/** A product as the API answers it, selling at `sellingPrice` rupees (MRP ₹5 more). */
export const testProduct = (id: string, sellingPrice: number): Product => ({
  _id: id,
  name: `Product ${id}`,
  image: [],
  imageKind: 'photo',
  category: [],
  subCategory: [],
  unit: '1 kg',
  stock: 9,
  price: sellingPrice + 5,
  sellingPrice,
  discount: 0,
  description: '',
  more_details: {},
  publish: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
})

/** GET /api/cart/get's answer for a guest cart of two lines: 2 of p1 at ₹28.50 and 1 of p2 at ₹55. */
export const WHOLE_CART_ANSWER = {
  success: true,
  error: false,
  message: 'Cart items',
  data: [
    { _id: 'line1', productId: testProduct('p1', 28.5), quantity: 2, userId: null },
    { _id: 'line2', productId: testProduct('p2', 55), quantity: 1, userId: null },
  ],
  bill: {
    itemCount: 3,
    itemsTotalMrp: 127,
    productDiscount: 15,
    itemsTotal: 112,
    deliveryCharge: 25,
    freeDeliveryAbove: 199,
    roundingOff: 0,
    grandTotal: 137,
    totalSavings: 15,
  },
  limits: { maxQtyPerLine: 12, deliveryCharge: 25, freeDeliveryAbove: 199 },
}
