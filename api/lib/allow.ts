/**
 * Which methods a path answers, derived from the routes mounted on the app (never a second list to
 * keep in step): a request for a path that exists, with a method it does not answer, is a 405 with
 * `Allow` (RFC 9110 §15.5.6), not a 404; `OPTIONS` on it is a 204 with `Allow` (RFC 9110 §9.3.7).
 */

/** A mounted route as Hono lists it in `app.routes` (`ALL` for middleware). */
export interface MountedRoute {
  method: string
  path: string
}

/** The order methods are named in an `Allow` header. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** A Hono route path (`/api/x/:id`, `:id{[0-9]+}`, `:id?`, `*`) as an anchored regular expression. */
export function pathPattern(path: string): RegExp {
  let source = ''
  for (const part of path.split(/(:\w+(?:\{[^}]*\})?\??|\*)/)) {
    if (part === '*') source += '.*'
    else if (part.startsWith(':')) {
      const custom = /\{([^}]*)\}/.exec(part)?.[1]
      const segment = `(?:${custom ?? '[^/]+'})`
      source += part.endsWith('?') ? `${segment}?` : segment
    } else source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/**
 * A function giving the `Allow` methods of a path: the methods of every route whose path matches,
 * with HEAD beside GET (Hono answers HEAD with the GET handler) and OPTIONS; an empty list when no
 * route matches (a 404). `routes` is read at the first call, so pass a getter of a finished app.
 */
export function allowedMethods(routes: () => readonly MountedRoute[]): (path: string) => string[] {
  let compiled: { pattern: RegExp; method: string }[] | null = null
  return (path) => {
    compiled ??= routes()
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ pattern: pathPattern(r.path), method: r.method.toUpperCase() }))
    const methods = new Set(compiled.filter((r) => r.pattern.test(path)).map((r) => r.method))
    if (methods.size === 0) return []
    if (methods.has('GET')) methods.add('HEAD')
    methods.add('OPTIONS')
    return ORDER.filter((m) => methods.has(m))
  }
}
