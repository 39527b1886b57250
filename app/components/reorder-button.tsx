/**
 * "Order again" (docs/product.md, "Order again"): a one-button form that posts the order's id to
 * the page's own action (`intent=reorder`), so it works without JavaScript; the action adds the
 * order's lines to the cart and redirects there with a toast.
 */
import { Form, useNavigation } from 'react-router'
import { Button } from './ui/button.tsx'
import { REORDER_INTENT } from '../lib/reorder.ts'

/**
 * The button for order `orderId` (its `_id`), posting to `action` (the page's path); `orderNumber`
 * tells apart the buttons of a list to a screen reader.
 */
export function ReorderButton({
  orderId,
  orderNumber,
  action,
  className,
}: {
  orderId: string
  orderNumber: string
  action: string
  className?: string
}) {
  const navigation = useNavigation()
  const isPending =
    navigation.state !== 'idle' && navigation.formData?.get('intent') === REORDER_INTENT && navigation.formData?.get('orderId') === orderId
  return (
    <Form method="post" action={action} className={className}>
      <input type="hidden" name="intent" value={REORDER_INTENT} />
      <input type="hidden" name="orderId" value={orderId} />
      <Button type="submit" variant="secondary" size="sm" isPending={isPending}>
        Order again<span className="sr-only"> (order {orderNumber})</span>
      </Button>
    </Form>
  )
}
