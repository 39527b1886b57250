/**
 * The signed-in shopper's menu (docs/product.md, "Account menu"; the admin-only links:
 * docs/product.md, "Roles and permissions"):
 * the name (or mobile) with " (Admin)" for admins and " (Staff)" for staff, My Profile, then Category,
 * Sub Category, Upload Product, Product, Orders, Stores (docs/stores.md, "Admin") and Audit for admins,
 * Orders and Stock for staff, then My Order, Save Address and Log Out for everyone.
 *
 * `AccountMenu` is the header's desktop dropdown: a native <details>, so it opens without JavaScript;
 * with JavaScript it also closes on an outside click, on Escape and after navigating.
 * `AccountMenuItems` is the list itself, for the mobile /user page too.
 */
import { useEffect, useRef } from 'react'
import { Form, NavLink, useLocation } from 'react-router'
import type { SessionUser } from '../.server/session.ts'
import { ChevronDownIcon } from './icons.tsx'
import { cn } from './ui/cn.ts'
import { Avatar } from './avatar.tsx'

/** The user fields the menu shows. */
export type MenuUser = Pick<SessionUser, 'name' | 'mobile' | 'email' | 'role'> & { avatar?: string | null }

/**
 * The menu's heading line: the name, else the mobile, else the email (docs/product.md, "Account
 * menu"); " (Admin)" for ADMIN, " (Staff)" for STAFF, " (Rider)" for RIDER.
 */
export function accountLabel(user: MenuUser): string {
  const name = user.name?.trim() || user.mobile?.trim() || user.email
  if (user.role === 'RIDER') return `${name} (Rider)`
  return user.role === 'ADMIN' ? `${name} (Admin)` : user.role === 'STAFF' ? `${name} (Staff)` : name
}

/** Who sees a link: every signed-in user, ADMIN only, STAFF only, both, or RIDER only (docs/product.md, "Roles and permissions"). */
type LinkAudience = 'everyone' | 'admin' | 'staff' | 'admin+staff' | 'rider'

/** The menu's links in the order of docs/product.md, "Account menu", each with who sees it. */
export const ACCOUNT_LINKS: ReadonlyArray<{ to: string; label: string; audience: LinkAudience }> = [
  // The rider's own page (docs/delivery.md, "The rider's pages").
  { to: '/rider', label: 'Deliveries', audience: 'rider' },
  { to: '/dashboard/category', label: 'Category', audience: 'admin' },
  { to: '/dashboard/subcategory', label: 'Sub Category', audience: 'admin' },
  { to: '/dashboard/upload-product', label: 'Upload Product', audience: 'admin' },
  { to: '/dashboard/product', label: 'Product', audience: 'admin' },
  { to: '/dashboard/orders', label: 'Orders', audience: 'admin+staff' },
  { to: '/dashboard/dispatch', label: 'Dispatch', audience: 'admin+staff' },
  // Help after delivery: problem reports waiting for a decision (docs/help-after-delivery.md).
  { to: '/dashboard/issues', label: 'Issues', audience: 'admin+staff' },
  { to: '/dashboard/stores', label: 'Stores', audience: 'admin' },
  // Staff reach the stores' stock from the same list, read-only but for the stock.
  { to: '/dashboard/stores', label: 'Stock', audience: 'staff' },
  { to: '/dashboard/staff', label: 'Staff', audience: 'admin' },
  { to: '/dashboard/coupons', label: 'Coupons', audience: 'admin' },
  { to: '/dashboard/audit', label: 'Audit', audience: 'admin' },
  { to: '/dashboard/myorder', label: 'My Order', audience: 'everyone' },
  { to: '/dashboard/address', label: 'Save Address', audience: 'everyone' },
]

/** The links `role` sees, in menu order. */
export function accountLinksFor(role: string | null | undefined): typeof ACCOUNT_LINKS {
  return ACCOUNT_LINKS.filter(
    ({ audience }) =>
      audience === 'everyone' ||
      (audience === 'admin' && role === 'ADMIN') ||
      (audience === 'staff' && role === 'STAFF') ||
      (audience === 'rider' && role === 'RIDER') ||
      (audience === 'admin+staff' && (role === 'ADMIN' || role === 'STAFF')),
  )
}

const ITEM = 'flex min-h-10 w-full items-center rounded-md px-3 text-left text-sm text-slate-800 hover:bg-slate-100'
const itemClass = ({ isActive }: { isActive: boolean }) => cn(ITEM, isActive && 'bg-brand-light font-semibold')

/** The menu content: heading, profile link, the listed links and the Log Out button (POST /logout). */
export function AccountMenuItems({ user, className }: { user: MenuUser; className?: string }) {
  return (
    <div className={cn('text-sm', className)}>
      <div className="px-3 pt-1 pb-2">
        <p className="font-semibold text-slate-900">My Account</p>
        <p className="truncate text-slate-600" data-testid="account-name">
          {accountLabel(user)}
        </p>
      </div>
      <nav aria-label="Account">
        <ul className="grid gap-0.5">
          <li className="border-b border-slate-200 pb-1">
            <NavLink to="/dashboard/profile" className={itemClass}>
              My Profile
            </NavLink>
          </li>
          {accountLinksFor(user.role).map((link) => (
            <li key={`${link.to} ${link.label}`}>
              <NavLink to={link.to} className={itemClass}>
                {link.label}
              </NavLink>
            </li>
          ))}
          <li>
            {/* A POST, not a link: logging out changes state (OWASP CSRF cheat sheet; SameSite=Lax cookie). */}
            <Form method="post" action="/logout">
              <button type="submit" className={cn(ITEM, 'text-red-700')}>
                Log Out
              </button>
            </Form>
          </li>
        </ul>
      </nav>
    </div>
  )
}

/** The header's "Account" dropdown. */
export function AccountMenu({ user }: { user: MenuUser }) {
  const detailsRef = useRef<HTMLDetailsElement>(null)
  const location = useLocation()

  // The header stays mounted across client navigations: close the menu once a link was followed.
  useEffect(() => {
    if (detailsRef.current) detailsRef.current.open = false
  }, [location.key])

  useEffect(() => {
    const details = detailsRef.current
    if (!details) return
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && details.open) {
        details.open = false
        details.querySelector('summary')?.focus()
      }
    }
    // Tabbing past the last item (or Shift+Tab before the summary) leaves the menu: close it, so an
    // open menu never covers what keyboard focus moved on to (WCAG 2.4.11 "Focus Not Obscured").
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null
      if (details.open && next && !details.contains(next)) details.open = false
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    details.addEventListener('focusout', onFocusOut)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
      details.removeEventListener('focusout', onFocusOut)
    }
  }, [])

  return (
    <details ref={detailsRef} className="group relative">
      <summary className="no-marker flex min-h-11 items-center gap-1 rounded-lg px-3 font-semibold text-slate-900 select-none hover:bg-black/5">
        <span aria-hidden="true">
          <Avatar src={user.avatar} name={user.name} size={28} />
        </span>
        Account
        <ChevronDownIcon size={18} className="transition-transform group-open:rotate-180" />
      </summary>
      <div className="absolute right-0 z-50 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <AccountMenuItems user={user} />
      </div>
    </details>
  )
}
