/**
 * The delivery-time formula and opening hours of docs/stores.md ("Delivery time", "Opening hours"),
 * as api/modules/store/service.ts computes them: pure functions, no database.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_COMMERCE, type CommerceSettings } from '../../config.ts'
import { deliveryMinutes, istMinuteOfDay, isOpenAt, minutesOfDay } from './service.ts'

const settings = DEFAULT_COMMERCE
/** An instant at `hhmm` India Standard Time (UTC+05:30) on 26 November 2026. */
const ist = (hhmm: string) => new Date(`2026-11-26T${hhmm}:00+05:30`)

describe('delivery minutes', () => {
  it('at the store: the least travel (3) plus picking (3)', () => {
    expect(deliveryMinutes(settings, 0, 0, 4)).toBe(6)
    // 1 km at 20 km/h is 3 minutes: still the least travel.
    expect(deliveryMinutes(settings, 1, 0, 4)).toBe(6)
  })

  it('travel is distance over the rider speed, rounded up with picking', () => {
    // 1.7 km at 20 km/h = 5.1 minutes; + 3 = 8.1 → 9.
    expect(deliveryMinutes(settings, 1.7, 0, 4)).toBe(9)
    // 3 km = 9 minutes exactly; + 3 = 12 (no rounding up of an exact sum).
    expect(deliveryMinutes(settings, 3, 0, 4)).toBe(12)
  })

  it('the queue adds one picking per full round of open orders over the pickers', () => {
    expect(deliveryMinutes(settings, 0, 3, 4)).toBe(6)
    expect(deliveryMinutes(settings, 0, 4, 4)).toBe(9)
    expect(deliveryMinutes(settings, 0, 9, 4)).toBe(12)
    // No pickers counts as one, never a division by zero.
    expect(deliveryMinutes(settings, 0, 2, 0)).toBe(12)
  })

  it('follows the configured rider speed, least travel and picking time', () => {
    const slow: CommerceSettings = { ...settings, deliveryTime: { riderKmph: 10, minTravelMinutes: 5, pickMinutes: 4 } }
    expect(deliveryMinutes(slow, 0, 0, 4)).toBe(9)
    // 2 km at 10 km/h = 12 minutes + 4 of picking + one round of queue (4).
    expect(deliveryMinutes(slow, 2, 4, 4)).toBe(20)
  })
})

describe("a store's own rider speed", () => {
  it('replaces the configured one; null or absent keeps the configured one', () => {
    // 3 km at the store's 30 km/h = 6 minutes + 3 of picking; at the default 20 km/h, 9 + 3.
    expect(deliveryMinutes(settings, 3, 0, 4, 30)).toBe(9)
    expect(deliveryMinutes(settings, 3, 0, 4, null)).toBe(12)
    expect(deliveryMinutes(settings, 3, 0, 4)).toBe(12)
    // The least travel still holds for a fast rider.
    expect(deliveryMinutes(settings, 0.5, 0, 4, 60)).toBe(6)
  })
})

describe('opening hours (India Standard Time)', () => {
  it('reads "HH:MM" and the minute of the day in India', () => {
    expect(minutesOfDay('06:00')).toBe(360)
    expect(minutesOfDay('24:00')).toBe(1440)
    expect(istMinuteOfDay(new Date('2026-11-26T00:00:00Z'))).toBe(330)
    expect(istMinuteOfDay(new Date('2026-11-26T18:30:00Z'))).toBe(0)
  })

  it('is open from the opening minute up to, not at, the closing one', () => {
    const day = { opensAt: '06:00', closesAt: '23:00' }
    expect(isOpenAt(day, ist('05:59'))).toBe(false)
    expect(isOpenAt(day, ist('06:00'))).toBe(true)
    expect(isOpenAt(day, ist('22:59'))).toBe(true)
    expect(isOpenAt(day, ist('23:00'))).toBe(false)
  })

  it('runs past midnight when closing comes before opening', () => {
    const late = { opensAt: '06:00', closesAt: '02:00' }
    expect(isOpenAt(late, ist('01:59'))).toBe(true)
    expect(isOpenAt(late, ist('02:00'))).toBe(false)
    expect(isOpenAt(late, ist('05:59'))).toBe(false)
    expect(isOpenAt(late, ist('23:30'))).toBe(true)
  })

  it('00:00-24:00 is always open', () => {
    for (const at of ['00:00', '05:00', '12:00', '23:59']) expect(isOpenAt({ opensAt: '00:00', closesAt: '24:00' }, ist(at))).toBe(true)
  })
})
