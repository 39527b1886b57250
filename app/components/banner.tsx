/**
 * The home banner (docs/product.md, "Home": Banner with separate desktop and mobile images). The
 * artwork is our own SVG in public/banner/: 1400×300 for screens of 768 px and wider, 800×400 below
 * (docs/product.md, "Constants": mobile breakpoint 768 px). <picture> lets the browser fetch only the
 * one it shows, and the width/height of each source keep the box's aspect ratio fixed while it loads.
 */

/** Text of the banner artwork, for screen readers and when images are off. */
export const BANNER_ALT = 'Groceries at your door in 10 minutes: fresh fruits, vegetables, dairy, atta, dal and more.'

/** The banner: full width, rounded, loaded eagerly (it is the first thing on the page). */
export function Banner() {
  return (
    <picture className="block overflow-hidden rounded-2xl bg-amber-100">
      <source media="(min-width: 768px)" srcSet="/banner/banner-desktop.svg" width={1400} height={300} />
      <img src="/banner/banner-mobile.svg" width={800} height={400} alt={BANNER_ALT} fetchPriority="high" className="block h-auto w-full" />
    </picture>
  )
}
