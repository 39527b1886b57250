/**
 * An invoice as the API answers it (docs/commerce-api.md, "Tax invoice"; contract/invoice.ts), for
 * the PDF tests (app/.server/invoice-pdf.test.ts, app/.server/pdf-fonts.test.ts): one intra-State
 * invoice from a Karnataka store whose lines and totals add up to the paisa, and its line builder.
 */
import type { Invoice } from '../../../contract/invoice.ts'

/** A goods line of `quantity` × `price` rupees at `gstRate` percent, with its taxable value and CGST/SGST halves (rupees). */
export const invoiceLine = (
  name: string,
  quantity: number,
  price: number,
  gstRate: number,
  taxable: number,
  cgst: number,
  sgst: number,
): Invoice['lines'][number] => ({
  kind: 'goods',
  name,
  unit: '1 pc',
  quantity,
  mrp: price,
  price,
  discount: 0,
  couponDiscount: 0,
  amount: Math.round(price * quantity * 100) / 100,
  gstRate,
  taxable,
  cgst,
  sgst,
  igst: 0,
  subCategory: 'Shelf',
  hsn: '0713',
})

/** ₹52 at 0 %, 3 × ₹173.13 at 5 % (tax ₹24.73), ₹25 delivery at 18 % (tax ₹3.81); grand total ₹596 after −₹0.39 rounding. */
export const testInvoice: Invoice = {
  invoiceNumber: 'BLR1/26-27/00042',
  invoiceDate: '2026-11-26',
  orderId: 'OD000042',
  orderRef: 'abc',
  status: 'placed',
  paymentMethod: 'CASH ON DELIVERY',
  seller: {
    name: 'Grocery Retail Pvt Ltd',
    storeName: 'Indiranagar',
    address: '12, MG Road\nBengaluru, Karnataka 560001',
    gstin: '29AAAAA0000A1ZY',
    state: { code: '29', name: 'Karnataka' },
  },
  placeOfSupply: { code: '29', name: 'Karnataka' },
  interState: false,
  amountInWords: 'Rupees Five Hundred Ninety-Six Only',
  creditNotes: [],
  buyer: {
    name: 'Asha',
    address: {
      address_line: '1 Park St',
      city: 'Bengaluru',
      state: 'Karnataka',
      pincode: '560001',
      country: 'India',
      mobile: '9845012345',
    },
  },
  lines: [
    invoiceLine('Onion', 1, 52, 0, 52, 0, 0),
    invoiceLine('Shampoo', 3, 173.13, 5, 494.66, 12.36, 12.37),
    { ...invoiceLine('Delivery charge', 1, 25, 18, 21.19, 1.9, 1.91), kind: 'delivery', unit: '', subCategory: null, hsn: '9968' },
  ],
  totals: {
    mrp: 596.39,
    discount: 0,
    couponDiscount: 0,
    taxable: 567.85,
    cgst: 14.26,
    sgst: 14.28,
    igst: 0,
    tax: 28.54,
    itemsTotal: 571.39,
    fees: 0,
    deliveryCharge: 25,
    amount: 596.39,
    rounding: -0.39,
    grandTotal: 596,
  },
}
