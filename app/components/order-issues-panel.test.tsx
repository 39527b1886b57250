/**
 * The admin's list of an order's problem reports (app/components/order-issues-panel.tsx): every
 * status in the admin's words, the way to the queue for a waiting one, note and photo, nothing for an
 * order without reports and a line when they could not be read.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ISSUES_QUEUE_PATH, OrderIssuesPanel, issueOutcomeForAdmin } from './order-issues-panel.tsx'
import { formatOrderTime } from '../lib/order-status.ts'
import type { OrderIssue } from '../../contract/order-issue.ts'
import { REFUNDED_ISSUE } from './order-issue.fixture.ts'

const refunded: OrderIssue = REFUNDED_ISSUE
const pending: OrderIssue = {
  ...refunded,
  _id: 'i2',
  kind: 'damaged',
  units: 2,
  value: 300,
  status: 'pending',
  auto: false,
  refundMethod: null,
  decidedAt: null,
  note: 'Box crushed',
  photo: '/uploads/abc.webp',
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

/** The panel inside a router (it renders a link). */
function render(issues: OrderIssue[], unread = false) {
  const router = createMemoryRouter([{ path: '/', element: <OrderIssuesPanel issues={issues} unread={unread} /> }])
  return renderToStaticMarkup(<RouterProvider router={router} />)
}

describe(`OrderIssuesPanel (docs/help-after-delivery.md, "The admin's queue")`, () => {
  it('lists each report with its value, note, photo and outcome; a waiting one links to the queue', () => {
    const html = render([refunded, pending])
    expect(text(html)).toContain('Missing: 1 × Toor Dal · 1 kg')
    expect(text(html)).toContain(`Refunded automatically on ${formatOrderTime(refunded.decidedAt!)}: ₹150 to the UPI payment`)
    expect(text(html)).toContain('Damaged: 2 × Toor Dal')
    expect(text(html)).toContain('value ₹300')
    expect(text(html)).toContain('“Box crushed”')
    expect(html).toContain('src="/uploads/abc.webp"')
    expect(html).toContain('alt="Photo of Toor Dal"')
    expect(text(html)).toContain('Waiting for a decision · Decide in Issues')
    expect(html.match(new RegExp(`href="${ISSUES_QUEUE_PATH}"`, 'g'))).toHaveLength(1)
  })

  it('says nothing for an order without reports, and says when they could not be read', () => {
    expect(render([])).toBe('')
    expect(text(render([], true))).toContain('Problem reports could not be loaded')
  })

  it('words an approved refund, a cash note and a rejection', () => {
    expect(issueOutcomeForAdmin({ ...refunded, auto: false, paymentMethod: 'card' })).toMatch(
      /^Refund approved on .+: ₹150 to the card payment$/,
    )
    expect(issueOutcomeForAdmin({ ...refunded, refundMethod: 'cod_note', paymentMethod: 'cod', value: 99.5 })).toMatch(
      /^Refunded automatically on .+: ₹99.50 to be paid back by the store$/,
    )
    expect(issueOutcomeForAdmin({ ...refunded, status: 'rejected', refundMethod: null, rejectReason: 'All there' })).toMatch(
      /^Rejected on .+: All there$/,
    )
  })
})
