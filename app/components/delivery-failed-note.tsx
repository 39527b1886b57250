/**
 * The note of an order whose delivery failed (docs/delivery.md, "Could not deliver"): "Delivery
 * failed: <reason>" and what happens to the money in words (refund on its way or done, or nothing
 * charged for cash on delivery), on the shopper's order page and the order desk's.
 */
import type { Order } from '../../contract/order.ts'
import { failedDeliveryMoneyWords } from '../../contract/delivery-failure.ts'

/** Nothing unless the order's status is `delivery_failed`. */
export function DeliveryFailedNote({ order }: { order: Pick<Order, 'status' | 'deliveryFailure' | 'payment' | 'totalAmt'> }) {
  if (order.status !== 'delivery_failed') return null
  return (
    <div data-testid="delivery-failed-note" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      <p className="font-semibold">
        Delivery failed
        {order.deliveryFailure ? (
          <>
            : <span className="break-words">{order.deliveryFailure.text}</span>
          </>
        ) : null}
      </p>
      <p>The order went back to the store. {failedDeliveryMoneyWords(order)}</p>
    </div>
  )
}
