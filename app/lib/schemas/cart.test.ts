import { describe, expect, it } from 'vitest'
import { CartActionSchema } from './cart.ts'

describe('CartActionSchema', () => {
  it('reads the three intents', () => {
    expect(CartActionSchema.parse({ intent: 'add', productId: 'abc123' })).toEqual({ intent: 'add', productId: 'abc123' })
    expect(CartActionSchema.parse({ intent: 'set', lineId: 'l1', qty: '3' })).toEqual({ intent: 'set', lineId: 'l1', qty: 3 })
    expect(CartActionSchema.parse({ intent: 'remove', lineId: 'l1', redirectTo: '/cart' })).toMatchObject({ intent: 'remove' })
  })

  it('refuses unknown intents, odd ids and bad quantities', () => {
    expect(CartActionSchema.safeParse({ intent: 'steal', productId: 'a' }).success).toBe(false)
    expect(CartActionSchema.safeParse({ intent: 'add', productId: '../x' }).success).toBe(false)
    expect(CartActionSchema.safeParse({ intent: 'set', lineId: 'l1', qty: '-1' }).success).toBe(false)
    expect(CartActionSchema.safeParse({ intent: 'set', lineId: 'l1', qty: '1.5' }).success).toBe(false)
  })

  it.each(['', '0x0a', '1e1', ' 3', '3 ', '+3', '1000'])('refuses the quantity %j (no coercion: "" is not 0, "0x0a" is not 10)', (qty) => {
    expect(CartActionSchema.safeParse({ intent: 'set', lineId: 'l1', qty }).success).toBe(false)
  })

  it('reads a string of digits as the quantity (0 removes)', () => {
    expect(CartActionSchema.parse({ intent: 'set', lineId: 'l1', qty: '0' })).toMatchObject({ qty: 0 })
    expect(CartActionSchema.parse({ intent: 'set', lineId: 'l1', qty: '999' })).toMatchObject({ qty: 999 })
  })
})
