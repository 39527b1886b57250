/**
 * The product card of the home rows, listings and search (docs/product.md, "Home": cards link to
 * /product/{productName}-{productId}; the delivery badge shows the serving store's computed minutes
 * once a location is chosen, nothing before, and "Delivery not available at <pincode>" with a
 * disabled ADD where no store delivers, docs/stores.md, "Shopper pages"; "Only N left" under the
 * unit when 1-5 are left), and the grid
 * that holds cards (docs/product.md, "Listings": 2, 3 or 4 columns by width).
 *
 * Look and feel (docs/product.md, "Look and feel"): a white card with a soft border, a fixed square
 * image box so nothing shifts while images load, price and badge readable at a glance. The whole card
 * is one link (the name's link stretches over the card), so a screen reader hears the product name once.
 *
 * Pack sizes (docs/product.md, "Pack sizes"): a card whose product has other sizes says "N options"
 * and lists them. Without JavaScript each size is a link to that size's product page (the card's
 * own is marked current); with JavaScript each is a button that switches the card (unit, prices,
 * stock, the name's link and ADD) to that size.
 */
import { useState } from 'react'
import { Link } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { productAnchor } from '../lib/cart.ts'
import { packSizeLabels, type PackSizeCardData, type ProductCardData } from '../lib/catalog-cards.ts'
import { discountLabel, formatRupees, isDiscounted, type PriceView } from '../lib/money.ts'
import { AddToCart } from './add-to-cart.tsx'
import { productPath } from '../lib/slug.ts'
import { deliveryBadgeLabel, lowStockLabel, type DeliveryPromise } from '../lib/delivery.ts'
import { ResponsiveImage } from './responsive-image.tsx'
import { useDeliveryPromise } from './use-shopper-location.ts'

/**
 * The image widths a home-row card offers: it is drawn 144 or 176 CSS pixels wide, so 256w covers one
 * device pixel per CSS pixel and 512w two or three (contract/images.ts `srcSetFor`).
 */
const ROW_CARD_IMAGE_WIDTHS = [256, 512] as const

/**
 * The delivery badge (docs/stores.md, "Shopper pages"): the serving store's computed minutes to the
 * shopper's PIN code ("9 min"), "Opens at 06:00" while it is closed, "Delivery not available at
 * 799001" where no store delivers, and nothing when no location is chosen (the header asks for one).
 */
export function DeliveryBadge({ promise, className = '' }: { promise: DeliveryPromise; className?: string }) {
  const label = deliveryBadgeLabel(promise)
  if (!label) return null
  const kind = promise.kind === 'not-served' ? 'badge-time badge-none' : 'badge-time'
  return (
    // The clock is drawn by the stylesheet (`.badge-time::before`), not an inline <svg>: a home page
    // shows this badge on every card, and 300 bytes of markup per card added up.
    <span className={className ? `${kind} ${className}` : kind}>{label}</span>
  )
}

/**
 * The ADD of a product no store delivers to the shopper's PIN code: disabled, with or without
 * JavaScript (the cart action refuses the add too: app/routes/cart.tsx). Same box as ADD.
 */
export function NotDeliverableAdd({ name, size = 'sm' }: { name: string; size?: 'sm' | 'lg' }) {
  return (
    <button type="button" disabled aria-label={`Add ${name} to cart`} className={`cart-box${size === 'lg' ? ' cart-box-lg' : ''} cart-off`}>
      ADD
    </button>
  )
}

/** "Only 3 left" when 1-5 units are left in the store (contract/availability.ts), else nothing. */
export function LowStockNote({ stock, className = 'pc-low' }: { stock: number; className?: string }) {
  const label = lowStockLabel(stock)
  return label ? <p className={className}>{label}</p> : null
}

/** The discount ribbon ("23% OFF"), or nothing when there is no discount. */
export function DiscountBadge({ discount, className = '' }: { discount: number; className?: string }) {
  const label = discountLabel(discount)
  if (!label) return null
  return <span className={className ? `badge-off ${className}` : 'badge-off'}>{label}</span>
}

/**
 * Selling price with the MRP struck through when higher (rupees of the view type `PriceView`, en-IN,
 * whole rupees when whole; app/lib/money.ts).
 */
export function PriceTag({ mrp, sellingPrice, size = 'sm' }: Pick<PriceView, 'mrp' | 'sellingPrice'> & { size?: 'sm' | 'lg' }) {
  return (
    <p className="price">
      <span className={size === 'lg' ? 'text-2xl font-bold' : 'text-sm font-bold'}>{formatRupees(sellingPrice)}</span>
      {isDiscounted({ mrp, sellingPrice }) ? (
        <s className={size === 'lg' ? 'text-base text-slate-500' : 'text-xs text-slate-500'}>
          <span className="sr-only">MRP </span>
          {formatRupees(mrp)}
        </s>
      ) : null}
    </p>
  )
}

/**
 * The size picker of a card (see the module comment): "4 options" and one chip per size, links to
 * each size's page before hydration (JavaScript off), buttons choosing `selectedId` after.
 */
export function PackPicker({
  name,
  sizes,
  selectedId,
  onSelect,
}: {
  name: string
  sizes: readonly PackSizeCardData[]
  selectedId: string
  onSelect: (id: string) => void
}) {
  const hydrated = useHydrated()
  const labels = packSizeLabels(sizes, formatRupees)
  return (
    <div className="pc-packs" role="group" aria-label={`${sizes.length} pack sizes`} data-pack-picker="">
      <p className="pc-packs-count" aria-hidden="true">
        {sizes.length} options
      </p>
      <ul className="pc-pack-list">
        {sizes.map((size) => {
          const label = labels.get(size._id) ?? size.unit
          const current = size._id === selectedId
          const soldOut = size.stock <= 0
          const className = `pc-pack${soldOut ? ' pc-pack-out' : ''}`
          return (
            <li key={size._id}>
              {hydrated ? (
                <button
                  type="button"
                  className={className}
                  aria-pressed={current}
                  aria-label={`${label}${soldOut ? ', out of stock' : ''}`}
                  onClick={() => onSelect(size._id)}
                >
                  {label}
                </button>
              ) : (
                <Link
                  to={productPath({ _id: size._id, name })}
                  className={className}
                  aria-current={current ? 'true' : undefined}
                  data-pack-size=""
                  aria-label={`${label}${soldOut ? ', out of stock' : ''}`}
                >
                  {label}
                </Link>
              )}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/**
 * One product card, upright (image above the name). `layout="row"` is the fixed-width card of the
 * home rows; `layout="grid"` fills its grid cell (two to a phone's row, as quick-commerce listings
 * are). `eager` loads the image at once (cards above the fold).
 */
export function ProductCard({
  product,
  layout = 'grid',
  eager = false,
}: {
  product: ProductCardData
  layout?: 'grid' | 'row'
  eager?: boolean
}) {
  const inGrid = layout === 'grid'
  const [selectedId, setSelectedId] = useState(product._id)
  // The size the card shows and adds: the one chosen in its picker, else the product itself.
  const shown = product.packSizes?.find((s) => s._id === selectedId) ?? product
  const cartName = [product.brand, product.name, product.packSizes ? shown.unit : ''].filter(Boolean).join(' ')
  const promise = useDeliveryPromise()
  return (
    // Class names are the component classes of app/app.css (.pc …): one short name per element
    // instead of a long utility list repeated in every card.
    <article id={productAnchor(product._id)} data-card="product" className="pc pc-col">
      <div className="pc-media">
        <ResponsiveImage
          src={product.image}
          alt=""
          width={256}
          height={256}
          sizes={inGrid ? '(min-width: 640px) 220px, 45vw' : '176px'}
          widths={inGrid ? undefined : ROW_CARD_IMAGE_WIDTHS}
          loading={eager ? 'eager' : 'lazy'}
          className="pc-img"
        />
        <DiscountBadge discount={shown.discount} className="pc-off" />
      </div>
      <div className="pc-body">
        <DeliveryBadge promise={promise} />
        <h3 className="pc-name">
          <Link to={productPath({ _id: shown._id, name: product.name })} className="pc-link">
            {product.name}
          </Link>
        </h3>
        {product.brand ? <p className="pc-brand">{product.brand}</p> : null}
        <p className="pc-unit">{shown.unit}</p>
        {product.packSizes ? (
          <PackPicker name={product.name} sizes={product.packSizes} selectedId={shown._id} onSelect={setSelectedId} />
        ) : null}
        <LowStockNote stock={shown.stock} />
        {/* Price and ADD share a line while both fit; in a narrow card (a phone's home row, a listing
            beside its sub category list) ADD moves under the price instead of out of the card. */}
        <div className="pc-buy">
          <PriceTag mrp={shown.mrp} sellingPrice={shown.sellingPrice} />
          <div className="pc-cart">
            {promise.kind === 'not-served' ? (
              <NotDeliverableAdd name={cartName} />
            ) : (
              <AddToCart key={shown._id} productId={shown._id} name={cartName} stock={shown.stock} lazy />
            )}
          </div>
        </div>
      </div>
    </article>
  )
}

/**
 * The product grid of the listing, category and search pages: 2, 3 or 4 columns by width
 * (docs/product.md, "Listings"). `children` are extra cells (loading skeletons while a page appends).
 * With `paging`, the first card of every page after the first gets the id `page-N`, the target of
 * the JavaScript-off "next page" link (`?page=N#page-N`), scrolled clear of the sticky header.
 */
export function ProductGrid({
  products,
  eagerCount = 4,
  paging,
  children,
}: {
  products: ProductCardData[]
  eagerCount?: number
  paging?: { start: number; pageSize: number }
  children?: React.ReactNode
}) {
  const anchorOf = (i: number) => {
    if (!paging) return undefined
    const index = paging.start + i
    return index > 0 && index % paging.pageSize === 0 ? `page-${index / paging.pageSize + 1}` : undefined
  }
  return (
    <ul aria-label="Products" className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3 lg:grid-cols-4">
      {products.map((product, i) => (
        <li key={product._id} id={anchorOf(i)} className="scroll-mt-36 md:scroll-mt-28">
          <ProductCard product={product} eager={i < eagerCount} />
        </li>
      ))}
      {children}
    </ul>
  )
}
