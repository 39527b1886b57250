/**
 * The rules of help after delivery without a database (docs/help-after-delivery.md): the value of
 * reported units (pro rata, rounded down, the last units taking the rest), the IST month of the
 * per-month cap, the window's end, and the HELP_* settings (api/config.ts).
 */
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.ts'
import { issueValuePaise, istMonthStart, windowEnd } from './service.ts'

describe('issueValuePaise', () => {
  it('is the paid share pro rata, rounded down, and the last units take exactly what is left', () => {
    // ₹100 paid for 3 units (after a coupon share): 3,333 + 3,333 + 3,334 = 10,000.
    const line = { paidPaise: 10_000, quantity: 3 }
    expect(issueValuePaise({ ...line, reportedUnits: 0, reportedPaise: 0, units: 1 })).toBe(3_333)
    expect(issueValuePaise({ ...line, reportedUnits: 1, reportedPaise: 3_333, units: 1 })).toBe(3_333)
    expect(issueValuePaise({ ...line, reportedUnits: 2, reportedPaise: 6_666, units: 1 })).toBe(3_334)
    expect(issueValuePaise({ ...line, reportedUnits: 0, reportedPaise: 0, units: 3 })).toBe(10_000)
  })

  it('never adds up to more than was paid, in any order of reports', () => {
    for (const split of [[1, 1, 1, 1, 1, 1, 1], [3, 4], [2, 2, 3], [7]]) {
      let units = 0
      let paise = 0
      for (const n of split) {
        paise += issueValuePaise({ paidPaise: 12_345, quantity: 7, reportedUnits: units, reportedPaise: paise, units: n })
        units += n
      }
      expect(paise).toBe(12_345)
    }
  })
})

describe('istMonthStart', () => {
  it('is midnight IST (18:30 UTC the day before) on the first of the month in India', () => {
    expect(istMonthStart(new Date('2026-11-15T12:00:00Z')).toISOString()).toBe('2026-10-31T18:30:00.000Z')
    // 23:59 IST on 31 October is still October; 00:00 IST on 1 November is November.
    expect(istMonthStart(new Date('2026-10-31T18:29:59.999Z')).toISOString()).toBe('2026-09-30T18:30:00.000Z')
    expect(istMonthStart(new Date('2026-10-31T18:30:00.000Z')).toISOString()).toBe('2026-10-31T18:30:00.000Z')
    expect(istMonthStart(new Date('2027-01-01T00:00:00Z')).toISOString()).toBe('2026-12-31T18:30:00.000Z')
  })
})

describe('windowEnd', () => {
  it('is the delivery plus the window in hours', () => {
    expect(windowEnd(new Date('2026-11-20T10:00:00Z'), 48).toISOString()).toBe('2026-11-22T10:00:00.000Z')
  })
})

describe('HELP_* settings (api/config.ts)', () => {
  const SECRETS = { SESSION_SECRET: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) }

  it('default to 48 hours, ₹200 an order and ₹500 a month, take rupees, and stop the start on anything else', () => {
    expect(loadConfig({ ...SECRETS }).commerce.help).toEqual({ windowHours: 48, autoPerOrderPaise: 20_000, autoPerMonthPaise: 50_000 })
    expect(
      loadConfig({ ...SECRETS, HELP_WINDOW_HOURS: '24', HELP_AUTO_REFUND_PER_ORDER: '99.50', HELP_AUTO_REFUND_PER_MONTH: '0' }).commerce
        .help,
    ).toEqual({ windowHours: 24, autoPerOrderPaise: 9_950, autoPerMonthPaise: 0 })
    for (const [name, bad] of [
      ['HELP_WINDOW_HOURS', '0'],
      ['HELP_WINDOW_HOURS', '721'],
      ['HELP_WINDOW_HOURS', 'two'],
      ['HELP_AUTO_REFUND_PER_ORDER', '-1'],
      ['HELP_AUTO_REFUND_PER_MONTH', '1.234'],
    ])
      expect(() => loadConfig({ ...SECRETS, [name!]: bad })).toThrow(new RegExp(name!))
  })
})
