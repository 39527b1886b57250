/**
 * "‹ Previous · Page N of M · Next ›" of the admin lists (orders, audit trail): plain links, so paging
 * works without JavaScript and a page can be shared. Nothing when there is one page or none.
 */
import { Link } from 'react-router'

/** The page links; `href(n)` is the address of page n (the list's filters kept). */
export function PageLinks({ page, totalPages, href }: { page: number; totalPages: number; href: (page: number) => string }) {
  if (totalPages <= 1) return null
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
      {page > 1 ? (
        <Link to={href(page - 1)} className="font-semibold text-accent hover:underline">
          ‹ Previous
        </Link>
      ) : (
        <span />
      )}
      <span>
        Page {page} of {totalPages}
      </span>
      {page < totalPages ? (
        <Link to={href(page + 1)} className="font-semibold text-accent hover:underline">
          Next ›
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
