/**
 * A user's round avatar (docs/product.md, "Profile"): the stored image when there is one, else the
 * first letter of the name on the brand colour. Stored avatars are square WebP files with narrower
 * variants beside them (contract/images.ts); the smallest variant that covers twice the box is used,
 * so a 40 px header avatar loads the 128 px file, not the full image. `width`/`height` are set so
 * nothing moves while it loads (docs/product.md, "Look and feel"). If the image fails to load, the
 * letter shows instead.
 *
 * Inputs: `src` (url or ''), `name` (for the letter and the alt text), `size` in CSS pixels.
 */
import { useState } from 'react'
import { IMAGE_VARIANT_WIDTHS, isStoredImageUrl, variantUrl } from '../../contract/images.ts'
import { cn } from './ui/cn.ts'

/** The letter shown without an image: the name's first letter, upper-cased; "?" for an empty name. */
export function avatarInitial(name: string | null | undefined): string {
  const first = Array.from(name?.trim() ?? '')[0]
  return first ? first.toLocaleUpperCase('en-IN') : '?'
}

/** The url to load for a `size`-pixel box: a stored image's smallest variant of at least 2×size. */
export function avatarSrc(src: string, size: number): string {
  if (!isStoredImageUrl(src)) return src
  const width = IMAGE_VARIANT_WIDTHS.find((candidate) => candidate >= size * 2)
  return width ? variantUrl(src, width) : src
}

/** The avatar image, or the initial letter when there is no image or it fails to load. */
export function Avatar({ src, name, size = 40, className }: { src?: string | null; name: string; size?: number; className?: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null)
  const box = cn('inline-flex shrink-0 overflow-hidden rounded-full ring-1 ring-black/10', className)
  if (src && failedSrc !== src) {
    return (
      <img
        src={avatarSrc(src, size)}
        alt={name ? `${name}'s avatar` : 'Avatar'}
        width={size}
        height={size}
        decoding="async"
        onError={() => setFailedSrc(src)}
        className={cn(box, 'bg-slate-100 object-cover')}
        style={{ width: size, height: size }}
      />
    )
  }
  return (
    <span
      role="img"
      aria-label={name ? `${name}'s avatar` : 'Avatar'}
      className={cn(box, 'items-center justify-center bg-brand font-bold text-slate-900 select-none')}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.45) }}
    >
      {avatarInitial(name)}
    </span>
  )
}
