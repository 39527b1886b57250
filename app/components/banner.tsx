/**
 * The home banner (docs/product.md, "Home": Banner with separate desktop and mobile images). The
 * artwork is our own SVG in public/banner/: 1400×300 for screens of 768 px and wider, 800×400 below
 * (docs/product.md, "Constants": mobile breakpoint 768 px). <picture> lets the browser fetch only the
 * one it shows, and the width/height of each source keep the box's aspect ratio fixed while it loads.
 *
 * The banner is the home page's Largest Contentful Paint on a phone
 * (docs/decisions/0046-cheap-product-cards.md). React preloads the first eager images of a page in
 * the document's head, but never one inside <picture> (its source is chosen by media), so the
 * banner's request used to wait for the parser behind ten category-tile preloads. `preload` (React
 * DOM, "preload": `as: 'image'` with `fetchPriority: 'high'` goes to the head's first links) asks for
 * the one the screen shows, picked by the same media queries as the <source>.
 */
import { preload } from 'react-dom'

/** Text of the banner artwork, for screen readers and when images are off. */
export const BANNER_ALT = 'Groceries at your door in minutes: fresh fruits, vegetables, dairy, atta, dal and more.'

/** The artwork's URLs (public/banner/) and the width from which the desktop one shows (CSS px). */
const BANNER_MOBILE = '/banner/banner-mobile.svg'
const BANNER_DESKTOP = '/banner/banner-desktop.svg'
const DESKTOP_MIN_PX = 768

/** The banner: full width, rounded, loaded eagerly (it is the first thing on the page). */
export function Banner() {
  preload(BANNER_MOBILE, { as: 'image', fetchPriority: 'high', media: `(max-width: ${DESKTOP_MIN_PX - 1}px)` })
  preload(BANNER_DESKTOP, { as: 'image', fetchPriority: 'high', media: `(min-width: ${DESKTOP_MIN_PX}px)` })
  return (
    <picture className="block overflow-hidden rounded-2xl bg-amber-100">
      <source media={`(min-width: ${DESKTOP_MIN_PX}px)`} srcSet={BANNER_DESKTOP} width={1400} height={300} />
      <img src={BANNER_MOBILE} width={800} height={400} alt={BANNER_ALT} fetchPriority="high" className="block h-auto w-full" />
    </picture>
  )
}
