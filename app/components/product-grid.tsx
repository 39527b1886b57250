/**
 * The admin product grid's pieces (docs/product-csv.md, "The admin grid"; the page:
 * app/routes/dashboard/product/index.tsx): the filter form and the rows. Every control is a plain form
 * field or link, so the grid works without JavaScript: the filters are a GET form (the address holds
 * them), the rows' ticks are checkboxes of the bulk edit's POST form.
 *
 * Layout: one DOM for every width. On phones each row is a card (tick, image and name on top, then
 * MRP, selling price, stock and state in four short cells, then Edit and Delete); from 1280 px the same
 * cards line up as a table's rows under a header row, on one grid template, so nothing ever scrolls
 * sideways.
 */
import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { ResponsiveImage } from './responsive-image.tsx'
import { buttonClassName } from './ui/button.tsx'
import { cn } from './ui/cn.ts'
import { formatRupees, productPrice, type PriceView } from '../lib/money.ts'
import {
  ADMIN_PRODUCT_BRAND_MAX,
  ADMIN_PRODUCT_SORTS,
  LOW_STOCK,
  type AdminProductFilter,
  type AdminProductSort,
  type AdminProductRow,
} from '../../contract/product-admin.ts'

/** The sorts in words, for the sort menu. */
export const PRODUCT_SORT_LABELS: Record<AdminProductSort, string> = {
  newest: 'Newest first',
  name: 'Name A–Z',
  price_asc: 'Selling price: low to high',
  price_desc: 'Selling price: high to low',
  stock_asc: 'Stock: low to high',
  stock_desc: 'Stock: high to low',
}

/**
 * One row as the grid shows it: contract/product-admin.ts `AdminProductRow` with its prices under
 * the view type's names (`mrp`, `sellingPrice` in rupees: app/lib/money.ts `PriceView`; the wire's
 * `price` is the MRP), cut by `productGridRow`.
 */
export interface ProductGridRow extends Pick<PriceView, 'mrp' | 'sellingPrice'> {
  _id: string
  sku: string | null
  name: string
  brand: string
  unit: string
  image: string
  stock: number
  publish: boolean
}

/** The grid's row of an admin product row (its wire `price` is the MRP; `updatedAt` is not shown). */
export function productGridRow({ _id, sku, name, brand, unit, image, stock, publish, ...wire }: AdminProductRow): ProductGridRow {
  const { mrp, sellingPrice } = productPrice(wire)
  return { _id, sku, name, brand, unit, image, mrp, sellingPrice, stock, publish }
}

const fieldClass = 'w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm'
/** The shared column template: tick, image, name, the four figures, actions. */
const ROW_GRID =
  'grid grid-cols-[auto_3rem_minmax(0,1fr)] gap-x-3 gap-y-2 xl:grid-cols-[auto_3rem_minmax(0,1fr)_24rem_9rem] xl:items-center'

/**
 * The filters and the sort (`?stock=&category=&subCategory=&brand=&sort=`), the search text kept
 * as a hidden field. The brand is typed (the browser suggests the catalogue's brands). The sub category menu lists those of the chosen category (all without one).
 */
export function ProductGridFilters({
  filter,
  categories,
  subCategories,
  brands,
}: {
  filter: AdminProductFilter
  categories: { _id: string; name: string }[]
  subCategories: { _id: string; name: string; categoryIds: string[] }[]
  brands: string[]
}) {
  const shownSubCategories = filter.category ? subCategories.filter((s) => s.categoryIds.includes(filter.category!)) : subCategories
  return (
    <Form method="get" aria-label="Filter products" className="mb-3 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
      {filter.q ? <input type="hidden" name="q" value={filter.q} /> : null}
      <Select label="Stock" name="stock" value={filter.stock ?? ''}>
        <option value="">All</option>
        <option value="out">Out of stock</option>
        <option value="low">Low stock (1–{LOW_STOCK})</option>
      </Select>
      <Select label="Category" name="category" value={filter.category ?? ''}>
        <option value="">All categories</option>
        {categories.map((c) => (
          <option key={c._id} value={c._id}>
            {c.name}
          </option>
        ))}
      </Select>
      <Select label="Sub category" name="subCategory" value={filter.subCategory ?? ''}>
        <option value="">All sub categories</option>
        {shownSubCategories.map((s) => (
          <option key={s._id} value={s._id}>
            {s.name}
          </option>
        ))}
      </Select>
      <div className="flex min-w-0 flex-col gap-1 text-sm text-slate-700">
        <label htmlFor="product-grid-brand">Brand</label>
        {/* Free text (the whole brand, any case), suggested from the catalogue's brands. */}
        <input
          key={filter.brand ?? ''}
          id="product-grid-brand"
          type="text"
          name="brand"
          list="product-grid-brands"
          defaultValue={filter.brand ?? ''}
          maxLength={ADMIN_PRODUCT_BRAND_MAX}
          placeholder="All brands"
          autoComplete="off"
          className={fieldClass}
        />
        <datalist id="product-grid-brands">
          {brands.map((b) => (
            <option key={b} value={b} />
          ))}
        </datalist>
      </div>
      <Select label="Sort" name="sort" value={filter.sort}>
        {ADMIN_PRODUCT_SORTS.map((s) => (
          <option key={s} value={s}>
            {PRODUCT_SORT_LABELS[s]}
          </option>
        ))}
      </Select>
      <div className="flex items-end">
        <button type="submit" className={buttonClassName({ variant: 'secondary', size: 'sm', fullWidth: true })}>
          Apply filters
        </button>
      </div>
    </Form>
  )
}

function Select({ label, name, value, children }: { label: string; name: string; value: string; children: ReactNode }) {
  const id = `product-grid-${name}`
  return (
    <div className="flex min-w-0 flex-col gap-1 text-sm text-slate-700">
      <label htmlFor={id}>{label}</label>
      {/* `key`: a new address shows its own choice even when the form is kept (client navigation). */}
      <select key={value} id={id} name={name} defaultValue={value} className={fieldClass}>
        {children}
      </select>
    </div>
  )
}

/** The header row (1280 px and wider, where the dashboard menu leaves room): the same template as the rows. */
export function ProductGridHeader({ selectAll }: { selectAll: ReactNode }) {
  return (
    <div className={cn(ROW_GRID, 'hidden px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase xl:grid')}>
      <span className="flex w-5 items-center">{selectAll}</span>
      <span />
      <span>Product</span>
      <span className="grid grid-cols-4 gap-2 text-right">
        <span>MRP</span>
        <span>Selling</span>
        <span>Stock</span>
        <span>State</span>
      </span>
      <span className="text-right">Actions</span>
    </div>
  )
}

/** "Out of stock", "Low stock" (1..LOW_STOCK units) or nothing: the stock cell's badge. */
function stockBadge(stock: number): { label: string; className: string } | null {
  if (stock === 0) return { label: 'Out of stock', className: 'bg-red-100 text-red-800' }
  if (stock <= LOW_STOCK) return { label: 'Low stock', className: 'bg-amber-100 text-amber-900' }
  return null
}

/**
 * One product: its tick (`ids`, part of the bulk edit form `form`), first image, name, SKU, brand,
 * unit, MRP, selling price, stock (with a badge when out or low) and published state, Edit and Delete
 * links, and under it the message of a refused bulk edit for this product.
 */
export function ProductGridItem({
  row,
  form,
  checked,
  error,
  editHref,
  deleteHref,
  eager,
}: {
  row: ProductGridRow
  form: string
  checked: boolean
  error: string | undefined
  editHref: string
  deleteHref: string
  eager: boolean
}) {
  const badge = stockBadge(row.stock)
  const errorId = `row-error-${row._id}`
  return (
    <li
      data-card="product"
      aria-invalid={error ? true : undefined}
      className={cn(ROW_GRID, 'rounded-lg border bg-white p-3 shadow-sm', error ? 'border-red-300' : 'border-slate-200')}
    >
      <span className="flex w-5 items-start pt-1 xl:items-center xl:pt-0">
        <input
          type="checkbox"
          name="ids"
          value={row._id}
          form={form}
          defaultChecked={checked}
          aria-label={`Select ${row.name}`}
          aria-describedby={error ? errorId : undefined}
          className="size-5"
        />
      </span>
      <span className="flex size-12 items-center justify-center overflow-hidden rounded bg-slate-50">
        {row.image ? (
          <ResponsiveImage
            src={row.image}
            alt=""
            width={48}
            height={48}
            sizes="48px"
            loading={eager ? 'eager' : 'lazy'}
            className="size-full object-contain"
          />
        ) : null}
      </span>
      <span className="min-w-0">
        <span className="block text-sm font-medium break-words text-slate-900">{row.name}</span>
        <span className="block text-xs break-words text-slate-500">
          {[row.sku ? `SKU ${row.sku}` : 'No SKU', row.brand || 'No brand', row.unit].filter(Boolean).join(' · ')}
        </span>
      </span>
      <dl className="col-span-3 grid grid-cols-4 gap-2 text-sm xl:col-span-1 xl:text-right">
        <div className="min-w-0">
          <dt className="text-xs text-slate-500 xl:sr-only">MRP</dt>
          <dd className="break-words">{formatRupees(row.mrp)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-slate-500 xl:sr-only">Selling price</dt>
          <dd className="font-semibold break-words">{formatRupees(row.sellingPrice)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-slate-500 xl:sr-only">Stock</dt>
          <dd>
            <span className="block">{row.stock}</span>
            {badge ? (
              <span className={cn('mt-0.5 inline-block rounded px-1 text-xs font-semibold', badge.className)}>{badge.label}</span>
            ) : null}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-slate-500 xl:sr-only">State</dt>
          <dd>
            <span
              className={cn(
                'inline-block rounded px-1 text-xs font-semibold',
                row.publish ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-200 text-slate-700',
              )}
            >
              {row.publish ? 'Published' : 'Hidden'}
            </span>
          </dd>
        </div>
      </dl>
      <span className="col-span-3 grid grid-cols-2 gap-2 xl:col-span-1">
        <Link
          to={editHref}
          preventScrollReset
          aria-label={`Edit ${row.name}`}
          className="inline-flex min-h-10 items-center justify-center rounded-md bg-green-100 text-sm font-medium text-green-800 hover:bg-green-200"
        >
          Edit
        </Link>
        <Link
          to={deleteHref}
          preventScrollReset
          aria-label={`Delete ${row.name}`}
          className="inline-flex min-h-10 items-center justify-center rounded-md bg-red-100 text-sm font-medium text-red-700 hover:bg-red-200"
        >
          Delete
        </Link>
      </span>
      {error ? (
        <p id={errorId} role="alert" className="col-span-3 text-sm text-red-700 xl:col-span-5">
          {error}
        </p>
      ) : null}
    </li>
  )
}
