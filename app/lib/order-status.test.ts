import { describe, expect, it } from 'vitest'
import { formatOrderTime, offersCancel, ORDER_PROGRESS, statusLabel } from './order-status.ts'

describe('order statuses', () => {
  it('have the labels shoppers read', () => {
    expect(ORDER_PROGRESS.map(statusLabel)).toEqual(['Placed', 'Packed', 'Out for delivery', 'Delivered'])
    expect(statusLabel('cancelled')).toBe('Cancelled')
  })

  it('show times in India Standard Time', () => {
    expect(formatOrderTime('2026-11-22T14:45:00.000Z')).toMatch(/22 Nov 2026, 8:15\s?pm/i)
  })

  it('offer staff the cancel of cash and unpaid orders only; an admin any order that may be cancelled', () => {
    const order = (status: 'placed' | 'packed' | 'delivered', state: string) => ({ status, payment: { state } })
    for (const state of ['cod', 'refunded']) expect(offersCancel(order('placed', state), false), state).toBe(true)
    for (const state of ['paid', 'partially_refunded', 'refund_pending', 'refund_failed']) {
      expect(offersCancel(order('packed', state), false), state).toBe(false)
      expect(offersCancel(order('packed', state), true), state).toBe(true)
    }
    expect(offersCancel(order('delivered', 'cod'), true)).toBe(false)
  })
})
