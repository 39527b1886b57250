/**
 * Slot marks (app/lib/personal-slots.ts): a marked page is cut into parts and slots and put back
 * together; descriptors survive React's text escaping; malformed marks are refused.
 */
import { describe, expect, it } from 'vitest'
import { renderToString } from 'react-dom/server'
import { createElement, Fragment } from 'react'
import {
  fillSlotTemplate,
  parseSlotTemplate,
  SLOT_CLOSE,
  SLOT_MID,
  SLOT_OPEN,
  slotOpenText,
  type PersonalSlotDescriptor,
} from './personal-slots.ts'

const tricky: PersonalSlotDescriptor = { kind: 'add', productId: 'p1', name: `Tom & Jerry's "Best" <Atta> 5 kg`, stock: 3, size: 'lg' }

describe('parseSlotTemplate', () => {
  it('reads back descriptors React escaped, and each slot keeps its own HTML', () => {
    // Rendered by React as app/components/personal-slot.tsx renders a mark.
    const html = renderToString(
      createElement(
        'div',
        null,
        createElement(Fragment, null, slotOpenText(tricky), createElement('form', null, 'ADD'), SLOT_CLOSE),
        createElement('p', null, 'between'),
        createElement(Fragment, null, slotOpenText({ kind: 'cart-bar' }), null, SLOT_CLOSE),
      ),
    )
    const template = parseSlotTemplate(html)
    expect(template?.slots).toEqual([
      { slot: tricky, html: '<form>ADD</form>' },
      { slot: { kind: 'cart-bar' }, html: '' },
    ])
    expect(fillSlotTemplate(template!)).toBe('<div><form>ADD</form><p>between</p></div>')
    expect(fillSlotTemplate(template!, (i) => (i === 1 ? '<b>bar</b>' : undefined))).toBe(
      '<div><form>ADD</form><p>between</p><b>bar</b></div>',
    )
  })

  it('takes a page without marks as one part', () => {
    expect(parseSlotTemplate('<p>plain</p>')).toEqual({ parts: ['<p>plain</p>'], slots: [] })
  })

  it('refuses unbalanced, nested or unreadable marks', () => {
    const open = slotOpenText({ kind: 'account' })
    expect(parseSlotTemplate(`<p>${open}<b>never closed</b>`)).toBeNull()
    expect(parseSlotTemplate(`<p>${open}${open}x${SLOT_CLOSE}${SLOT_CLOSE}`)).toBeNull()
    expect(parseSlotTemplate(`<p>${SLOT_OPEN}{not json${SLOT_MID}x${SLOT_CLOSE}`)).toBeNull()
    expect(parseSlotTemplate(`<p>stray ${SLOT_CLOSE}</p>`)).toBeNull()
  })
})
