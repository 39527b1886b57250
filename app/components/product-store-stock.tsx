/**
 * The "Stock per store" section of the product edit dialog (docs/stores.md, "Admin"): the product's
 * stock in every store (POST /api/inventory/product), each in a number box, saved together by its
 * own form (`intent=store-stock`, one PUT /api/inventory/update: all stores or none). It is a plain
 * POST, so it works without JavaScript; the product form's own "Number of Stock" stays the default
 * store's stock. A refused number is said under its store.
 */
import { Form, useNavigation } from 'react-router'
import { ErrorList } from './forms.tsx'
import { Button } from './ui/button.tsx'
import { Input } from './ui/input.tsx'
import { STOCK_MAX, STORE_STOCK_PREFIX } from '../lib/schemas/store.ts'
import type { ProductStock } from '../../contract/location.ts'

/** The action's answer to a refused "Stock per store" form: the message per store id ('' for the whole form). */
export interface StoreStockReply {
  intent: 'store-stock'
  errors: Record<string, string>
  toast: { type: 'error'; message: string } | null
}

/** The section: one row per store (name, "inactive" when so, the stock box) and Save stock. */
export function ProductStoreStock({
  productId,
  stocks,
  action,
  reply,
}: {
  productId: string
  stocks: ProductStock[]
  /** Where the form posts: the page's address with the edit dialog open. */
  action: string
  reply: StoreStockReply | null
}) {
  const navigation = useNavigation()
  const isSaving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'store-stock'
  const errors = reply?.errors ?? {}
  return (
    <section aria-labelledby="store-stock-title" data-card="store stock" className="mt-6 border-t border-slate-200 pt-4">
      <h3 id="store-stock-title" className="mb-1 font-semibold text-slate-900">
        Stock per store
      </h3>
      <p className="mb-3 text-sm text-slate-600">Units each dark store holds. Saved together, apart from the form above.</p>
      <Form method="post" action={action} className="grid gap-3">
        <input type="hidden" name="intent" value="store-stock" />
        <input type="hidden" name="_id" value={productId} />
        <ul className="grid gap-2 sm:grid-cols-2">
          {stocks.map((row) => {
            const id = `store-stock-${row.storeId}`
            const error = errors[row.storeId]
            return (
              <li key={row.storeId} className="min-w-0">
                <label htmlFor={id} className="mb-1 block text-sm font-medium break-words text-slate-700">
                  {row.storeName}
                  {row.active ? null : <span className="font-normal text-slate-500"> (inactive)</span>}
                </label>
                <Input
                  id={id}
                  name={`${STORE_STOCK_PREFIX}${row.storeId}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={STOCK_MAX}
                  step={1}
                  required
                  defaultValue={row.stock}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
                <ErrorList id={`${id}-error`} errors={error ? [error] : []} />
              </li>
            )
          })}
        </ul>
        <ErrorList errors={errors[''] ? [errors['']] : []} role="alert" />
        <div className="flex justify-end">
          <Button type="submit" variant="secondary" isPending={isSaving}>
            {isSaving ? 'Saving…' : 'Save stock'}
          </Button>
        </div>
      </Form>
    </section>
  )
}
