import { describe, expect, it } from 'vitest'
import { canMove, NEXT_STATUSES, ORDER_STATUSES } from '../../../contract/order-status.ts'
import { cannotMoveMessage } from './status.ts'

describe('order status arrows', () => {
  it('follow placed → packed → out for delivery → delivered', () => {
    expect(canMove('placed', 'packed')).toBe(true)
    expect(canMove('packed', 'out_for_delivery')).toBe(true)
    expect(canMove('out_for_delivery', 'delivered')).toBe(true)
    expect(canMove('placed', 'delivered')).toBe(false)
    expect(canMove('packed', 'placed')).toBe(false)
  })

  it('cancel only from placed or packed; delivered and cancelled are final', () => {
    const cancellable = ORDER_STATUSES.filter((s) => canMove(s, 'cancelled'))
    expect(cancellable).toEqual(['placed', 'packed'])
    expect(NEXT_STATUSES.delivered).toEqual([])
    expect(NEXT_STATUSES.cancelled).toEqual([])
  })

  it('names a refused arrow in words', () => {
    expect(cannotMoveMessage('out_for_delivery', 'cancelled')).toBe('Cannot change an order from out for delivery to cancelled')
  })
})
