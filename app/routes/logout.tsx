/**
 * /logout (docs/product.md, "States and transitions": log out is a server call, then the user state
 * is cleared, a success message shows and the page goes to /).
 * A POST only: the API revokes the refresh token, the cookie session is cleared whatever the API
 * answered, and a success toast goes with the redirect to `/`. A GET changes nothing and goes to `/`
 * (a link or a prefetch must not sign anyone out). Cross-site posts are refused by the root
 * middleware (app/.server/csrf.ts), besides the session cookie's SameSite=Lax.
 */
import { Form, redirect } from 'react-router'
import type { Route } from './+types/logout'
import * as userApi from '../.server/api/user.ts'
import { getSession } from '../.server/context.ts'
import { readForm } from '../.server/form.ts'
import { redirectWithToast } from '../.server/toast.ts'
import { SubmitButton } from '../components/forms.tsx'
import { GeneralErrorBoundary } from '../components/error-boundary.tsx'
import { SHOP_NAME } from '../components/header.tsx'
import { apiOf } from '../.server/api-context.ts'

export const meta: Route.MetaFunction = () => [
  { title: `Log Out | ${SHOP_NAME}` },
  { name: 'description', content: 'Sign out of your account.' },
  { name: 'robots', content: 'noindex' },
]

export function loader() {
  throw redirect('/')
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = apiOf(context)
  // The body carries nothing, but it passes the same guard as every form (app/.server/form.ts).
  await readForm(request)
  const session = getSession(context)
  if (!session.tokens) {
    session.signOut()
    return redirect('/')
  }
  let message = 'Logout successfully'
  try {
    const result = await userApi.logout(api, session)
    if (result.ok && result.message) message = result.message
  } catch {
    // The API is unreachable: the shopper is still signed out here; the refresh token simply expires.
  }
  session.signOut()
  return redirectWithToast(session, '/', { type: 'success', message })
}

/** Never shown in practice (the loader redirects); a plain form in case a page renders it directly. */
export default function Logout() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <Form method="post" action="/logout">
        <SubmitButton>Log Out</SubmitButton>
      </Form>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
