/**
 * An order's payment state and method in words for the pages (docs/payments.md, "Payment states").
 */
import { PAYMENT_STATE_LABELS, PAYMENT_STATES, paymentStateLabel, type PaymentState } from '../../contract/payment.ts'

// The states' labels live in contract/payment.ts: the API's orders export writes them too.
export { PAYMENT_STATE_LABELS, PAYMENT_STATES, paymentStateLabel, type PaymentState }

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
