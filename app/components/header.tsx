import { Link } from 'react-router'
import type { SessionUser } from '../.server/session.ts'
export function Header({ user }: { user: SessionUser | null }) {
  return <header className="bg-white p-4"><Link to="/">Grocery</Link> {user ? user.name : <Link to="/login">Login</Link>}</header>
}
