/**
 * The "Invoice" and "Credit note" links of an order page (docs/commerce-api.md, "Tax invoice"):
 * plain links to the order's PDFs at `<orderPath>/invoice` and `<orderPath>/credit-note?n=<number>`
 * (resource routes), so they open the same with or without JavaScript; the browser shows the PDF or
 * offers to save it.
 */
import { buttonClassName } from './ui/button.tsx'

/**
 * The links for the order at `orderPath`; `orderNumber` names the order to a screen reader;
 * `creditNotes` are the numbers of its credit notes (none: no credit-note link).
 */
export function InvoiceLink({
  orderPath,
  orderNumber,
  creditNotes = [],
}: {
  orderPath: string
  orderNumber: string
  creditNotes?: readonly string[]
}) {
  return (
    <>
      <a href={`${orderPath}/invoice`} type="application/pdf" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
        Invoice (PDF)<span className="sr-only"> for order {orderNumber}</span>
      </a>
      {creditNotes.map((number) => (
        <a
          key={number}
          href={`${orderPath}/credit-note?${new URLSearchParams({ n: number })}`}
          type="application/pdf"
          data-credit-note={number}
          className={buttonClassName({ variant: 'secondary', size: 'sm' })}
        >
          Credit note {number} (PDF)<span className="sr-only"> for order {orderNumber}</span>
        </a>
      ))}
    </>
  )
}
