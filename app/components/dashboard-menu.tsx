/**
 * The dashboard's side menu (docs/product.md, "Dashboard": a 250 px column on desktop;
 * docs/product.md, "Constants": side menu column 250 px, mobile breakpoint 768 px). It holds the
 * account menu's own list (app/components/account-menu.tsx `AccountMenuItems`: My Profile, the
 * admin-only Category, Sub Category, Upload Product and Product, then My Order, Save Address and the
 * Log Out form), so the header dropdown, the mobile /user page and this menu can never disagree.
 *
 * Below 768 px it is not shown: the header's user icon leads to /user instead (docs/product.md, "Header").
 * It sticks below the sticky header (80 px tall from `md` up) while the content scrolls.
 */
import { AccountMenuItems, type MenuUser } from './account-menu.tsx'
import { cn } from './ui/cn.ts'

/** The sticky 250 px side menu for `user` (admin links only for role ADMIN); hidden below 768 px. */
export function DashboardMenu({ user, className }: { user: MenuUser; className?: string }) {
  return (
    <aside
      className={cn(
        'hidden md:sticky md:top-24 md:block md:max-h-[calc(100vh-7rem)] md:self-start md:overflow-y-auto',
        'rounded-lg bg-white p-2 shadow-sm ring-1 ring-slate-200',
        className,
      )}
      data-testid="dashboard-menu"
      data-card="dashboard menu"
    >
      <AccountMenuItems user={user} />
    </aside>
  )
}
