/**
 * Category navigation: the home page's category image grid (docs/product.md, "Home": 5, 8 or 10
 * columns by screen size) and the sub category sidebar of the listing pages (docs/product.md,
 * "Listings": image and name, each a link, the current one highlighted).
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

/**
 * The sub category sidebar: a narrow column of image-over-name links on phones, image-beside-name
 * rows from 768 px. `items` are already filtered to the current category (docs/product.md, "States
 * and transitions"); the entry whose link matches the current URL is highlighted (and the one being
 * opened, while it loads). `all`, when given, is an extra first entry for the whole category (the
 * category page).
 */
export function SubCategorySidebar({ items, all }: { items: CategoryLinkData[]; all?: CategoryLinkData }) {
  const entries = all ? [all, ...items] : items
  return (
    <nav aria-label="Sub categories" className="h-full">
      <ul className="flex flex-col">
        {entries.map((item) => (
          <li key={item._id}>
            <NavLink
              to={item.href}
              end
              preventScrollReset
              className={({ isActive, isPending }) =>
                `flex flex-col items-center gap-1 border-l-4 px-1 py-2 text-center transition md:flex-row md:gap-3 md:px-3 md:text-left ${
                  isActive
                    ? 'border-brand-dark bg-amber-50 font-semibold text-slate-900'
                    : isPending
                      ? 'border-brand/60 bg-amber-50/60 text-slate-800'
                      : 'border-transparent text-slate-600 hover:bg-slate-50'
                }`
              }
            >
              {({ isActive }) => (
                <>
                  <span
                    className={`flex h-12 w-12 shrink-0 items-center justify-center overflow-hidden rounded-lg md:h-10 md:w-10 ${
                      isActive ? 'bg-white' : 'bg-slate-100'
                    }`}
                  >
                    <ResponsiveImage src={item.image} alt="" width={64} height={64} sizes="48px" className="h-4/5 w-4/5 object-contain" />
                  </span>
                  <span className="line-clamp-2 text-xs leading-tight md:text-sm">{item.name}</span>
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * The two-column frame of the category and listing pages: the sub category sidebar on the left (a
 * narrow column on phones, 240 px from 768 px, sticky under the header) and the page on the right.
 */
export function SidebarLayout({ sidebar, children }: { sidebar: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="mx-auto flex max-w-7xl items-start md:gap-5 md:px-4 md:py-4">
      <aside className="w-20 shrink-0 self-stretch border-r border-slate-200 bg-white md:sticky md:top-24 md:max-h-[calc(100dvh-7rem)] md:w-60 md:self-start md:overflow-y-auto md:rounded-xl md:border md:py-1">
        {sidebar}
      </aside>
      <div className="min-w-0 flex-1 px-3 py-3 md:p-0">{children}</div>
    </div>
  )
}
