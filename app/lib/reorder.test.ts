import { describe, expect, it } from 'vitest'
import { LEFT_OUT_NAME_MAX, LEFT_OUT_SHOWN, leftOutNotice, reorderToast } from './reorder.ts'
import type { ReorderLeftOut } from '../../contract/order.ts'

const line = (name: string, message = 'out of stock'): ReorderLeftOut => ({
  productId: null,
  name,
  unit: '1 kg',
  ordered: 1,
  added: 0,
  reason: 'out_of_stock',
  message,
})

describe('reorderToast', () => {
  it('counts the units added, or says nothing could be added', () => {
    expect(reorderToast(1)).toEqual({ type: 'success', message: 'Added 1 item to your cart' })
    expect(reorderToast(5)).toEqual({ type: 'success', message: 'Added 5 items to your cart' })
    expect(reorderToast(0)).toEqual({ type: 'error', message: 'Nothing could be added to your cart' })
  })
})

describe('leftOutNotice', () => {
  it('is null when nothing was left out', () => {
    expect(leftOutNotice([])).toBeNull()
  })

  it('keeps each line’s name, unit and reason in words', () => {
    expect(leftOutNotice([line('Cow Ghee'), line('Fresh Paneer', 'only 3 added: stock')])).toEqual({
      items: [
        { name: 'Cow Ghee', unit: '1 kg', message: 'out of stock' },
        { name: 'Fresh Paneer', unit: '1 kg', message: 'only 3 added: stock' },
      ],
      more: 0,
    })
  })

  it('fits the session cookie: at most LEFT_OUT_SHOWN lines (the rest counted), names cut with an ellipsis', () => {
    const many = Array.from({ length: 100 }, (_, i) => line(`${'Very long product name '.repeat(10)}${i}`))
    const notice = leftOutNotice(many)!
    expect(notice.items).toHaveLength(LEFT_OUT_SHOWN)
    expect(notice.more).toBe(100 - LEFT_OUT_SHOWN)
    expect(notice.items.every((i) => i.name.length === LEFT_OUT_NAME_MAX && i.name.endsWith('…'))).toBe(true)
    expect(JSON.stringify(notice).length).toBeLessThan(1000)
  })
})
