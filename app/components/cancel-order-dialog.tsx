/**
 * Cancelling an order asks first (docs/commerce-api.md, "Orders"): "Cancel order" opens a dialog that
 * lives in the address (`?cancel=1`, app/components/ui/dialog.tsx), so it works without JavaScript
 * (the server renders it open) and is a modal with it. The dialog takes an optional reason, kept on
 * the order, and confirms with a plain POST form; "Keep order" goes back without the parameter.
 */
import { useId } from 'react'
import { Form, Link } from 'react-router'
import { CANCEL_REASON_MAX } from '../../contract/order-limits.ts'
import { ErrorList } from './forms.tsx'
import { Button, buttonClassName } from './ui/button.tsx'
import { Dialog } from './ui/dialog.tsx'
import { Label } from './ui/input.tsx'

/** The search parameter that opens the dialog. */
export const CANCEL_DIALOG_PARAM = 'cancel'

/** The form field of the reason. */
export const CANCEL_REASON_FIELD = 'reason'

/** The address of the order page with the dialog open. */
export const cancelDialogHref = (orderPath: string) => `${orderPath}?${CANCEL_DIALOG_PARAM}=1`

/** True when `search` (a page's query string) asks for the dialog. */
export const isCancelDialogOpen = (search: URLSearchParams) => search.get(CANCEL_DIALOG_PARAM) === '1'

/** The link that opens the dialog, styled as the danger button it replaces. */
export function CancelOrderLink({ orderPath }: { orderPath: string }) {
  return (
    <Link to={cancelDialogHref(orderPath)} preventScrollReset className={buttonClassName({ variant: 'danger', size: 'sm' })}>
      Cancel order
    </Link>
  )
}

export interface CancelOrderDialogProps {
  /** The order page's path without the dialog's parameter (where "Keep order" and Escape go). */
  orderPath: string
  /** The question under the title. */
  message: string
  /** Hidden fields posted with the confirmation (the admin's `status` and `version`). */
  fields?: Record<string, string>
  /** The reason's error from the last post, shown under the field. */
  error?: string | null
  isPending?: boolean
}

/**
 * The confirmation: an optional reason (at most {@link CANCEL_REASON_MAX} characters, checked again by
 * the API) and "Yes, cancel order". The form posts to the page with the dialog open, so an error
 * comes back to it.
 */
export function CancelOrderDialog({ orderPath, message, fields = {}, error, isPending = false }: CancelOrderDialogProps) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <Dialog title="Cancel this order?" description={message} closeTo={orderPath} size="sm">
      <Form method="post" action={cancelDialogHref(orderPath)} className="flex flex-col gap-4">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div>
          <Label htmlFor={id}>Reason (optional)</Label>
          <textarea
            id={id}
            name={CANCEL_REASON_FIELD}
            rows={3}
            maxLength={CANCEL_REASON_MAX}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:outline-2 focus:outline-accent aria-[invalid=true]:border-red-500"
          />
          <ErrorList id={errorId} errors={error ? [error] : null} />
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={orderPath} replace preventScrollReset className={buttonClassName({ variant: 'secondary' })} data-autofocus>
            Keep order
          </Link>
          <Button type="submit" variant="danger" isPending={isPending}>
            Yes, cancel order
          </Button>
        </div>
      </Form>
    </Dialog>
  )
}
