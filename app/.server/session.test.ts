/**
 * The session cookie (app/.server/session.ts): signed with node:crypto, as React Router's own signed
 * cookie is, so a cookie of either implementation is read by the other, and a changed byte of the
 * value or the signature is refused.
 */
import { createCookieSessionStorage } from 'react-router'
import { describe, expect, it } from 'vitest'
import { env } from './env.ts'
import { sessionStorage } from './session.ts'

/** React Router's cookie session with the same options and secret: what the cookie was before. */
const reactRouters = createCookieSessionStorage({
  cookie: {
    name: '__session',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: env.secureCookies,
    secrets: [env.sessionSecret],
    maxAge: 60 * 60 * 24 * 30,
  },
})

/** A Set-Cookie value's `name=value` part, as a browser sends it back. */
const sent = (setCookie: string) => setCookie.split(';')[0]!

const data = { guestCartId: 'guest_ABC-123', location: { pincode: '560038', storeId: null } }
const toast = { type: 'success' as const, message: 'Added Amul Taaza 500 ml, ₹27 ✓' }

describe('the session cookie', () => {
  it("is React Router's signed cookie to the byte, and each reads the other's", async () => {
    const ours = await sessionStorage.getSession()
    const theirs = await reactRouters.getSession()
    ours.set('guestCartId', data.guestCartId)
    ours.set('location', data.location)
    ours.flash('toast', toast)
    theirs.set('guestCartId', data.guestCartId)
    theirs.set('location', data.location)
    theirs.flash('toast', toast)
    const ourCookie = await sessionStorage.commitSession(ours)
    expect(ourCookie).toBe(await reactRouters.commitSession(theirs))
    expect(ourCookie).toMatch(/; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax/)
    // Each read once by the other, with other cookies beside it.
    expect((await reactRouters.getSession(`a=1; ${sent(ourCookie)}`)).data).toEqual({ ...data, __flash_toast__: toast })
    expect((await sessionStorage.getSession(`${sent(ourCookie)}; b=2`)).data).toEqual({ ...data, __flash_toast__: toast })
  })

  it('refuses a cookie whose value or signature was changed, and one signed with another secret', async () => {
    const session = await sessionStorage.getSession()
    session.set('guestCartId', data.guestCartId)
    const cookie = decodeURIComponent(sent(await sessionStorage.commitSession(session)).slice('__session='.length))
    const [value, signature] = cookie.split('.') as [string, string]
    const otherValue = Buffer.from(JSON.stringify({ guestCartId: 'someone-else' })).toString('base64')
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1)
    const otherSecret = createCookieSessionStorage({ cookie: { name: '__session', secrets: ['another-secret-0123456789abcdef0123'] } })
    const foreign = await otherSecret.getSession()
    foreign.set('guestCartId', 'someone-else')
    for (const header of [
      `__session=${encodeURIComponent(`${otherValue}.${signature}`)}`,
      `__session=${encodeURIComponent(`${value}.${flipped}`)}`,
      `__session=${encodeURIComponent(value)}`,
      sent(await otherSecret.commitSession(foreign)),
    ]) {
      expect((await sessionStorage.getSession(header)).data, header).toEqual({})
    }
  })

  it("ends a session with React Router's expired cookie", async () => {
    const session = await sessionStorage.getSession()
    expect(await sessionStorage.destroySession(session)).toBe(await reactRouters.destroySession(await reactRouters.getSession()))
  })
})
