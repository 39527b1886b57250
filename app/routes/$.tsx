/**
 * Any path no other route matches: the 404 page, answered with HTTP status 404 (so crawlers and
 * monitors see it as missing), inside the normal layout.
 */
import { data } from 'react-router'
import type { Route } from './+types/$'
import { NotFoundPage } from '../components/error-boundary.tsx'

export function loader() {
  return data(null, { status: 404 })
}

// A non-GET to an unknown path must also get the 404 page, not a 405.
export function action() {
  return data(null, { status: 404 })
}

export const meta: Route.MetaFunction = () => [{ title: 'Page not found | Grocery' }, { name: 'robots', content: 'noindex' }]

export default function NotFound() {
  return <NotFoundPage />
}
