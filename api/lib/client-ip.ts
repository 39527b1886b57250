/**
 * The shopper's address, decided in one place for the API and the BFF (OWASP: never trust a
 * client-written header for rate limits).
 *
 * server.ts computes it once per request with Express's `req.ip`, configured by `TRUST_PROXY`
 * (`parseTrustProxy`): the number of proxies in front of the app, or their addresses. Express then
 * walks `X-Forwarded-For` from the right, past the trusted hops only (Express "behind proxies";
 * proxy-addr), so an entry the client wrote on the left is never taken. The result overwrites
 * `X-Client-Ip` on the request (`clientIpMiddleware`), which the in-process BFF and the API read.
 *
 * A separately deployed BFF (`API_URL`) forwards the shopper's address in `X-Client-Ip` together with
 * the shared secret `API_INTERNAL_TOKEN` in `X-Internal-Token`; the API keeps a forwarded address
 * only when that secret matches, else it uses the connecting address as for anyone else.
 */
import { timingSafeEqual } from 'node:crypto'
import { isIPv4, isIPv6 } from 'node:net'
import type { Context } from 'hono'

/** Longest accepted value: an IPv6 address with a zone fits; anything longer is not an address. */
const MAX_LENGTH = 64

/** Returns the client address from `X-Client-Ip`, or 'unknown' when absent, empty or implausibly long. */
export function clientIp(c: Context): string {
  const value = c.req.header('x-client-ip')?.trim()
  return value && value.length <= MAX_LENGTH ? value : 'unknown'
}

/**
 * The key a per-address budget counts `ip` under: an IPv4 address as is (an IPv4-mapped IPv6 address
 * `::ffff:a.b.c.d` as its IPv4 address), an IPv6 address as its /64 network (`2001:db8:0:1::/64`),
 * because one subscriber is handed a whole /64 and picks any address in it (RFC 6177, RFC 7934), so
 * counting single IPv6 addresses would give each client 2^64 budgets. Anything else (`unknown`) is
 * returned unchanged.
 */
export function addressGroup(ip: string): string {
  const address = ip.replace(/%.*$/, '').replace(/^\[|\]$/g, '')
  if (isIPv4(address)) return address
  if (!isIPv6(address)) return ip
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:((?:\d{1,3}\.){3}\d{1,3})$/i.exec(address)
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!
  const [head = '', tail = ''] = address.split('::') as [string, string?]
  const left = head ? head.split(':') : []
  const right = address.includes('::') && tail ? tail.split(':') : []
  // An embedded IPv4 tail (`::1.2.3.4`) fills two groups; it lies past the /64 either way.
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  const prefix = groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16))
  return `${prefix.join(':')}::/64`
}

/**
 * `TRUST_PROXY` as Express's `trust proxy` setting: unset or `0` → trust no proxy (the socket address
 * is the client); a whole number N → N proxy hops; otherwise a comma-separated list of proxy
 * addresses or CIDR ranges (or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 * @throws on `true` / `*` (trusting every hop lets any client choose its address) and on junk
 */
export function parseTrustProxy(value: string | undefined): number | string[] {
  const text = value?.trim() ?? ''
  if (text === '' || text === '0' || text === 'false') return 0
  if (/^[0-9]{1,2}$/.test(text)) return Number(text)
  if (/^(true|\*|all)$/i.test(text)) {
    throw new Error(
      "TRUST_PROXY=true would let any client choose its address: give the number of proxy hops (e.g. 1) or the proxies' addresses",
    )
  }
  const list = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  const address = /^(loopback|linklocal|uniquelocal|[0-9a-f:.]+(\/[0-9]{1,3})?)$/i
  if (list.length === 0 || !list.every((part) => address.test(part))) {
    throw new Error(`TRUST_PROXY must be a number of proxy hops or a list of proxy addresses (got "${text}")`)
  }
  return list
}

/** True when `given` equals the configured internal token (constant time). False without a token. */
export function isInternalCaller(given: string | undefined, token: string | undefined): boolean {
  if (!token || !given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The pieces of an incoming request the middleware reads and writes (an Express request fits). */
interface IncomingLike {
  ip?: string
  socket: { remoteAddress?: string }
  headers: Record<string, string | string[] | undefined>
  rawHeaders?: string[]
}

/**
 * Rewrites the raw header list too: @hono/node-server builds the API's `Request` from
 * `rawHeaders`, not from `headers`, so a client's own `X-Client-Ip` would otherwise reach the API.
 */
function replaceRawHeaders(raw: string[] | undefined, clientIpValue: string): void {
  if (!Array.isArray(raw)) return
  const kept: string[] = []
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase()
    if (name === 'x-client-ip' || name === 'x-internal-token') continue
    kept.push(raw[i], raw[i + 1])
  }
  kept.push('X-Client-Ip', clientIpValue)
  raw.splice(0, raw.length, ...kept)
}

/**
 * Express middleware: sets `X-Client-Ip` to the client's address (Express `req.ip`, so the app must
 * have `trust proxy` set from `parseTrustProxy`), overwriting what the client sent, unless the caller
 * proves with `X-Internal-Token` that it is our own BFF forwarding a shopper's address. The token
 * header is removed either way, so nothing downstream sees it.
 */
export function clientIpMiddleware(internalToken: string | undefined) {
  return (req: IncomingLike, _res: unknown, next: () => void) => {
    const forwarded = typeof req.headers['x-client-ip'] === 'string' ? req.headers['x-client-ip'] : undefined
    const given = typeof req.headers['x-internal-token'] === 'string' ? req.headers['x-internal-token'] : undefined
    delete req.headers['x-internal-token']
    const trusted = isInternalCaller(given, internalToken) && forwarded && forwarded.length <= MAX_LENGTH
    const address = trusted ? forwarded : (req.ip ?? req.socket.remoteAddress ?? 'unknown')
    req.headers['x-client-ip'] = address
    replaceRawHeaders(req.rawHeaders, address)
    next()
  }
}
