/**
 * The "Invoice" link of an order page (docs/commerce-api.md, "Tax invoice"): a plain link to the
 * order's PDF at `<orderPath>/invoice` (a resource route), so it opens the same with or without
 * JavaScript; the browser shows the PDF or offers to save it.
 */
import { buttonClassName } from './ui/button.tsx'

/** The link for the order at `orderPath`; `orderNumber` names the order to a screen reader. */
export function InvoiceLink({ orderPath, orderNumber }: { orderPath: string; orderNumber: string }) {
  return (
    <a href={`${orderPath}/invoice`} type="application/pdf" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
      Invoice (PDF)<span className="sr-only"> for order {orderNumber}</span>
    </a>
  )
}
