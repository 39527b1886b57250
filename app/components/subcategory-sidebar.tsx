/**
 * The sub category sidebar of the listing pages and its page layout (docs/product.md,
 * "Listings": image and name, each a link, the current one highlighted). Apart from the home
 * page's category grid (app/components/category-grid.tsx), so the home page does not load it.
 */
import { NavLink } from 'react-router'
import { ResponsiveImage } from './responsive-image.tsx'
import type { CategoryLinkData } from '../lib/catalog-cards.ts'

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
