import { renderToStaticMarkup } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { OrderHelp, issueStatusWords } from './order-help.tsx'
import type { IssueOptions, OrderIssue } from '../../contract/order-issue.ts'
import { REFUNDED_ISSUE } from './order-issue.fixture.ts'

const issue: OrderIssue = REFUNDED_ISSUE
const help: IssueOptions = {
  orderId: 'o1',
  orderNumber: 'OD2611290001',
  openUntil: '2026-12-01T10:00:00.000Z',
  open: true,
  lines: [],
  issues: [issue],
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

/** The component inside a router (it renders links). */
function render(options: IssueOptions) {
  const router = createMemoryRouter([{ path: '/', element: <OrderHelp help={options} orderPath="/dashboard/myorder/o1" /> }])
  return renderToStaticMarkup(<RouterProvider router={router} />)
}

describe('OrderHelp (docs/help-after-delivery.md, "Reporting")', () => {
  it('links to Get help while open and lists the reports with their outcome', () => {
    const html = render(help)
    expect(html).toContain('href="/dashboard/myorder/o1/help"')
    expect(text(html)).toContain('Missing: 1 × Toor Dal')
    expect(text(html)).toContain('Refunded ₹150 to your UPI')
  })

  it('shows no link once closed, and says a rejected report with its reason', () => {
    const html = render({ ...help, open: false, issues: [{ ...issue, status: 'rejected', refundMethod: null, rejectReason: 'All there' }] })
    expect(html).not.toContain('Get help')
    expect(text(html)).toContain('Not accepted: All there')
    expect(render({ ...help, open: false, issues: [] })).toBe('')
  })

  it('words each status', () => {
    expect(issueStatusWords({ ...issue, status: 'pending', refundMethod: null })).toBe('Waiting for review')
    expect(issueStatusWords({ ...issue, refundMethod: 'cod_note', paymentMethod: 'cod', value: 99.5 })).toBe(
      '₹99.50 to be paid back by the store',
    )
  })
})
