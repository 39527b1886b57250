/**
 * The BFF cookie session (docs/decisions/0002-tokens-in-cookie-session.md): access and refresh
 * tokens, a small user summary for the header, and one-shot flash toasts, in a signed, httpOnly,
 * SameSite=Lax cookie (Secure in production). Tokens never reach browser JavaScript or localStorage
 * (docs/product.md, "Differences from the original app" lists the old app's localStorage tokens as a
 * defect).
 *
 * One `RequestSession` exists per request (made by the root middleware, app/.server/context.ts); every
 * loader and action of that request shares it, and the middleware commits it once if it changed.
 */
import { LRUCache } from 'lru-cache'
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto'
import { createCookie, createCookieSessionStorage, createSession, type Cookie, type SessionStorage } from 'react-router'
import { env } from './env.ts'
import type { ToastMessage } from '../lib/toast.ts'
import type { LeftOutNotice } from '../lib/reorder.ts'
import type { PersonalUser } from '../lib/personal.ts'
import type { CartChange } from '../../contract/order.ts'
import type { Tokens } from '../../contract/user.ts'

/**
 * What the header needs of the signed-in user, refreshed at login and on profile change: the user of
 * a page's personal parts (app/lib/personal.ts).
 */
export type SessionUser = PersonalUser

/** A toast to show on the next page (docs/product.md, "Constants"). */
export type Toast = ToastMessage

/**
 * Where a shopper is in password recovery (docs/product.md, "Password recovery"): the email the
 * code went to and, once the code was verified, the API's single-use reset token. It lives in this
 * signed, httpOnly cookie, so neither the email nor the token travels in the URL or reaches browser
 * JavaScript (docs/decisions/0010-password-recovery.md).
 */
export interface Recovery {
  email: string
  /** True once `user/verify-forgot-password-otp` accepted the code. */
  verified: boolean
  /** The reset token that verify issued; required by `user/reset-password`. */
  resetToken?: string
}

/**
 * The shopper's chosen delivery location (docs/stores.md, "Location (BFF)"), guests too: the PIN code
 * and the store that serves it, null when no store does (the default store is browsed then). The
 * store id is what every upstream call sends as `X-Store-Id` (app/.server/api-context.ts `sessionApi`).
 */
export interface SessionLocation {
  pincode: string
  storeId: string | null
}

/**
 * A one-time code sent by SMS and not yet used (docs/decisions/0054-phone-sign-in-pages.md): the
 * 10-digit number it went to and from when the API allows another (ms since the epoch, this server's
 * clock; the API's `resendAfterSeconds` after the send), so the code step can show the number and
 * count down to "Resend OTP" (the API decides either way).
 * Kept in this signed, httpOnly cookie, never in the URL, where a full number would reach logs and
 * Referer headers (OWASP Logging Cheat Sheet).
 */
export interface PendingCode {
  mobile: string
  resendAt: number
}

/** What a pending code is for: signing in at /login/phone, or linking a number on the profile. */
export type CodePurpose = 'phoneLogin' | 'mobileLink'

interface SessionData {
  accessToken: string
  refreshToken: string
  user: SessionUser
  recovery: Recovery
  /** A visitor's guest cart id (docs/commerce-api.md, "Guest carts"); the cart itself lives in the database. */
  guestCartId: string
  location: SessionLocation
  phoneLogin: PendingCode
  mobileLink: PendingCode
  /** The shopper closed the "Add your name" prompt (an account without a name; asked again after the next sign-in). */
  namePromptDismissed: boolean
}
interface FlashData {
  toast: Toast
  /** A one-shot message for a page's own dialog (Upload Product's success dialog, docs/product.md, "States and transitions"). */
  notice: string
  /** The email just registered, for /login to fill in (docs/product.md, "States and transitions": register success). */
  registeredEmail: string
  /** What "Order again" left out, for the cart page (docs/product.md, "Order again"). */
  leftOut: LeftOutNotice
  /** What a change of location did to the cart (app/.server/location.server.ts, trimmed to fit the cookie). */
  cartChanges: CartChange[]
}

const SESSION_COOKIE = '__session'
/** The session cookie's value in a Cookie header (the first, as the `cookie` package's parse keeps it). */
const SESSION_COOKIE_VALUE = /(?:^|;\s*)__session=([^;]*)/

/**
 * React Router's cookie for the session's attributes alone (unsigned: its value is never used), so
 * the Set-Cookie header keeps React Router's format: `HttpOnly; SameSite=Lax; Path=/; Max-Age` of 30
 * days, `Secure` in production.
 */
const cookieAttributes = createCookie(SESSION_COOKIE, {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  secure: env.secureCookies,
  maxAge: 60 * 60 * 24 * 30,
})
/** The HMAC keys: the first signs, any verifies (React Router's `secrets`, rotation order). */
const sessionKeys = [createSecretKey(Buffer.from(env.sessionSecret, 'utf8'))]

/** The HMAC-SHA256 of `value` under `key` (32 bytes). */
const hmac = (key: KeyObject, value: string) => createHmac('sha256', key).update(value).digest()

/**
 * The session cookie, signed as React Router's `createCookie` with `secrets` signs it (the value is
 * the base64 of the data's JSON, a dot, and the unpadded base64 of its HMAC-SHA256; React Router's
 * docs, "Sessions and Cookies", "Signing cookies"), so cookies of either implementation verify in the
 * other: with node:crypto's synchronous HMAC and a key made once, instead of WebCrypto's
 * `importKey` and `sign` (two promises and a new CryptoKey on every commit and every verification).
 */
const signedSessionCookie: Cookie = {
  name: SESSION_COOKIE,
  isSigned: true,
  get expires() {
    return cookieAttributes.expires
  },
  async parse(cookieHeader) {
    let raw = cookieHeader ? SESSION_COOKIE_VALUE.exec(cookieHeader)?.[1] : undefined
    if (raw === undefined) return null
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length > 1) raw = raw.slice(1, -1)
    if (raw === '') return ''
    let signed: string
    try {
      signed = raw.includes('%') ? decodeURIComponent(raw) : raw
    } catch {
      return null
    }
    const dot = signed.lastIndexOf('.')
    if (dot < 0) return null
    const value = signed.slice(0, dot)
    const given = Buffer.from(signed.slice(dot + 1), 'base64')
    const valid = sessionKeys.some((key) => {
      const expected = hmac(key, value)
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
    if (!valid) return null
    try {
      return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as unknown
    } catch {
      return {}
    }
  },
  async serialize(value, options) {
    // The attributes as React Router writes them for these options, after an empty value.
    const empty = await cookieAttributes.serialize('', options)
    if (value === '') return empty
    const data = Buffer.from(JSON.stringify(value), 'utf8').toString('base64')
    const signed = `${data}.${hmac(sessionKeys[0]!, data).toString('base64').replace(/=+$/, '')}`
    return `${SESSION_COOKIE}=${encodeURIComponent(signed)}${empty.slice(SESSION_COOKIE.length + 1)}`
  },
}

const cookieSessions = createCookieSessionStorage<SessionData, FlashData>({ cookie: signedSessionCookie })

/** Signed cookie values already verified, with their data: at most this many kept. */
const VERIFIED_MAX = 10_000
const verifiedSessions = new LRUCache<string, Record<string, unknown>>({ max: VERIFIED_MAX })

/**
 * The cookie session storage, with each signed cookie value verified once: the data of a value whose
 * signature checked out is kept (LRU, `VERIFIED_MAX`), so the next request with the same cookie gets
 * a fresh session from a copy of it without another HMAC (the page cache reads the cookie before
 * React Router does, and a shopper sends the same cookie with every page). A value is the same bytes
 * the HMAC covered, so it verifies the same way every time while the secret stays; a value that does
 * not verify (or holds nothing) is never kept, so forged cookies cannot fill the cache.
 */
export const sessionStorage: SessionStorage<SessionData, FlashData> = {
  ...cookieSessions,
  async getSession(cookieHeader, options) {
    const value = cookieHeader ? SESSION_COOKIE_VALUE.exec(cookieHeader)?.[1] : undefined
    const known = value ? verifiedSessions.get(value) : undefined
    if (known) return createSession<SessionData, FlashData>(structuredClone(known) as unknown as SessionData)
    const session = await cookieSessions.getSession(cookieHeader, options)
    if (value && Object.keys(session.data).length > 0) verifiedSessions.set(value, structuredClone(session.data))
    return session
  },
}

type RawSession = Awaited<ReturnType<typeof sessionStorage.getSession>>

/** Tokens as the API issues them (contract/user.ts). */
export type { Tokens } from '../../contract/user.ts'

/** The per-request session wrapper. Mutations mark it dirty; the root middleware commits it. */
export class RequestSession {
  dirty = false
  destroyed = false
  /** In-flight refresh of this request, shared by concurrent loaders so a refresh token is used once. */
  refreshing: Promise<boolean> | null = null

  constructor(readonly raw: RawSession) {}

  static async fromRequest(request: Request): Promise<RequestSession> {
    return new RequestSession(await sessionStorage.getSession(request.headers.get('Cookie')))
  }

  get tokens(): Tokens | null {
    const accessToken = this.raw.get('accessToken')
    const refreshToken = this.raw.get('refreshToken')
    return accessToken && refreshToken ? { accessToken, refreshToken } : null
  }

  get user(): SessionUser | null {
    return this.raw.get('user') ?? null
  }

  /** Stores new tokens (login, refresh). */
  setTokens(tokens: Tokens) {
    this.raw.set('accessToken', tokens.accessToken)
    this.raw.set('refreshToken', tokens.refreshToken)
    this.dirty = true
  }

  setUser(user: SessionUser) {
    this.raw.set('user', user)
    this.dirty = true
  }

  /** Ends the signed-in state: tokens and user are dropped; a pending toast survives. */
  signOut() {
    this.raw.unset('accessToken')
    this.raw.unset('refreshToken')
    this.raw.unset('user')
    this.raw.unset('namePromptDismissed')
    this.raw.unset('mobileLink')
    this.dirty = true
  }

  /** The visitor's guest cart id, or null (none yet, or merged into the account's cart at sign-in). */
  get guestCartId(): string | null {
    return this.raw.get('guestCartId') ?? null
  }

  /** Stores (an id) or drops (null) the guest cart id. */
  setGuestCartId(id: string | null) {
    if (id) this.raw.set('guestCartId', id)
    else if (this.raw.has('guestCartId')) this.raw.unset('guestCartId')
    else return
    this.dirty = true
  }

  /** The chosen delivery location, or null when none was chosen (the default store is shown). */
  get location(): SessionLocation | null {
    return this.raw.get('location') ?? null
  }

  /** Stores (a location) or drops (null) the delivery location; nothing changes when it is the same. */
  setLocation(location: SessionLocation | null) {
    const current = this.location
    if (location && current?.pincode === location.pincode && current.storeId === location.storeId) return
    if (location) this.raw.set('location', { pincode: location.pincode, storeId: location.storeId })
    else if (this.raw.has('location')) this.raw.unset('location')
    else return
    this.dirty = true
  }

  /** Queues, for the next page, what a change of location changed in the cart (already trimmed). */
  flashCartChanges(changes: CartChange[]) {
    this.raw.flash('cartChanges', changes)
    this.dirty = true
  }

  /** Reads and clears the cart changes of a change of location, or null. */
  takeCartChanges(): CartChange[] | null {
    const changes = this.raw.get('cartChanges') ?? null
    if (changes) this.dirty = true
    return changes
  }

  /** The password-recovery state, or null when no recovery is under way. */
  get recovery(): Recovery | null {
    return this.raw.get('recovery') ?? null
  }

  /** Records the recovery step reached (code sent to `email`; later verified with a reset token). */
  setRecovery(recovery: Recovery) {
    this.raw.set('recovery', recovery)
    this.dirty = true
  }

  /** Ends the recovery (after a reset, or to start over); the reset token is dropped with it. */
  clearRecovery() {
    if (!this.raw.has('recovery')) return
    this.raw.unset('recovery')
    this.dirty = true
  }

  /** The code sent for `purpose` and not yet used, or null. */
  pendingCode(purpose: CodePurpose): PendingCode | null {
    return this.raw.get(purpose) ?? null
  }

  /** Records that a code for `purpose` went to `code.mobile`, another allowed from `code.resendAt` (replaces any earlier one). */
  setPendingCode(purpose: CodePurpose, code: PendingCode) {
    this.raw.set(purpose, { mobile: code.mobile, resendAt: code.resendAt })
    this.dirty = true
  }

  /** Forgets the code for `purpose` (used, or the shopper starts over with another number). */
  clearPendingCode(purpose: CodePurpose) {
    if (!this.raw.has(purpose)) return
    this.raw.unset(purpose)
    this.dirty = true
  }

  /** True once the shopper closed the "Add your name" prompt in this session. */
  get namePromptDismissed(): boolean {
    return this.raw.get('namePromptDismissed') === true
  }

  /** Closes the "Add your name" prompt until the next sign-in. */
  dismissNamePrompt() {
    this.raw.set('namePromptDismissed', true)
    this.dirty = true
  }

  /** Queues a toast for the next rendered page (carried across redirects). */
  flashToast(toast: Toast) {
    this.raw.flash('toast', toast)
    this.dirty = true
  }

  /** Queues a message for the next page's own dialog (not a toast). */
  flashNotice(message: string) {
    this.raw.flash('notice', message)
    this.dirty = true
  }

  /** Reads and clears the pending dialog message. */
  takeNotice(): string | null {
    const notice = this.raw.get('notice') ?? null
    if (notice) this.dirty = true
    return notice
  }

  /**
   * Remembers, for the next page only, the email an account was just created with: /login fills it
   * in. Kept in this httpOnly cookie rather than the URL, where an email would reach logs and
   * Referer headers (OWASP Logging Cheat Sheet).
   */
  flashRegisteredEmail(email: string) {
    this.raw.flash('registeredEmail', email)
    this.dirty = true
  }

  /** Reads and clears the email of an account just created, or null. */
  takeRegisteredEmail(): string | null {
    const email = this.raw.get('registeredEmail') ?? null
    if (email) this.dirty = true
    return email
  }

  /** Queues, for the cart page, the lines "Order again" left out or cut (already trimmed to fit the cookie). */
  flashLeftOut(notice: LeftOutNotice) {
    this.raw.flash('leftOut', notice)
    this.dirty = true
  }

  /** Reads and clears what "Order again" left out, or null. */
  takeLeftOut(): LeftOutNotice | null {
    const notice = this.raw.get('leftOut') ?? null
    if (notice) this.dirty = true
    return notice
  }

  /** Reads and clears the pending toast. */
  takeToast(): Toast | null {
    const toast = this.raw.get('toast') ?? null
    if (toast) this.dirty = true
    return toast
  }

  /** The Set-Cookie value for this session's current state. */
  commit(): Promise<string> {
    return sessionStorage.commitSession(this.raw)
  }
}
