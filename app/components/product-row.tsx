/**
 * One horizontal product row of the home page (docs/product.md, "Home"): the category name as title,
 * a See All link to that category's listing, the product cards, and left/right scroll buttons that
 * move 200 px (docs/product.md, "Constants"), shown on desktop only. The buttons need JavaScript, so
 * they render only after hydration; without JavaScript the row still scrolls natively (touch, trackpad, the
 * visible scrollbar, or keyboard once a card link has focus) through the cards the server rendered,
 * and See All leads to the rest.
 *
 * A home row holds at least 12 products (docs/product.md, "Home"), but the document carries only the
 * first HOME_ROW_CARDS of each (the 150 kB home budget): with `moreHref` (the resource route
 * app/routes/home-row/$categoryId.ts) the row fetches the rest once, when it is scrolled within
 * MORE_WHEN_WITHIN_PX of its end or its right button is pressed (then it also moves). The cards stay
 * lazy (app/components/product-card.tsx): the row adds one fetcher, not one per card.
 */
import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ChevronLeftIcon, ChevronRightIcon } from './icons.tsx'
import { ProductCard } from './product-card.tsx'
import { toCardData, type CardSource, type ProductCardData } from '../lib/catalog-cards.ts'

/**
 * How many cards a home row's document carries (docs/product.md, "Home" and "Constants"): six fill a
 * desktop row (176 px cards), as many as the skeleton shows. Every card is a form of about 1.2 kB,
 * and the home page stays under 150 kB with eleven rows; the rest of a row (up to the API's 15 per
 * category) comes from `moreHref` when the row is scrolled.
 */
export const HOME_ROW_CARDS = 6

/** How far one click of a row's scroll button moves it, in CSS pixels (docs/product.md, "Constants"). */
export const ROW_SCROLL_STEP_PX = 200

/** A row fetches its rest when scrolled within this many CSS pixels of its end (about two cards). */
export const MORE_WHEN_WITHIN_PX = 400

/**
 * A home row's cards `start`..`end` (end exclusive; all from `start` without it) of a category's
 * products, one card per pack group without the size picker: 66 pickers took the document from
 * under 150 kB to 177 kB (docs/product.md, "Pack sizes"); the card's page lists the sizes.
 */
export function homeRowCards(products: CardSource[], start: number, end?: number): ProductCardData[] {
  return products.slice(start, end).map(({ packSizes: _sizes, ...product }) => toCardData(product))
}

/**
 * A home row: `title` (the category name), `seeAllHref` (its listing; no See All without it), its products, and with
 * `moreHref` where the rest of the row comes from (`{ products }`, fetched once when needed).
 */
export function ProductRow({
  title,
  seeAllHref,
  products,
  headingId,
  moreHref,
}: {
  title: string
  seeAllHref?: string
  products: ProductCardData[]
  /** Id for the heading, so the row's region is named by it. */
  headingId: string
  moreHref?: string
}) {
  const scroller = useRef<HTMLUListElement>(null)
  const isHydrated = useHydrated()
  const [edges, setEdges] = useState({ atStart: true, atEnd: false })
  const more = useFetcher<{ products: ProductCardData[] }>()
  // Asked once: `more.state` is idle both before the call and after the answer.
  const asked = useRef(false)
  // A right-button press that had to fetch first moves the row once the new cards are in.
  const moveWhenLoaded = useRef(false)
  // The rest, less any card the document already holds (the order may have moved in between).
  const extra = (more.data?.products ?? []).filter((card) => !products.some((shown) => shown._id === card._id))
  const hasMore = Boolean(moreHref) && !more.data
  const loadMore = () => {
    if (!moreHref || asked.current) return
    asked.current = true
    void more.load(moreHref)
  }
  const load = more.load

  // Grey out a button at the end it points to, so a click never does nothing silently; scrolled near
  // the end, fetch the rest of the row.
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const update = () => {
      const fromEnd = el.scrollWidth - (el.scrollLeft + el.clientWidth)
      setEdges({ atStart: el.scrollLeft <= 1, atEnd: fromEnd <= 1 })
      if (moreHref && !asked.current && el.scrollLeft > 0 && fromEnd <= MORE_WHEN_WITHIN_PX) {
        asked.current = true
        void load(moreHref)
      }
    }
    update()
    el.addEventListener('scroll', update, { passive: true })
    window.addEventListener('resize', update)
    return () => {
      el.removeEventListener('scroll', update)
      window.removeEventListener('resize', update)
    }
  }, [products, extra.length, moreHref, load])

  const scrollBy = (dx: number) => scroller.current?.scrollBy({ left: dx, behavior: 'smooth' })
  useEffect(() => {
    if (extra.length === 0 || !moveWhenLoaded.current) return
    moveWhenLoaded.current = false
    scroller.current?.scrollBy({ left: ROW_SCROLL_STEP_PX, behavior: 'smooth' })
  }, [extra.length])
  const moveRight = () => {
    const el = scroller.current
    if (hasMore && el && el.scrollWidth - (el.scrollLeft + el.clientWidth) < ROW_SCROLL_STEP_PX) {
      // Not a whole step left to move: fetch the rest first, then move (the effect above).
      moveWhenLoaded.current = true
      loadMore()
      return
    }
    scrollBy(ROW_SCROLL_STEP_PX)
  }
  const buttonClass =
    'absolute top-1/2 z-10 hidden h-10 w-10 -translate-y-1/2 items-center justify-center rounded-full border border-slate-200 bg-white text-slate-700 shadow-md transition hover:bg-slate-50 disabled:pointer-events-none disabled:opacity-0 md:flex'

  return (
    <section aria-labelledby={headingId} className="py-3">
      <div className="mb-2 flex items-center justify-between gap-4">
        <h2 id={headingId} className="text-lg font-bold text-slate-900 sm:text-xl">
          {title}
        </h2>
        {seeAllHref ? (
          <Link
            to={seeAllHref}
            className="shrink-0 rounded-md px-2 py-1 text-sm font-semibold text-accent hover:bg-emerald-50"
            aria-label={`See all ${title}`}
          >
            See All
          </Link>
        ) : null}
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
          {extra.map((product) => (
            <li key={product._id} data-row-more="" className="w-36 shrink-0 snap-start sm:w-44">
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
              onClick={moveRight}
              disabled={edges.atEnd && !hasMore}
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
