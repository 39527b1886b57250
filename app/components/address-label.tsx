/**
 * An address's label (Home, Work or Other; docs/commerce-api.md, "Addresses") as a small tag before
 * the address, in the address lists and on order pages. Nothing for an order placed before labels.
 */
export function AddressLabelTag({ label }: { label: string | undefined }) {
  if (!label) return null
  return (
    <span data-address-label="" className="mr-1.5 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs font-bold text-slate-700">
      {label}
    </span>
  )
}
