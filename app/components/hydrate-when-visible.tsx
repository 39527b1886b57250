/**
 * Server-rendered content that the browser hydrates only when it comes near the screen
 * (docs/decisions/0018-page-cache.md, "The home page on a phone"). The home page holds eleven rows of
 * fifteen cards; hydrating all of them at once is one long task on a phone, though only the first
 * row or two are in view.
 *
 * On the server, and on client-side navigations, the children render as usual. While the page
 * hydrates, the box keeps the server's HTML untouched (an element with `dangerouslySetInnerHTML`
 * is not hydrated into: React leaves its children alone) and watches the viewport; within `margin`
 * of it, it renders the children, which replace the same markup, so nothing moves. Until then the
 * server's HTML works as it does without JavaScript: links are links, ADD is a form post.
 */
import { useEffect, useRef, useState } from 'react'

// True from the start in the browser until the first commit (`markHydrated`, called by the root):
// a box made during that time is one being hydrated.
let hydrating = typeof document !== 'undefined'

/**
 * Called once by the root after hydration (its first commit, every part of the page hydrated or, after
 * a mismatch, rendered again): boxes made from now on render their children at once, and `<html>`
 * gets `data-hydrated`, the page's one "JavaScript has taken over" mark (the browser tests wait for it
 * before they type or click: an element can carry React's props before its root has committed).
 */
export function markHydrated(): void {
  hydrating = false
  document.documentElement.setAttribute('data-hydrated', '')
}

/** `children` hydrated when within `margin` (a CSS length, as IntersectionObserver's rootMargin) of the viewport. */
export function HydrateWhenVisible({
  children,
  margin = '200px',
  className,
}: {
  children: React.ReactNode
  margin?: string
  className?: string
}) {
  const [deferred, setDeferred] = useState(() => hydrating && typeof IntersectionObserver !== 'undefined')
  const boxRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const box = boxRef.current
    if (!deferred || !box) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setDeferred(false)
      },
      { rootMargin: margin },
    )
    observer.observe(box)
    return () => observer.disconnect()
  }, [deferred, margin])

  if (deferred) return <div ref={boxRef} className={className} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: '' }} />
  return <div className={className}>{children}</div>
}
