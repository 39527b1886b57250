/**
 * The shopper's address for per-IP rate limits. server.ts overwrites `X-Client-Ip` from the socket on
 * every network request, and the in-process BFF sets it from its own request, so the header is
 * trusted here; without it (tests, scripts) every caller shares the key 'unknown'.
 */
import type { Context } from 'hono'

/** Longest accepted value: an IPv6 address with a zone fits; anything longer is not an address. */
const MAX_LENGTH = 64

/** Returns the client address from `X-Client-Ip`, or 'unknown' when absent, empty or implausibly long. */
export function clientIp(c: Context): string {
  const value = c.req.header('x-client-ip')?.trim()
  return value && value.length <= MAX_LENGTH ? value : 'unknown'
}
