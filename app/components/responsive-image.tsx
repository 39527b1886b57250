/**
 * An <img> that never shifts the layout and lets the browser pick a width (docs/product.md, "Look and
 * feel": no layout shift while images load, width and height on every image). Stored catalogue images
 * come in several widths beside the original (`<hash>.webp`, `<hash>-w128.webp`, ...;
 * contract/images.ts builds the srcset). A product without an image gets a neutral placeholder of the
 * same size.
 */
import { srcSetFor } from '../../contract/images.ts'

/**
 * Props: `src` (a stored image url; '' shows the placeholder), `alt`, the intrinsic `width` and
 * `height` in CSS pixels (for the aspect ratio), `sizes` (the rendered width, for srcset), `loading`
 * (lazy by default; eager for images above the fold), `priority` (true: a high fetch priority, for
 * the one image that is the page's largest paint; 'low': a low one, for eager images that must not
 * compete with it, which React then does not preload in the head either) and `widths` (the only srcset widths to offer, for an
 * image whose rendered size is known: contract/images.ts `srcSetFor`).
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  sizes,
  loading = 'lazy',
  priority = false,
  className = '',
  widths,
}: {
  src: string
  alt: string
  width: number
  height: number
  sizes?: string
  loading?: 'lazy' | 'eager'
  priority?: boolean | 'low'
  className?: string
  widths?: readonly number[]
}) {
  if (!src) {
    return (
      <span
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        className={`flex items-center justify-center text-slate-300 ${className}`}
        style={{ aspectRatio: `${width} / ${height}` }}
      >
        <svg viewBox="0 0 24 24" width="40%" height="40%" fill="none" stroke="currentColor" strokeWidth={1.5} aria-hidden="true">
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="m21 17-5-5-9 8" />
        </svg>
      </span>
    )
  }
  const srcSet = srcSetFor(src, undefined, widths)
  return (
    <img
      src={src}
      srcSet={srcSet || undefined}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      decoding="async"
      fetchPriority={priority === 'low' ? 'low' : priority ? 'high' : undefined}
      className={className}
    />
  )
}
