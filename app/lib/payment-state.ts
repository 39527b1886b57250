/**
 * An order's payment state and method in words for the pages (docs/payments.md, "Payment states").
 */
import { PAYMENT_STATES, type PaymentState } from '../../contract/payment.ts'

export { PAYMENT_STATES, type PaymentState }

/** The label of each payment state. */
export const PAYMENT_STATE_LABELS: Record<PaymentState, string> = {
  cod: 'Cash on delivery',
  pending: 'Awaiting payment',
  paid: 'Paid online',
  expired: 'Not paid in time',
  mismatch: 'Amount mismatch',
  refund_pending: 'Refund in progress',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
  refund_failed: 'Refund failed',
}

/** A payment state's label; an unknown state reads as itself. */
export function paymentStateLabel(state: string): string {
  return PAYMENT_STATE_LABELS[state as PaymentState] ?? state
}

const METHOD_LABELS: Record<string, string> = {
  cod: 'Cash on delivery',
  upi: 'UPI',
  card: 'Card',
  netbanking: 'Netbanking',
  wallet: 'Wallet',
}

/** How an order is paid in words ("UPI", "Cash on delivery"). */
export function paymentMethodLabel(method: string): string {
  return METHOD_LABELS[method] ?? method
}

/** A refund's status in words (a failed one is sent again as a new refund, listed after it, a few times: docs/payments.md, "Refunds"). */
export const refundStatusLabel = (status: string) => (status === 'processed' ? 'Refunded' : status === 'failed' ? 'Failed' : 'In progress')
