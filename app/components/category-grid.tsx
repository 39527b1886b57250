/**
 * The home page's category image grid (docs/product.md, "Home"). On phones (below 768 px) two rows
 * that scroll sideways, four and a half tiles in view: the rows hold ⌈n/2⌉ and ⌊n/2⌋ tiles, so no
 * tile is left alone on a last row whatever the number of categories (11 in the catalogue: 5, 5
 * and 1 in five columns before), and the half tile shows there is more. Names wrap over as many
 * lines as they need, never cut. From 768 px, 8 or 10 columns. The listings' sub category sidebar
 * is app/components/subcategory-sidebar.tsx.
 */
import { NavLink } from 'react-router'
import { ResponsiveImage } from './responsive-image.tsx'
import type { CategoryLinkData } from '../lib/catalog-cards.ts'

/**
 * The grid's layout (see the module comment), shared with its skeleton (app/components/skeletons.tsx):
 * on phones two rows filled column by column, each column 1/4.5 of the width less the gaps in view.
 */
export const CATEGORY_GRID_CLASS =
  'grid grid-flow-col grid-rows-2 auto-cols-[calc((100%_-_2rem)/4.5)] gap-2 overflow-x-auto overscroll-x-contain pb-1 snap-x md:grid-flow-row md:grid-rows-none md:auto-cols-auto md:grid-cols-8 md:gap-3 md:overflow-visible md:pb-0 lg:grid-cols-10'

/**
 * The home grid of category images. Each tile's `href` was chosen by the loader (the first sub
 * category listing that category, else the category's own page).
 */
export function CategoryGrid({ tiles }: { tiles: CategoryLinkData[] }) {
  return (
    <ul data-testid="category-grid" className={CATEGORY_GRID_CLASS}>
      {tiles.map((tile, i) => (
        <li key={tile._id} className="snap-start">
          <NavLink
            to={tile.href}
            className="group flex flex-col items-center gap-1.5 rounded-xl p-0.5 text-center focus-visible:outline-2 focus-visible:outline-accent"
          >
            <span className="flex aspect-square w-full items-center justify-center overflow-hidden rounded-xl bg-gradient-to-b from-sky-50 to-emerald-50 ring-1 ring-slate-200 transition group-hover:ring-brand-dark">
              <ResponsiveImage
                src={tile.image}
                alt=""
                width={128}
                height={128}
                sizes="(min-width: 1024px) 110px, (min-width: 768px) 84px, 21vw"
                loading={i < 10 ? 'eager' : 'lazy'}
                // Low: the banner above is the phone's largest paint; the tiles must not take its bandwidth
                // (docs/decisions/0046-cheap-product-cards.md).
                priority="low"
                className="h-4/5 w-4/5 object-contain transition-transform duration-200 group-hover:scale-110"
              />
            </span>
            <span className="text-xs font-medium leading-tight break-words text-slate-700">{tile.name}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  )
}
