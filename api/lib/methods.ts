/**
 * Methods the site answers. Anything else (TRACE, CONNECT, WebDAV verbs…) is a 405 with `Allow`
 * (RFC 9110 §15.5.6) before any handler runs: the Fetch API's `Request` refuses TRACE and CONNECT,
 * so passing them on would turn a client's odd request into a 500.
 */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

const allowed = new Set<string>(ALLOWED_METHODS)

/** Express middleware: 405 for a method outside {@link ALLOWED_METHODS}. */
export function rejectUnknownMethods(
  req: { method: string },
  res: { status(code: number): { set(name: string, value: string): { type(t: string): { send(body: string): unknown } } } },
  next: () => void,
) {
  if (allowed.has(req.method)) return next()
  res.status(405).set('Allow', ALLOWED_METHODS.join(', ')).type('text/plain').send('Method Not Allowed')
}
