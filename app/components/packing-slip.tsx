/**
 * One printed packing slip (docs/commerce-api.md, "Packing slips"), shared by every slips page: the
 * order number with its Code 128 barcode (an SVG the server drew with bwip-js, app/.server/barcode.ts),
 * the shopper, the delivery address and phone, each line in pick order with its aisle, quantity,
 * brand, name, pack size and product id (the SKU the pickers match), the shopper's delivery
 * instructions (docs/commerce-api.md, "Tip and delivery instructions"), and the cash to collect.
 * `PACKING_SLIP_PRINT_CSS` prints only the slips, one a page (CSS Paged Media: `@page`,
 * `break-after: page`).
 */
import type { PackingSlip } from '../../contract/order.ts'
import { SHOP_NAME } from './header.tsx'
import { formatRupees } from '../lib/money.ts'
import { formatOrderTime, statusLabel } from '../lib/order-status.ts'
import { addressLine } from '../lib/schemas/address.ts'
import { instructionsWords } from '../../contract/tip.ts'

/** A barcode as the server drew it: an SVG document (bars only) and its natural size, px. */
export interface SlipBarcode {
  svg: string
  width: number
  height: number
}

/** Print only the slips (inside `.packing-slips`), each on its own page, in black on white. */
export const PACKING_SLIP_PRINT_CSS = `@media print {
  @page { margin: 12mm; }
  body * { visibility: hidden; }
  .packing-slips, .packing-slips * { visibility: visible; }
  .packing-slips { position: absolute; left: 0; top: 0; width: 100%; }
  .packing-slips .no-print { display: none; }
  .packing-slip { break-after: page; border: 0 !important; box-shadow: none !important; }
  .packing-slip:last-child { break-after: auto; }
}`

/** The aisle of a line in words: "Dairy › Curd"; "" when it has none. */
function aisleOf(line: Pick<PackingSlip['items'][number], 'category' | 'subCategory'>): string {
  return [line.category, line.subCategory].filter(Boolean).join(' › ')
}

/** One order's slip; `barcode`: the order number's Code 128, shown above the number. */
export function PackingSlipCard({ order, barcode }: { order: PackingSlip; barcode: SlipBarcode | null }) {
  const units = order.items.reduce((n, l) => n + l.quantity, 0)
  const cod = order.payment.state === 'cod'
  return (
    <article
      aria-label={`Packing slip ${order.orderId}`}
      className="packing-slip min-w-0 rounded-xl border border-slate-300 bg-white p-4 text-slate-900"
    >
      <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-200 pb-2">
        <div className="min-w-0">
          <p className="text-xs tracking-wide text-slate-500 uppercase">{SHOP_NAME} · Packing slip</p>
          {barcode ? (
            <span
              role="img"
              aria-label={`Barcode of order ${order.orderId} (Code 128)`}
              data-testid="order-barcode"
              className="mt-1 block max-w-full [&>svg]:h-auto [&>svg]:w-full"
              style={{ width: barcode.width }}
              // The SVG is bwip-js's drawing of the order number: bars only, no text or script from any user.
              dangerouslySetInnerHTML={{ __html: barcode.svg }}
            />
          ) : null}
          <h2 className="text-lg font-bold break-all">{order.orderId}</h2>
          <p className="text-sm">{formatOrderTime(order.createdAt)}</p>
        </div>
        <p className="text-sm font-semibold">{statusLabel(order.status)}</p>
      </header>
      <section aria-label="Deliver to" className="border-b border-slate-200 py-2 text-sm">
        <p className="font-semibold break-words">{order.customer?.name ?? ''}</p>
        <p className="break-words">
          {order.delivery_address.label ? <strong>{order.delivery_address.label}: </strong> : null}
          {addressLine(order.delivery_address)}
        </p>
        <p>Phone {order.delivery_address.mobile}</p>
        {order.deliveryInstructions ? (
          <p data-testid="slip-instructions" className="mt-1 font-semibold break-words">
            Instructions: {instructionsWords(order.deliveryInstructions)}
          </p>
        ) : null}
      </section>
      <table className="mt-2 w-full table-fixed text-left text-sm">
        <caption className="sr-only">Lines in pick order: by category, then sub category, then name</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th className="w-12 py-1">Qty</th>
            <th className="py-1">Item</th>
            <th className="w-8 py-1 text-right">
              <span aria-hidden="true">✓</span>
              <span className="sr-only">Packed</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((line, i) => (
            <tr key={`${line.productId ?? 'gone'}-${i}`} data-testid="slip-line" className="border-b border-slate-100 align-top">
              <td className="py-1 text-base font-bold">{line.quantity}</td>
              <td className="py-1 break-words">
                {aisleOf(line) ? <span className="block text-xs text-slate-500">{aisleOf(line)}</span> : null}
                {line.brand ? <span className="font-semibold">{line.brand} </span> : null}
                <span data-testid="slip-line-name">{line.name}</span>
                <span className="block text-xs text-slate-600">
                  {line.unit}
                  {line.productId ? ` · SKU ${line.productId}` : ''}
                </span>
              </td>
              <td className="py-1 text-right">☐</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 flex flex-wrap justify-between gap-2 text-sm">
        <span>
          {units} {units === 1 ? 'unit' : 'units'}, {order.items.length} {order.items.length === 1 ? 'line' : 'lines'}
        </span>
        <span className="font-semibold">{cod ? `Cash to collect ${formatRupees(order.totalAmt)}` : 'Paid online: collect nothing'}</span>
      </p>
    </article>
  )
}
