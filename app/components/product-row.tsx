/**
 * One horizontal product row of the home page (docs/product.md, "Home"): the category name as title,
 * a See All link to that category's listing, the product cards, and left/right scroll buttons that
 * move 200 px (docs/product.md, "Constants"), shown on desktop only. The buttons need JavaScript, so
 * they render only after hydration; without JavaScript the row still scrolls natively (touch, trackpad, the
 * visible scrollbar, or keyboard once a card link has focus).
 */
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ChevronLeftIcon, ChevronRightIcon } from './icons.tsx'
import { ProductCard } from './product-card.tsx'
import type { ProductCardData } from '../lib/catalog-cards.ts'

/**
 * How many cards a home row shows (docs/product.md, "Home" and "Constants"): six fill a desktop row
 * (176 px cards), as many as the skeleton shows and within the 6 to 8 of Blinkit's rows; the rest
 * of the category is one "See All" away. Every card is a form of about 1.2 kB, and the home page
 * stays under 150 kB with eleven rows.
 */
export const HOME_ROW_CARDS = 6

/** How far one click of a row's scroll button moves it, in CSS pixels (docs/product.md, "Constants"). */
export const ROW_SCROLL_STEP_PX = 200

/** A home row: `title` (the category name), `seeAllHref` (its listing) and its products. */
export function ProductRow({
  title,
  seeAllHref,
  products,
  headingId,
}: {
  title: string
  seeAllHref: string
  products: ProductCardData[]
  /** Id for the heading, so the row's region is named by it. */
  headingId: string
}) {
  const scroller = useRef<HTMLUListElement>(null)
  const isHydrated = useHydrated()
  const [edges, setEdges] = useState({ atStart: true, atEnd: false })

  // Grey out a button at the end it points to, so a click never does nothing silently.
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const update = () => setEdges({ atStart: el.scrollLeft <= 1, atEnd: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 })
    update()
    el.addEventListener('scroll', update, { passive: true })
    window.addEventListener('resize', update)
    return () => {
      el.removeEventListener('scroll', update)
      window.removeEventListener('resize', update)
    }
  }, [products])

  const scrollBy = (dx: number) => scroller.current?.scrollBy({ left: dx, behavior: 'smooth' })
  const buttonClass =
    'absolute top-1/2 z-10 hidden h-10 w-10 -translate-y-1/2 items-center justify-center rounded-full border border-slate-200 bg-white text-slate-700 shadow-md transition hover:bg-slate-50 disabled:pointer-events-none disabled:opacity-0 md:flex'

  return (
    <section aria-labelledby={headingId} className="py-3">
      <div className="mb-2 flex items-center justify-between gap-4">
        <h2 id={headingId} className="text-lg font-bold text-slate-900 sm:text-xl">
          {title}
        </h2>
        <Link
          to={seeAllHref}
          className="shrink-0 rounded-md px-2 py-1 text-sm font-semibold text-accent hover:bg-emerald-50"
          aria-label={`See all ${title}`}
        >
          See All
        </Link>
      </div>
      <div className="relative">
        {/* scroll-px-1 matches the px-1 padding, so the first card already sits at its snap position:
            without it the browser snaps the row by 4 px at load, and that scroll ends Chrome's Largest
            Contentful Paint before it reports any (web.dev, "Largest Contentful Paint"). */}
        <ul
          ref={scroller}
          className="-mx-1 flex snap-x snap-mandatory scroll-px-1 gap-3 overflow-x-auto scroll-smooth px-1 pb-3 [scrollbar-width:thin] md:snap-none"
        >
          {products.map((product) => (
            <li key={product._id} className="w-36 shrink-0 snap-start sm:w-44">
              <ProductCard product={product} layout="row" />
            </li>
          ))}
        </ul>
        {isHydrated ? (
          <>
            <button
              type="button"
              className={`${buttonClass} -left-3`}
              onClick={() => scrollBy(-ROW_SCROLL_STEP_PX)}
              disabled={edges.atStart}
              aria-label={`Scroll ${title} left`}
            >
              <ChevronLeftIcon size={20} />
            </button>
            <button
              type="button"
              className={`${buttonClass} -right-3`}
              onClick={() => scrollBy(ROW_SCROLL_STEP_PX)}
              disabled={edges.atEnd}
              aria-label={`Scroll ${title} right`}
            >
              <ChevronRightIcon size={20} />
            </button>
          </>
        ) : null}
      </div>
    </section>
  )
}
