/**
 * The `Personal` a spliced page carries (app/lib/personal.ts): read back from its script's JSON with
 * the whole cart of the cart page when it has its shape, and never able to close its script element.
 */
import { describe, expect, it } from 'vitest'
import { parsePersonal, personalScriptJson, type Personal } from './personal.ts'
import { EMPTY_CART_SUMMARY } from './cart.ts'
import type { Bill, CartLimits } from '../../contract/cart.ts'

/** A whole cart as far as `parsePersonal` looks: its lines, a bill and limits (their fields: contract/cart.ts). */
const wholeCart = { lines: [], bill: { itemCount: 0 } as Bill, limits: { maxQtyPerLine: 12 } as CartLimits }

describe('parsePersonal', () => {
  it('reads the user, the summary and, on the cart page, the whole cart', () => {
    const personal: Personal = { user: null, cart: EMPTY_CART_SUMMARY, wholeCart }
    expect(parsePersonal(personalScriptJson(personal))).toEqual(personal)
    expect(parsePersonal(personalScriptJson({ user: null, cart: EMPTY_CART_SUMMARY }))).toEqual({ user: null, cart: EMPTY_CART_SUMMARY })
  })

  it('leaves out a whole cart without lines, bill or limits, and refuses anything without a summary', () => {
    for (const bad of [{ lines: 'x', bill: {}, limits: {} }, { lines: [] }, 'cart', null]) {
      expect(parsePersonal(JSON.stringify({ user: null, cart: EMPTY_CART_SUMMARY, wholeCart: bad }))).toEqual({
        user: null,
        cart: EMPTY_CART_SUMMARY,
      })
    }
    expect(parsePersonal('{"user":null}')).toBeNull()
    expect(parsePersonal('not json')).toBeNull()
  })

  it('never lets a value close the script element', () => {
    const json = personalScriptJson({ user: null, cart: EMPTY_CART_SUMMARY, wholeCart: { ...wholeCart, lines: ['</script><b>'] as never } })
    expect(json).not.toContain('</script')
    expect(JSON.parse(json).wholeCart.lines[0]).toBe('</script><b>')
  })
})
