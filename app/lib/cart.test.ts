import { describe, expect, it } from 'vitest'
import { CART_ACTION_PATH, revalidateExceptAfterCartWrite } from './cart.ts'

describe('revalidateExceptAfterCartWrite', () => {
  it('skips a catalogue page after a cart form, with or without a query', () => {
    for (const formAction of [CART_ACTION_PATH, '/cart?index', 'http://localhost:3000/cart'])
      expect(revalidateExceptAfterCartWrite({ formAction, defaultShouldRevalidate: true }), formAction).toBe(false)
  })

  it("keeps React Router's default for any other form and for navigations", () => {
    for (const formAction of ['/location', '/logout', '/cartography', '/checkout', undefined]) {
      expect(revalidateExceptAfterCartWrite({ formAction, defaultShouldRevalidate: true }), String(formAction)).toBe(true)
      expect(revalidateExceptAfterCartWrite({ formAction, defaultShouldRevalidate: false }), String(formAction)).toBe(false)
    }
  })
})
