/**
 * The product area of the two listing pages, /{category} and /{category}/{subCategory}
 * (docs/product.md, "Listings"; docs/product.md, "Constants": page size 8): the product grid (2, 3 or
 * 4 columns) whose later pages append (app/components/pager.tsx), a skeleton of one page while the
 * shopper moves to another list of the same category, and `emptyMessage` when the list has no product
 * at all.
 */
import { EarlierPagesNote, LoadMore, type AppendingList } from './pager.tsx'
import { ProductGrid } from './product-card.tsx'
import type { ProductCardData } from '../lib/catalog-cards.ts'
import { ProductGridCellsSkeleton, ProductGridSkeleton } from './skeletons.tsx'

/**
 * Renders `list` (from useAppendingList), `pageSize` products a page; `isSwitching` (from
 * useIsSwitchingWithinCategory) shows the skeleton instead. The area is aria-busy while it loads.
 */
export function ListingProducts({
  list,
  pageSize,
  isSwitching,
  emptyMessage,
}: {
  list: AppendingList<ProductCardData>
  pageSize: number
  isSwitching: boolean
  emptyMessage: string
}) {
  return (
    <div aria-busy={isSwitching || list.isLoading}>
      {/* The cards name their products in h3s: this keeps the page's headings in order under its h1
          (WCAG 2.2 SC 1.3.1; Lighthouse "heading-order"). */}
      <h2 className="sr-only">Products</h2>
      {isSwitching ? (
        <ProductGridSkeleton count={pageSize} />
      ) : (
        <>
          <EarlierPagesNote list={list} />
          {list.items.length === 0 && list.start === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{emptyMessage}</p>
          ) : (
            <ProductGrid products={list.items} paging={{ start: list.start, pageSize }}>
              {list.isLoading ? <ProductGridCellsSkeleton count={4} /> : null}
            </ProductGrid>
          )}
          <LoadMore list={list} />
        </>
      )}
    </div>
  )
}
