import { describe, expect, it } from 'vitest'
import {
  addressVerdict,
  arrivingByLabel,
  changeLocationHref,
  cartLineStock,
  countdownLabel,
  deliveryBadgeLabel,
  deliveryInLabel,
  deliveryPromise,
  deliveryVerdict,
  formatClock,
  lowStockLabel,
  minutesLeft,
  unavailableAtLabel,
} from './delivery.ts'
import type { ShopperLocation } from './location.ts'

describe('delivery labels', () => {
  const store = {
    id: 's',
    name: 'Indiranagar',
    area: 'Indiranagar',
    city: 'Bengaluru',
    open: true,
    opensAt: '06:00',
    closesAt: '02:00',
    closedNote: null,
  }
  const served: ShopperLocation = {
    pincode: '560038',
    area: 'Indiranagar',
    serviceable: true,
    store,
    deliveryMinutes: 9,
    isDefault: false,
    nearest: null,
  }

  it("promise and badge: the chosen store's computed minutes, never a default", () => {
    expect(deliveryPromise(served)).toEqual({ kind: 'minutes', minutes: 9 })
    expect(deliveryBadgeLabel(deliveryPromise(served))).toBe('9 min')
    expect(deliveryBadgeLabel(deliveryPromise({ ...served, deliveryMinutes: 14 }))).toBe('14 min')
    for (const minutes of [null, 0, 2.5]) {
      expect(deliveryPromise({ ...served, deliveryMinutes: minutes })).toEqual({ kind: 'unknown' })
      expect(deliveryBadgeLabel(deliveryPromise({ ...served, deliveryMinutes: minutes }))).toBeNull()
    }
  })

  it('promises nothing without a chosen location, and refuses a PIN code no store serves', () => {
    expect(deliveryPromise(undefined)).toEqual({ kind: 'choose' })
    expect(deliveryPromise({ ...served, pincode: null, area: null, isDefault: true, deliveryMinutes: null })).toEqual({ kind: 'choose' })
    expect(deliveryBadgeLabel({ kind: 'choose' })).toBeNull()
    const agartala = { ...served, pincode: '799001', area: 'Agartala', serviceable: false, deliveryMinutes: null }
    expect(deliveryPromise(agartala)).toEqual({ kind: 'not-served', pincode: '799001' })
    expect(deliveryBadgeLabel(deliveryPromise(agartala))).toBe('Delivery not available at 799001')
    const closed = { ...served, store: { ...store, open: false } }
    expect(deliveryBadgeLabel(deliveryPromise(closed))).toBe('Opens at 06:00')
    // Paused by an admin: no opening time to promise, the note says why.
    const paused = { ...served, store: { ...store, open: false, closedNote: 'Closed for stock-taking' } }
    expect(deliveryPromise(paused)).toEqual({ kind: 'closed', opensAt: '06:00', note: 'Closed for stock-taking' })
    expect(deliveryBadgeLabel(deliveryPromise(paused))).toBe('Closed now')
  })

  it('"Only N left" from 1 to 5 units, nothing otherwise', () => {
    expect(lowStockLabel(1)).toBe('Only 1 left')
    expect(lowStockLabel(3)).toBe('Only 3 left')
    expect(lowStockLabel(5)).toBe('Only 5 left')
    expect(lowStockLabel(6)).toBeNull()
    expect(lowStockLabel(0)).toBeNull()
    expect(lowStockLabel(-2)).toBeNull()
  })

  it('promised time on a 24-hour clock in India Standard Time', () => {
    expect(formatClock('2026-11-26T16:17:00.000Z')).toBe('21:47')
    expect(formatClock('2026-11-26T18:35:00.000Z')).toBe('00:05')
    expect(formatClock('not a time')).toBe('not a time')
    expect(arrivingByLabel('2026-11-26T16:17:00.000Z', 9)).toBe('Arriving by 21:47 (9 minutes)')
    expect(arrivingByLabel('2026-11-26T16:17:00.000Z', 1)).toBe('Arriving by 21:47 (1 minute)')
  })

  it('countdown: whole minutes rounded up, then "Any moment now"', () => {
    const end = '2026-11-26T16:17:00.000Z'
    const at = (iso: string) => new Date(iso).getTime()
    expect(minutesLeft(end, at('2026-11-26T16:08:00.000Z'))).toBe(9)
    expect(minutesLeft(end, at('2026-11-26T16:08:30.000Z'))).toBe(9)
    expect(minutesLeft(end, at('2026-11-26T16:16:59.000Z'))).toBe(1)
    expect(minutesLeft(end, at('2026-11-26T16:17:00.000Z'))).toBe(0)
    expect(minutesLeft(end, at('2026-11-26T17:00:00.000Z'))).toBe(0)
    expect(minutesLeft('garbage', 0)).toBe(0)
    expect(countdownLabel(9)).toBe('9 minutes left')
    expect(countdownLabel(1)).toBe('1 minute left')
    expect(countdownLabel(0)).toBe('Any moment now')
  })

  it('verdict and checkout promise', () => {
    expect(deliveryVerdict(true)).toBe('Delivered late')
    expect(deliveryVerdict(false)).toBe('Delivered on time')
    expect(deliveryInLabel(12)).toBe('Delivery in 12 minutes')
  })
})

describe('cart lines against the store', () => {
  it('unavailable at 0, over above the stock, ok otherwise', () => {
    expect(cartLineStock(2, 0)).toEqual({ kind: 'unavailable' })
    expect(cartLineStock(1, -1)).toEqual({ kind: 'unavailable' })
    expect(cartLineStock(4, 3)).toEqual({ kind: 'over', left: 3 })
    expect(cartLineStock(3, 3)).toEqual({ kind: 'ok' })
    expect(unavailableAtLabel('Indiranagar')).toBe('Unavailable at Indiranagar')
    expect(unavailableAtLabel(undefined)).toBe('Unavailable here')
  })
})

describe('checkout addresses against the store', () => {
  const service = { serviceable: true, storeId: 'storeBlrIndiranagar', storeName: 'Indiranagar', deliveryMinutes: 9 }
  it("served only by the shopper's own store", () => {
    expect(addressVerdict(service, 'storeBlrIndiranagar')).toEqual({ kind: 'served', minutes: 9 })
    expect(addressVerdict(service, 'storeBlrKoramangala')).toEqual({ kind: 'not-served' })
    expect(addressVerdict({ ...service, serviceable: false, storeId: null }, 'storeBlrIndiranagar')).toEqual({ kind: 'not-served' })
    expect(addressVerdict(undefined, 'storeBlrIndiranagar')).toEqual({ kind: 'unknown' })
    expect(addressVerdict(service, undefined)).toEqual({ kind: 'unknown' })
  })
  it('links to the location page and back', () => {
    expect(changeLocationHref('/checkout')).toBe('/location?redirectTo=%2Fcheckout')
  })
})
