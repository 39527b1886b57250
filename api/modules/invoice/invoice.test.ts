/**
 * The tax invoice (docs/commerce-api.md, "Tax invoice"): the paise arithmetic on its own (GST taken
 * out of GST-inclusive prices, CGST + SGST adding up, totals equal to the bill to the paisa), the rate
 * table and the seller's settings, then POST /api/invoice/details on a fresh database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL): a placed order's invoice adds up to the order's bill to the
 * paisa, another shopper gets a 404 and an admin reads any order's invoice.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gstinCheckChar, gstStateCode, isValidGstin } from '../../../contract/invoice.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, createShopper, type SignedIn } from '../../testing/auth.ts'
import { insertCategory, insertProduct, insertSubCategory } from '../../testing/fixtures.ts'
import { createShopperWithAddress } from '../../testing/orders.ts'
import { computeInvoice, includedTax, splitTax } from './compute.ts'
import { amountInWords, numberInWords } from './amount-in-words.ts'
import { buildGstRates, gstRateFor, gstTaxFor, parseGstRates } from './gst-rates.ts'
import { indiaDate, placeOfSupply } from './service.ts'
import { parseInvoiceSettings } from './settings.ts'

describe('invoice arithmetic (paise)', () => {
  it('takes the GST out of a GST-inclusive amount, rounded half up to the paisa', () => {
    expect(includedTax(10500, 500)).toBe(500) // ₹105 at 5 %: ₹100 + ₹5
    expect(includedTax(11800, 1800)).toBe(1800) // ₹118 at 18 %
    expect(includedTax(10000, 0)).toBe(0)
    expect(includedTax(100, 1800)).toBe(15) // 15.25 paise → 15
    expect(includedTax(13, 500)).toBe(1) // 0.619… → 1
    expect(() => includedTax(1.5, 500)).toThrow(RangeError)
  })

  it('splits a tax into CGST and SGST that add up to it', () => {
    expect(splitTax(501)).toEqual({ cgstPaise: 250, sgstPaise: 251 })
    expect(splitTax(0)).toEqual({ cgstPaise: 0, sgstPaise: 0 })
  })

  it('totals equal the bill to the paisa for any lines, rates and delivery', () => {
    const rates = [0, 500, 1200, 1800, 2800, 4000]
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quantity: fc.integer({ min: 1, max: 12 }),
            mrpPaise: fc.integer({ min: 1, max: 5_000_000 }),
            off: fc.integer({ min: 0, max: 100 }),
            rate: fc.constantFrom(...rates),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom(...rates),
        (raw, delivery, deliveryRate) => {
          const lines = raw.map((l, i) => {
            const sellingPaise = Math.round((l.mrpPaise * (100 - l.off)) / 100)
            return {
              name: `p${i}`,
              unit: '1 pc',
              quantity: l.quantity,
              mrpPaise: l.mrpPaise,
              sellingPaise,
              lineTotalPaise: sellingPaise * l.quantity,
              rateBp: l.rate,
              subCategory: null,
              hsn: null,
            }
          })
          const itemsTotalPaise = lines.reduce((n, l) => n + l.lineTotalPaise, 0)
          const beforeRounding = itemsTotalPaise + delivery
          const grandTotalPaise = Math.round(beforeRounding / 100) * 100
          const bill = { itemsTotalPaise, deliveryChargePaise: delivery, roundingPaise: grandTotalPaise - beforeRounding, grandTotalPaise }
          const { lines: out, totals } = computeInvoice(lines, bill, deliveryRate)
          expect(totals.taxablePaise + totals.cgstPaise + totals.sgstPaise).toBe(totals.amountPaise)
          expect(totals.amountPaise + totals.roundingPaise).toBe(grandTotalPaise)
          expect(totals.itemsTotalPaise).toBe(itemsTotalPaise)
          for (const l of out) {
            expect(l.taxablePaise + l.cgstPaise + l.sgstPaise).toBe(l.amountPaise)
            expect(Math.abs(l.sgstPaise - l.cgstPaise)).toBeLessThanOrEqual(1)
          }
          expect(out.length).toBe(lines.length + (delivery > 0 ? 1 : 0))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('refuses to invoice an order whose lines do not add up to its bill', () => {
    const line = {
      name: 'x',
      unit: '',
      quantity: 2,
      mrpPaise: 1000,
      sellingPaise: 900,
      lineTotalPaise: 1800,
      rateBp: 500,
      subCategory: null,
      hsn: null,
    }
    expect(() =>
      computeInvoice([line], { itemsTotalPaise: 1801, deliveryChargePaise: 0, roundingPaise: 0, grandTotalPaise: 1801 }, 1800),
    ).toThrow(/add up/)
    expect(() =>
      computeInvoice([line], { itemsTotalPaise: 1800, deliveryChargePaise: 0, roundingPaise: 0, grandTotalPaise: 1900 }, 1800),
    ).toThrow(/grand total/)
  })
})

describe('GST rates and the seller', () => {
  it('looks a rate up by sub category, then category, then the default', () => {
    const table = buildGstRates()
    expect(gstRateFor(table, 'Potato, Onion & Tomato', 'Fruits & Vegetables')).toBe(0)
    expect(gstRateFor(table, 'shampoo & conditioner', 'Beauty & Hygiene')).toBe(500)
    expect(gstRateFor(table, 'Face Care', 'Beauty & Hygiene')).toBe(1800)
    expect(gstRateFor(table, 'Cold Drinks', 'Beverages')).toBe(4000)
    expect(gstRateFor(table, null, null)).toBe(1800)
    expect(table.deliveryBp).toBe(1800)
  })

  it('GST_RATES overrides a rate; a malformed value fails at start', () => {
    const table = parseGstRates('{"subCategories":{"Face Care":12.5},"categories":{"Beverages":18},"default":5,"delivery":0}')
    expect(gstRateFor(table, 'Face Care', null)).toBe(1250)
    expect(gstRateFor(table, 'Green Tea', 'Beverages')).toBe(1800)
    expect(gstRateFor(table, 'Cold Drinks', 'Beverages')).toBe(4000)
    expect(table.defaultBp).toBe(500)
    expect(table.deliveryBp).toBe(0)
    expect(() => parseGstRates('{')).toThrow(/JSON/)
    expect(() => parseGstRates('{"rates":{}}')).toThrow(/unknown key/)
    expect(() => parseGstRates('{"default":120}')).toThrow(/percentage/)
    expect(() => parseGstRates('{"categories":{"Beverages":"5"}}')).toThrow(/percentage/)
  })

  it('validates the GSTIN: 15 characters of the standard pattern with its check character', () => {
    expect(gstinCheckChar('27AAPFU0939F1Z')).toBe('V')
    expect(isValidGstin('27AAPFU0939F1ZV')).toBe(true)
    expect(isValidGstin('27AAPFU0939F1ZW')).toBe(false)
    expect(isValidGstin('27AAPFU0939F1Z')).toBe(false)
    expect(() => parseInvoiceSettings({ SELLER_GSTIN: '27AAPFU0939F1ZW' })).toThrow(/SELLER_GSTIN/)
    const settings = parseInvoiceSettings({
      SELLER_GSTIN: '27aapfu0939f1zv',
      SELLER_NAME: 'Kirana Pvt Ltd',
      SELLER_ADDRESS: '1 Main Rd | Pune 411001',
    })
    expect(settings).toMatchObject({
      sellerGstin: '27AAPFU0939F1ZV',
      sellerName: 'Kirana Pvt Ltd',
      sellerAddress: '1 Main Rd\nPune 411001',
    })
    expect(parseInvoiceSettings({}).sellerGstin).toBe('29AAAAA0000A1ZY')
  })

  it('dates the invoice by the day in India', () => {
    expect(indiaDate('2026-03-31T18:29:59.000Z')).toBe('2026-03-31')
    expect(indiaDate('2026-03-31T18:30:00.000Z')).toBe('2026-04-01')
  })
})

describe('POST /api/invoice/details', () => {
  let t: TestApp
  let shopper: SignedIn & { orderId: string; orderNumber: string }

  beforeAll(async () => {
    t = await createTestApp()
    const veg = await insertCategory(t.db, { name: 'Fruits & Vegetables' })
    const beauty = await insertCategory(t.db, { name: 'Beauty & Hygiene' })
    const onions = await insertSubCategory(t.db, { name: 'Potato, Onion & Tomato', categoryIds: [veg.id] })
    const shampoo = await insertSubCategory(t.db, { name: 'Shampoo & Conditioner', categoryIds: [beauty.id] })
    const face = await insertSubCategory(t.db, { name: 'Face Care', categoryIds: [beauty.id] })
    const a = await insertProduct(t.db, {
      name: 'Onion',
      price: 69.75,
      sellingPrice: 52,
      categoryIds: [veg.id],
      subCategoryIds: [onions.id],
    })
    const b = await insertProduct(t.db, {
      name: 'Shampoo',
      price: 199,
      sellingPrice: 173.13,
      categoryIds: [beauty.id],
      subCategoryIds: [shampoo.id],
    })
    const c = await insertProduct(t.db, {
      name: 'Face Wash',
      price: 10.01,
      sellingPrice: 9.99,
      categoryIds: [beauty.id],
      subCategoryIds: [face.id],
    })
    const { addressId, ...who } = await createShopperWithAddress(t)
    for (const [product, qty] of [
      [a, 1],
      [b, 3],
      [c, 7],
    ] as const) {
      const added = await t.call('cart/create', { method: 'POST', json: { productId: product.id }, token: who.token })
      if (qty > 1) await t.call('cart/update-qty', { method: 'PUT', json: { _id: added.body.data._id, qty }, token: who.token })
    }
    const placed = await t.call('order/cash-on-delivery', { method: 'POST', json: { addressId }, token: who.token })
    expect(placed.status).toBe(201)
    shopper = { ...who, orderId: placed.body.data._id, orderNumber: placed.body.data.orderId }
  })
  afterAll(() => t?.close())

  it("answers the shopper's invoice; its totals equal the order's bill to the paisa", async () => {
    const order = (await t.call('order/details', { method: 'POST', json: { orderId: shopper.orderId }, token: shopper.token })).body.data
    const res = await t.call('invoice/details', { method: 'POST', json: { orderId: shopper.orderNumber }, token: shopper.token })
    expect(res.status).toBe(200)
    const inv = res.body.data
    expect(inv.invoiceNumber).toMatch(/^BLR1\/[0-9]{2}-[0-9]{2}\/[0-9]{5}$/)
    expect(inv.invoiceDate).toBe(indiaDate(order.createdAt))
    expect(inv.paymentMethod).toBe('CASH ON DELIVERY')
    expect(inv.seller).toMatchObject({ gstin: '29AAAAA0000A1ZY', storeName: 'Indiranagar', state: { code: '29', name: 'Karnataka' } })
    expect(inv.placeOfSupply).toEqual({ code: '29', name: 'Karnataka' })
    expect(inv.interState).toBe(false)
    const goods = inv.lines.filter((l: { kind: string }) => l.kind === 'goods')
    expect(goods.map((l: { hsn: string | null }) => l.hsn)).toEqual(['0709', '3305', '3304'])
    expect(inv.totals.igst).toBe(0)
    expect(inv.amountInWords).toMatch(/^Rupees .* Only$/)
    expect(inv.buyer.address.pincode).toBe('560008')
    const paise = (r: number) => Math.round(r * 100)
    expect(inv.lines.filter((l: { kind: string }) => l.kind === 'goods').map((l: { gstRate: number }) => l.gstRate)).toEqual([0, 5, 18])
    expect(paise(inv.totals.itemsTotal)).toBe(paise(order.bill.itemsTotal))
    expect(paise(inv.totals.deliveryCharge)).toBe(paise(order.bill.deliveryCharge))
    expect(paise(inv.totals.rounding)).toBe(paise(order.bill.roundingOff))
    expect(paise(inv.totals.grandTotal)).toBe(paise(order.totalAmt))
    expect(paise(inv.totals.amount) + paise(inv.totals.rounding)).toBe(paise(order.totalAmt))
    expect(paise(inv.totals.taxable) + paise(inv.totals.cgst) + paise(inv.totals.sgst)).toBe(paise(inv.totals.amount))
    // Onion ₹52 at 0 %; shampoo 3 × ₹173.13 = ₹519.39 at 5 % → tax ₹24.73; face wash 7 × ₹9.99 = ₹69.93 at 18 % → ₹10.67.
    expect(inv.totals.tax).toBe(35.4)
    expect(paise(inv.totals.cgst) + paise(inv.totals.sgst)).toBe(3540)
    expect(inv.totals.discount).toBe(Math.round((69.75 - 52 + 3 * (199 - 173.13) + 7 * (10.01 - 9.99)) * 100) / 100)
  })

  it("another shopper's order is a 404; an admin reads any order's invoice; bad input is a 4xx", async () => {
    const other = await createShopper(t)
    expect((await t.call('invoice/details', { method: 'POST', json: { orderId: shopper.orderId }, token: other.token })).status).toBe(404)
    const admin = await createAdmin(t)
    const res = await t.call('invoice/details', { method: 'POST', json: { orderId: shopper.orderId }, token: admin.token })
    expect(res.status).toBe(200)
    expect(res.body.data.invoiceNumber).toMatch(/^BLR1\//)
    expect((await t.call('invoice/details', { method: 'POST', json: { orderId: shopper.orderId } })).status).toBe(401)
    expect((await t.call('invoice/details', { method: 'POST', json: { orderId: '' }, token: shopper.token })).status).toBe(400)
    expect(
      (await t.call('invoice/details', { method: 'POST', json: { orderId: 'x'.repeat(65) }, token: shopper.token })).status,
    ).toBeLessThan(500)
  })
})

describe('place of supply, HSN and amount in words', () => {
  const line = (rateBp: number, lineTotalPaise: number) => ({
    name: 'x',
    unit: '',
    quantity: 1,
    mrpPaise: lineTotalPaise,
    sellingPaise: lineTotalPaise,
    lineTotalPaise,
    rateBp,
    subCategory: null,
    hsn: '3305',
  })

  it('an inter-State supply is all IGST; within a State it is CGST + SGST of the same tax', () => {
    const bill = { itemsTotalPaise: 10500 + 11800, deliveryChargePaise: 2500, roundingPaise: 0, grandTotalPaise: 24800 }
    const intra = computeInvoice([line(500, 10500), line(1800, 11800)], bill, 1800, false)
    const inter = computeInvoice([line(500, 10500), line(1800, 11800)], bill, 1800, true)
    expect(inter.lines.map((l) => [l.cgstPaise, l.sgstPaise, l.igstPaise])).toEqual([
      [0, 0, 500],
      [0, 0, 1800],
      [0, 0, 381],
    ])
    expect(intra.lines.map((l) => [l.cgstPaise, l.sgstPaise, l.igstPaise])).toEqual([
      [250, 250, 0],
      [900, 900, 0],
      [190, 191, 0],
    ])
    expect(inter.totals.taxPaise).toBe(intra.totals.taxPaise)
    expect(inter.totals).toMatchObject({ igstPaise: 2681, cgstPaise: 0, sgstPaise: 0 })
    expect(inter.lines.at(-1)).toMatchObject({ kind: 'delivery', hsn: '9968' })
  })

  it('names the place of supply by the delivery PIN code’s State', () => {
    expect(placeOfSupply({ pincode: '110016', state: 'anything' })).toEqual({ code: '07', name: 'Delhi' })
    expect(placeOfSupply({ pincode: '400050', state: '' })).toEqual({ code: '27', name: 'Maharashtra' })
    expect(gstStateCode('Jammu & Kashmir')).toBe('01')
    expect(gstStateCode('Pondicherry')).toBe('34')
    expect(gstStateCode('Atlantis')).toBeNull()
  })

  it('looks the HSN code up: the product’s own, else its sub category’s, else its category’s', () => {
    const table = buildGstRates()
    expect(gstTaxFor(table, { hsn: null, subCategory: 'Milk', category: 'Bakery, Cakes & Dairy' })).toEqual({ hsn: '0401', rateBp: 0 })
    expect(gstTaxFor(table, { hsn: null, subCategory: 'Cold Drinks', category: 'Beverages' })).toEqual({ hsn: '2202', rateBp: 4000 })
    expect(gstTaxFor(table, { hsn: null, subCategory: 'Curd', category: 'Bakery, Cakes & Dairy' })).toEqual({ hsn: '1905', rateBp: 500 })
    expect(gstTaxFor(table, { hsn: null, subCategory: null, category: null })).toEqual({ hsn: null, rateBp: 1800 })
    // An admin's code: its heading's rate (2202 aerated drinks at 40 % although the shelf says 5 %).
    expect(gstTaxFor(table, { hsn: '22021010', subCategory: 'Juices', category: 'Beverages' })).toEqual({ hsn: '22021010', rateBp: 4000 })
    // A heading rated differently by sub-heading (3304) or unknown keeps the shelf's rate.
    expect(gstTaxFor(table, { hsn: '330491', subCategory: 'Talc', category: 'Beauty & Hygiene' })).toEqual({ hsn: '330491', rateBp: 500 })
    expect(gstTaxFor(table, { hsn: '9999', subCategory: 'Face Care', category: null })).toEqual({ hsn: '9999', rateBp: 1800 })
  })

  it('writes amounts in words in the Indian system, with paise', () => {
    expect(amountInWords(25600)).toBe('Rupees Two Hundred Fifty-Six Only')
    expect(amountInWords(1050)).toBe('Rupees Ten and Fifty Paise Only')
    expect(amountInWords(0)).toBe('Rupees Zero Only')
    expect(amountInWords(5)).toBe('Five Paise Only')
    expect(amountInWords(100)).toBe('Rupees One Only')
    expect(amountInWords(11_900)).toBe('Rupees One Hundred Nineteen Only')
    expect(amountInWords(100_000_00)).toBe('Rupees One Lakh Only')
    expect(amountInWords(1_23_45_678_99)).toBe(
      'Rupees One Crore Twenty-Three Lakh Forty-Five Thousand Six Hundred Seventy-Eight and Ninety-Nine Paise Only',
    )
    expect(amountInWords(1_00_00_00_000_00)).toBe('Rupees One Hundred Crore Only')
    expect(numberInWords(90_000)).toBe('Ninety Thousand')
    expect(numberInWords(1_000_001)).toBe('Ten Lakh One')
    expect(() => amountInWords(-1)).toThrow(RangeError)
    expect(() => amountInWords(1.5)).toThrow(RangeError)
  })
})
