import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { PaymentSummary } from './order-view.tsx'

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
const refund = (status: 'pending' | 'processed' | 'failed') => ({
  amount: 256,
  status,
  reason: 'Order cancelled',
  at: '2026-11-26T16:17:00.000Z',
})
const payment = {
  state: 'paid' as const,
  method: 'upi',
  paidAt: null,
  reservationExpiresAt: null,
  refunded: 0,
  refunds: [] as ReturnType<typeof refund>[],
}

describe('PaymentSummary (docs/payments.md, "Payment states" and "Refunds")', () => {
  it('lists each refund with its status: a failed one, then the one sent again', () => {
    const html = text(
      renderToStaticMarkup(
        <PaymentSummary order={{ payment: { ...payment, state: 'refund_pending', refunds: [refund('failed'), refund('pending')] } }} />,
      ),
    )
    expect(html).toContain('UPI · Refund in progress')
    expect(html).toMatch(/Refund ₹256: Order cancelled Failed .*Refund ₹256: Order cancelled In progress/)
    expect(html).not.toContain('Our team will contact you')
  })

  it('tells the shopper a person takes over once the refund failed as often as it is retried', () => {
    const html = text(
      renderToStaticMarkup(
        <PaymentSummary
          order={{ payment: { ...payment, state: 'refund_failed', refunds: [refund('failed'), refund('failed'), refund('failed')] } }}
        />,
      ),
    )
    expect(html).toContain('UPI · Refund failed')
    expect(html).toContain('Our team will contact you about your refund.')
  })
})
