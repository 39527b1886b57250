/**
 * The site header (docs/product.md, "Header"): sticky, brand yellow; the logo links to /;
 * the search bar (app/components/search-bar.tsx); on the right a Login link (signed out) or the
 * Account dropdown (signed in), and My Cart (count and total; the cart drawer, app/components/cart-panel.tsx). Below 768 px those give way to a user icon
 * that goes to /login when signed out and to /user when signed in, and the search bar takes its own
 * full-width row. On /search with a query string the search bar is left out: the search page shows
 * its own form (docs/product.md, "Search bar"). Beside the logo, the shopper's delivery location
 * (app/components/location-bar.tsx; docs/stores.md, "Location (BFF)").
 */
import { Link, useLocation } from 'react-router'
import type { ShopperLocation } from '../lib/location.ts'
import { usePersonal } from '../lib/personal.ts'
import { AccountMenu } from './account-menu.tsx'
import { CartButton } from './cart-panel.tsx'
import { LocationBar } from './location-bar.tsx'
import { LogoMark, UserIcon } from './icons.tsx'
import { PersonalSlot } from './personal-slot.tsx'
import { SearchBar } from './search-bar.tsx'

/** The shop's name, as the logo and page titles spell it. */
export const SHOP_NAME = 'Grocery'

/** The logo: mark and wordmark (from 1024 px: narrower headers give its room to the location), a link to the home page. */
export function Logo() {
  return (
    <Link to="/" aria-label={`${SHOP_NAME} home`} className="flex min-h-11 shrink-0 items-center gap-2 rounded-lg">
      <LogoMark size={36} />
      <span aria-hidden="true" className="hidden text-2xl leading-none font-black tracking-tight text-slate-900 lg:inline">
        grocery<span className="text-accent">.</span>
      </span>
    </Link>
  )
}

/** Whether the header shows its search bar at `pathname` + `search` (hidden on /search?…). */
export function showsHeaderSearch(pathname: string, search: string): boolean {
  return !(pathname === '/search' && search.length > 1)
}

export function Header({ location }: { location: ShopperLocation | null }) {
  const { pathname, search } = useLocation()
  const withSearch = showsHeaderSearch(pathname, search)
  return (
    <header className="sticky top-0 z-40 bg-brand shadow-sm">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 md:h-20 md:flex-nowrap md:py-0">
        <Logo />

        {/* The delivery location (docs/stores.md, "Location (BFF)"): beside the mark on a phone, a fixed width from 768 px. */}
        {location ? <LocationBar location={location} className="flex-1 md:w-52 md:flex-none lg:w-60" /> : null}

        {withSearch ? (
          // Its own row below 768 px (order-last + full width), in line from md up.
          // `header-search`: app/app.css places the toasts below this row.
          <div className="header-search order-last w-full md:order-none md:flex md:min-w-0 md:flex-1 md:justify-center">
            <SearchBar className="md:max-w-xl" />
          </div>
        ) : null}

        <PersonalSlot slot={{ kind: 'account' }}>
          <HeaderAccount />
        </PersonalSlot>
      </div>
    </header>
  )
}

/**
 * The header's right end: the user icon (phones), Login or the Account menu, and "My Cart". A
 * personal slot (app/lib/personal-slots.ts): the page cache splices in each visitor's own.
 */
export function HeaderAccount() {
  const { user } = usePersonal()
  return (
    <div className="ml-auto flex items-center gap-2">
      {/* Narrow screens: one user icon (docs/product.md, "Header"). */}
      <Link
        to={user ? '/user' : '/login'}
        aria-label={user ? 'Account menu' : 'Login'}
        className="grid size-11 place-items-center rounded-full text-slate-900 hover:bg-black/5 md:hidden"
      >
        <UserIcon size={28} />
      </Link>

      <div className="hidden items-center gap-2 md:flex">
        {user ? (
          <AccountMenu user={user} />
        ) : (
          <Link to="/login" className="flex min-h-11 items-center rounded-lg px-4 text-lg font-semibold text-slate-900 hover:bg-black/5">
            Login
          </Link>
        )}
        <CartButton signedIn={Boolean(user)} />
      </div>
    </div>
  )
}
