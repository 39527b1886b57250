/**
 * The rider box of the admin order page (docs/delivery.md, "Reassigning"): who has the order, or that
 * it waits for one, a rider's "Could not deliver" reason, and for an admin while the order is packed
 * a plain form giving it to an on-shift rider of its store or back to the queue (works without
 * JavaScript: the page's action answers with a redirect and a toast).
 */
import { Form } from 'react-router'
import { Button } from './ui/button.tsx'

/** What the box shows (app/.server/api/dispatch.ts `OrderDispatch`, repeated here: components never import app/.server). */
export interface OrderRiderView {
  riderId: string | null
  riderName: string | null
  deliveryIssue: string | null
  ridersOnShift: { _id: string; name: string }[]
}

export function OrderRider({ dispatch, canAssign, intent }: { dispatch: OrderRiderView; canAssign: boolean; intent: string }) {
  const choices = dispatch.ridersOnShift.filter((r) => r._id !== dispatch.riderId)
  return (
    <div data-testid="order-rider" className="rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <p className="font-medium text-slate-900">{dispatch.riderName ? `Rider: ${dispatch.riderName}` : 'Waiting for a rider'}</p>
      {dispatch.deliveryIssue ? <p className="text-red-700">Could not deliver: {dispatch.deliveryIssue}</p> : null}
      {canAssign ? (
        <Form method="post" className="mt-2 flex flex-wrap items-center gap-2" aria-label="Reassign the rider">
          <input type="hidden" name="intent" value={intent} />
          <label htmlFor="order-rider" className="text-slate-700">
            Give to
          </label>
          <select
            id="order-rider"
            name="riderId"
            defaultValue=""
            className="min-h-11 max-w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2"
          >
            <option value="">{dispatch.riderId ? 'Back to the queue' : 'Queue (the rule decides)'}</option>
            {choices.map((r) => (
              <option key={r._id} value={r._id}>
                {r.name}
              </option>
            ))}
          </select>
          <Button type="submit" size="sm" variant="secondary">
            Assign
          </Button>
        </Form>
      ) : null}
    </div>
  )
}
