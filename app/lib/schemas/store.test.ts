/**
 * The dark-store admin forms' rules (app/lib/schemas/store.ts; docs/stores.md, "Admin"): the store
 * form answers the API's own messages, an edit with empty coordinates goes back to the PIN code's
 * centre, the stock page reads any address without failing, and the "Stock per store" form is read
 * whole or refused per store.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import {
  STOCK_MAX,
  StoreFormSchema,
  readStockQuery,
  readStoreStockForm,
  stockHref,
  stockLevel,
  storeCreateInput,
  storeUpdateInput,
} from './store.ts'

/** A form as the browser posts it. */
function form(fields: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  return data
}

const STORE = {
  name: 'Test Store',
  area: 'Koramangala 6th Block',
  city: 'Bengaluru',
  addressLine: '1, Test Road',
  pincode: '560095',
  radiusKm: '3',
  opensAt: '06:00',
  closesAt: '24:00',
  pickers: '4',
}

describe('store form', () => {
  it('accepts a store without coordinates and sends none on create', () => {
    const submission = parseWithZod(form({ ...STORE, lat: '', lng: '' }), { schema: StoreFormSchema })
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    const input = storeCreateInput(submission.value)
    expect(input).toMatchObject({ pincode: '560095', radiusKm: 3, pickers: 4, active: true })
    expect('lat' in input).toBe(false)
  })

  it('answers the messages of contract/location.ts', () => {
    const submission = parseWithZod(form({ ...STORE, name: '', pincode: '12345', radiusKm: '40', closesAt: '25:00', pickers: '0' }), {
      schema: StoreFormSchema,
    })
    if (submission.status === 'success') throw new Error('form accepted')
    expect(submission.error).toMatchObject({
      name: ['Name is required'],
      pincode: ['Enter a valid 6-digit pincode'],
      radiusKm: ['Radius must be at most 15 km'],
      closesAt: ['Expected a time like 07:00'],
      pickers: ['Pickers must be at least 1'],
    })
  })

  it('rider speed: empty sends null on an edit (the global speed), a number within 5-60 km/h is kept', () => {
    const empty = parseWithZod(form({ ...STORE, riderKmph: '' }), { schema: StoreFormSchema })
    if (empty.status !== 'success') throw new Error('form refused')
    expect(storeUpdateInput(empty.value, 'store1', 1)).toMatchObject({ riderKmph: null })
    const set = parseWithZod(form({ ...STORE, riderKmph: '12.5' }), { schema: StoreFormSchema })
    if (set.status !== 'success') throw new Error('form refused')
    expect(storeUpdateInput(set.value, 'store1', 1)).toMatchObject({ riderKmph: 12.5 })
    const fast = parseWithZod(form({ ...STORE, riderKmph: '80' }), { schema: StoreFormSchema })
    expect(fast.status === 'success' ? null : fast.error).toMatchObject({ riderKmph: ['Rider speed must be at most 60 km/h'] })
  })

  it('an edit with empty coordinates sends null (the pincode centre) and the version read', () => {
    const submission = parseWithZod(form({ ...STORE, radiusKm: '4.5' }), { schema: StoreFormSchema })
    if (submission.status !== 'success') throw new Error('form refused')
    expect(storeUpdateInput(submission.value, 'store1', 7)).toMatchObject({
      _id: 'store1',
      version: 7,
      radiusKm: 4.5,
      lat: null,
      lng: null,
    })
    expect('version' in storeUpdateInput(submission.value, 'store1', undefined)).toBe(false)
  })

  it('keeps coordinates an edit gives', () => {
    const submission = parseWithZod(form({ ...STORE, lat: '12.93', lng: '77.62' }), { schema: StoreFormSchema })
    if (submission.status !== 'success') throw new Error('form refused')
    expect(storeUpdateInput(submission.value, 's', 1)).toMatchObject({ lat: 12.93, lng: 77.62 })
    expect(storeCreateInput(submission.value)).toMatchObject({ lat: 12.93, lng: 77.62 })
  })
})

describe('stock page address', () => {
  it('reads a hand-made address without failing', () => {
    expect(readStockQuery(new URLSearchParams('q=%20milk%20&filter=low&page=3'))).toEqual({ search: 'milk', filter: 'low', page: 3 })
    expect(readStockQuery(new URLSearchParams('filter=nonsense&page=-2'))).toEqual({ search: '', filter: 'all', page: 1 })
    expect(readStockQuery(new URLSearchParams('page=99999999')).page).toBe(10_000)
    expect(readStockQuery(new URLSearchParams(`q=${'x'.repeat(500)}`)).search).toHaveLength(200)
  })

  it('writes the address with defaults left out', () => {
    expect(stockHref('storeA', {})).toBe('/dashboard/stores/storeA/stock')
    expect(stockHref('storeA', { search: 'atta', filter: 'out', page: 2 })).toBe('/dashboard/stores/storeA/stock?q=atta&filter=out&page=2')
    expect(stockHref('storeA', { filter: 'all', page: 1 })).toBe('/dashboard/stores/storeA/stock')
  })

  it('tells out, low (1..5) and in stock apart', () => {
    expect([0, 1, 5, 6].map((n) => stockLevel(n, 5))).toEqual(['out', 'low', 'low', 'in'])
  })
})

describe('stock per store form', () => {
  it('reads every store of the product as one update', () => {
    const read = readStoreStockForm(form({ intent: 'store-stock', _id: 'p1', 'stock:storeA': '0', 'stock:storeB': ' 12 ' }), 'p1')
    expect(read).toEqual({
      ok: true,
      rows: [
        { storeId: 'storeA', productId: 'p1', stock: 0 },
        { storeId: 'storeB', productId: 'p1', stock: 12 },
      ],
    })
  })

  it('refuses the whole form, naming each refused store', () => {
    const read = readStoreStockForm(
      form({ 'stock:storeA': '-1', 'stock:storeB': '2.5', 'stock:storeC': '', 'stock:storeD': String(STOCK_MAX + 1), 'stock:storeE': '3' }),
      'p1',
    )
    expect(read).toEqual({
      ok: false,
      errors: {
        storeA: 'Stock cannot be negative',
        storeB: 'Stock must be a whole number',
        storeC: 'Stock must be a whole number',
        storeD: `Stock must be at most ${STOCK_MAX}`,
      },
    })
  })

  it('refuses a form with no store', () => {
    expect(readStoreStockForm(form({ intent: 'store-stock' }), 'p1')).toEqual({ ok: false, errors: { '': 'Nothing to update' } })
  })
})
