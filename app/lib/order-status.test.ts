import { describe, expect, it } from 'vitest'
import { formatOrderTime, ORDER_PROGRESS, statusLabel } from './order-status.ts'

describe('order statuses', () => {
  it('have the labels shoppers read', () => {
    expect(ORDER_PROGRESS.map(statusLabel)).toEqual(['Placed', 'Packed', 'Out for delivery', 'Delivered'])
    expect(statusLabel('cancelled')).toBe('Cancelled')
  })

  it('show times in India Standard Time', () => {
    expect(formatOrderTime('2026-11-22T14:45:00.000Z')).toMatch(/22 Nov 2026, 8:15\s?pm/i)
  })
})
