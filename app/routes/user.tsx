/**
 * /user (docs/product.md, "Account menu": the mobile account menu page with a close button that goes
 * back; the header's user icon leads here below 768 px when signed in). It shows the account menu:
 * the name (or mobile) with " (Admin)" for admins, My Profile, the admin-only links, My Order, Save
 * Address and Log Out (app/components/account-menu.tsx).
 *
 * The close button is a link to / so it works without JavaScript; with JavaScript it goes back in
 * history instead, when there is an in-app page to go back to.
 */
import { useNavigate } from 'react-router'
import type { Route } from './+types/user'
import { requireUser } from '../.server/auth.ts'
import { AccountMenuItems } from '../components/account-menu.tsx'
import { Avatar } from '../components/avatar.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { CloseIcon } from '../components/icons.tsx'

export const meta: Route.MetaFunction = () => [
  { title: `My Account | ${SHOP_NAME}` },
  { name: 'description', content: 'Your account: profile, orders and saved addresses.' },
  { name: 'robots', content: 'noindex' },
]

export function loader({ context, url }: Route.LoaderArgs) {
  // `url`, not request.url: on a client navigation the raw request names the `.data` endpoint.
  const user = requireUser(context, url)
  return { user }
}

/** True when the previous history entry is a page of this app (React Router numbers its entries). */
function hasInAppHistory(): boolean {
  const state: unknown = window.history.state
  return typeof state === 'object' && state !== null && 'idx' in state && typeof state.idx === 'number' && state.idx > 0
}

export default function UserMenuPage({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate()
  const { user } = loaderData
  return (
    <div className="mx-auto w-full max-w-md px-4 py-4">
      <h1 className="sr-only">My Account</h1>
      <div className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200">
        <div className="flex items-start justify-between gap-2">
          <Avatar src={user.avatar} name={user.name} size={48} className="mt-1 ml-3" />
          <a
            href="/"
            aria-label="Close"
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
              event.preventDefault()
              if (hasInAppHistory()) navigate(-1)
              else navigate('/')
            }}
            className="grid size-11 place-items-center rounded-full text-slate-700 hover:bg-slate-100"
          >
            <CloseIcon size={24} />
          </a>
        </div>
        <AccountMenuItems user={user} className="mt-2" />
      </div>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
