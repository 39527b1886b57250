/**
 * The `Prefer: return=minimal` request preference (RFC 7240 section 4.2, "Prefer Header for HTTP"):
 * a client that needs only the outcome of a write asks the server not to build the written
 * resource into the answer. The BFF sends it on cart writes, whose answer it reduces to a message
 * (docs/commerce-api.md, "Cart"); other clients, the original single-page client among them, send
 * nothing and get the whole answer as before.
 */
import type { Context } from 'hono'

/**
 * True when the request's `Prefer` header asks for `return=minimal` (preference names and the
 * `return` value are case-insensitive tokens; several preferences may share one header, separated
 * by commas, each with optional `;` parameters, RFC 7240 section 2). When true, the answer should
 * say so with `Preference-Applied: return=minimal` (`applyMinimal`).
 */
export function prefersMinimal(c: Context): boolean {
  const header = c.req.header('prefer')
  if (!header) return false
  return header.split(',').some((preference) => {
    const [token = ''] = preference.split(';')
    const [name = '', value = ''] = token.split('=')
    return name.trim().toLowerCase() === 'return' && value.trim().replace(/^"|"$/g, '').toLowerCase() === 'minimal'
  })
}

/** Marks the answer as minimal (RFC 7240 section 3, `Preference-Applied`). */
export function applyMinimal(c: Context): void {
  c.header('Preference-Applied', 'return=minimal')
}
