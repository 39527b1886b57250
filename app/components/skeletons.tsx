/**
 * Loading placeholders shaped like the final layout (docs/product.md, "Look and feel";
 * docs/product.md, "Constants": 12 category tiles, 6 product cards per row). Each mirrors the sizes
 * of the component it stands in for, so nothing jumps when the data arrives. Hidden from screen
 * readers; the region that holds them sets aria-busy.
 */
import { CATEGORY_GRID_CLASS } from './category-grid.tsx'

/** Number of category tiles while the home page loads (docs/product.md, "Constants"). */
export const CATEGORY_TILE_SKELETONS = 12
/** Number of product cards per home row while it loads (docs/product.md, "Constants"). */
export const PRODUCT_CARD_SKELETONS = 6

const pulse = 'animate-pulse rounded-md bg-slate-200/80'

/** One category tile (image square and a name line), as in CategoryGrid. */
export function CategoryTileSkeleton() {
  return (
    <div className="flex flex-col items-center gap-1.5" aria-hidden="true">
      <div className={`aspect-square w-full rounded-xl ${pulse}`} />
      <div className={`h-3 w-3/4 ${pulse}`} />
    </div>
  )
}

/** The category grid: 12 tiles in the same layout as CategoryGrid (`CATEGORY_GRID_CLASS`). */
export function CategoryGridSkeleton() {
  return (
    <div className={CATEGORY_GRID_CLASS} aria-hidden="true">
      {Array.from({ length: CATEGORY_TILE_SKELETONS }, (_, i) => (
        <CategoryTileSkeleton key={i} />
      ))}
    </div>
  )
}

/** One product card, upright as ProductCard draws it in a grid cell or a home row. */
export function ProductCardSkeleton() {
  return (
    <div className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-2.5" aria-hidden="true">
      <div className={`aspect-square w-full shrink-0 rounded-lg ${pulse}`} />
      <div className="flex flex-1 flex-col gap-1.5 pt-2">
        <div className={`h-4 w-12 ${pulse}`} />
        <div className={`h-4 w-full ${pulse}`} />
        <div className={`h-4 w-2/3 ${pulse}`} />
        <div className={`h-3 w-1/3 ${pulse}`} />
        <div className={`mt-auto h-4 w-1/2 ${pulse}`} />
      </div>
    </div>
  )
}

/** A home product row: title, See All and 6 cards (docs/product.md, "Constants"). */
export function ProductRowSkeleton() {
  return (
    <section className="py-3" aria-hidden="true">
      <div className="mb-3 flex items-center justify-between">
        <div className={`h-6 w-48 ${pulse}`} />
        <div className={`h-5 w-14 ${pulse}`} />
      </div>
      <div className="flex gap-3 overflow-hidden">
        {Array.from({ length: PRODUCT_CARD_SKELETONS }, (_, i) => (
          <div key={i} className="w-36 shrink-0 sm:w-44">
            <ProductCardSkeleton />
          </div>
        ))}
      </div>
    </section>
  )
}

/** `count` grid cells for ProductGrid (a page being appended, or a listing switching). */
export function ProductGridCellsSkeleton({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <li key={`skeleton-${i}`} aria-hidden="true">
          <ProductCardSkeleton />
        </li>
      ))}
    </>
  )
}

/** A whole product grid of `count` cards, in ProductGrid's columns. */
export function ProductGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3 lg:grid-cols-4" aria-hidden="true">
      <ProductGridCellsSkeleton count={count} />
    </ul>
  )
}

/** A small spinning ring for buttons and inline "loading" states. */
export function Spinner({ className = 'h-4 w-4' }: { className?: string }) {
  return (
    <svg className={`animate-spin ${className}`} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
}

/** Rows drawn as skeletons while the home page loads on a client-side navigation (docs/product.md, "Constants"). */
const HOME_SKELETON_ROWS = 3

/** The home page while it loads: 12 category tiles, and rows of 6 cards (docs/product.md, "Constants"). */
export function HomeSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading products" className="flex flex-col gap-5">
      <CategoryGridSkeleton />
      <div className="flex flex-col gap-1">
        {Array.from({ length: HOME_SKELETON_ROWS }, (_, i) => (
          <ProductRowSkeleton key={i} />
        ))}
      </div>
    </div>
  )
}
