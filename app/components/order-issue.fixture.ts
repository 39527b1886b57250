/**
 * A report as the API answers it (contract/order-issue.ts `OrderIssue`), for the components' tests:
 * one missing unit of a ₹150 line of an order paid by UPI, refunded automatically.
 */
import type { OrderIssue } from '../../contract/order-issue.ts'

/** The refunded report; tests spread it and change what they test. */
export const REFUNDED_ISSUE: OrderIssue = {
  _id: 'i1',
  orderId: 'o1',
  orderNumber: 'OD2611290001',
  lineId: 'l1',
  name: 'Toor Dal',
  unit: '1 kg',
  kind: 'missing',
  units: 1,
  note: '',
  photo: null,
  value: 150,
  status: 'refunded',
  auto: true,
  refundMethod: 'online',
  paymentMethod: 'upi',
  rejectReason: null,
  decidedAt: '2026-11-29T10:00:00.000Z',
  createdAt: '2026-11-29T10:00:00.000Z',
}
