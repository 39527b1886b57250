/**
 * The home page's category image grid (docs/product.md, "Home": 5, 8 or 10 columns by screen size).
 * The listings' sub category sidebar is app/components/subcategory-sidebar.tsx.
 */
import { NavLink } from 'react-router'
import { ResponsiveImage } from './responsive-image.tsx'
import type { CategoryLinkData } from '../lib/catalog-cards.ts'

/**
 * The home grid of category images. Each tile's `href` was chosen by the loader (the first sub
 * category listing that category, else the category's own page).
 */
export function CategoryGrid({ tiles }: { tiles: CategoryLinkData[] }) {
  return (
    <ul className="grid grid-cols-5 gap-2 sm:gap-3 md:grid-cols-8 lg:grid-cols-10">
      {tiles.map((tile, i) => (
        <li key={tile._id}>
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
                sizes="(min-width: 1024px) 110px, (min-width: 768px) 84px, 18vw"
                loading={i < 10 ? 'eager' : 'lazy'}
                // Low: the banner above is the phone's largest paint; the tiles must not take its bandwidth
                // (docs/decisions/0046-cheap-product-cards.md).
                priority="low"
                className="h-4/5 w-4/5 object-contain transition-transform duration-200 group-hover:scale-110"
              />
            </span>
            <span className="line-clamp-2 text-xs font-medium leading-tight text-slate-700">{tile.name}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  )
}
