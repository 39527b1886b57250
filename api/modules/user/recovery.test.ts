/**
 * Password recovery on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the code is
 * read from the mail a fake mailer captured, as a shopper would read it from the inbox.
 */
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../app.ts'
import { passwordResets, refreshTokens, users } from '../../db/schema.ts'
import type { MailMessage } from '../../lib/mail.ts'
import { hashOtp, OTP_MAX_ATTEMPTS, RESET_TOKEN_PATTERN } from '../../lib/otp.ts'
import { createRateLimits } from '../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import {
  INVALID_OTP,
  INVALID_RESET_TOKEN,
  OTP_EXPIRED,
  OTP_SENT,
  OTP_TOO_MANY_TRIES,
  PASSWORD_UPDATED,
  RESET_PASSWORD_MISMATCH,
} from './recovery.ts'
import { createUser, WRONG_CREDENTIALS } from './service.ts'

const PASSWORD = 'Basmati-Rice-2024'
const NEW_PASSWORD = 'Toor-Dal-1kg-Pack'
const realClock = () => new Date()
const minutesLater = (minutes: number) => () => new Date(Date.now() + minutes * 60_000)

const sent: MailMessage[] = []
let t: TestApp
let seq = 0
const newEmail = (tag = 'shopper') => `${tag}${++seq}@example.com`

const roomy = { points: 10_000, duration: 60 }

beforeAll(async () => {
  // Roomy limits: every request here comes from the one address 'unknown'. The limits themselves
  // are tested at the end on a second app with small ones.
  t = await createTestApp({
    mailer: { send: async (m) => void sent.push(m) },
    rateLimits: createRateLimits({
      otpByIp: roomy,
      otpCooldownByEmail: roomy,
      otpVerifyByIp: roomy,
      loginFailByIp: roomy,
    }),
  })
})
afterAll(() => t?.close())
beforeEach(() => {
  sent.length = 0
})
afterEach(() => {
  t.deps.clock = realClock
})

async function newUser(opts: { name?: string; status?: 'Active' | 'Suspended' } = {}) {
  const email = newEmail()
  const user = await createUser(t.db, { name: opts.name ?? 'Asha Rao', email, password: PASSWORD })
  if (opts.status) await t.db.update(users).set({ status: opts.status }).where(eq(users.id, user.id))
  return { email, user }
}

const forgot = (email: unknown) => t.call('user/forgot-password', { method: 'PUT', json: { email } })
const verify = (email: string, otp: unknown) => t.call('user/verify-forgot-password-otp', { method: 'PUT', json: { email, otp } })
const reset = (json: Record<string, unknown>, headers?: Record<string, string>) =>
  t.call('user/reset-password', { method: 'PUT', json, headers })
const login = (email: string, password: string) => t.call('user/login', { json: { email, password } })

/** The code in the last mail to `email`, checked to be in both the text and the HTML body. */
function codeFromMail(email: string): string {
  const mail = sent.filter((m) => m.to === email).at(-1)
  expect(mail, `a mail to ${email}`).toBeDefined()
  const code = /\b(\d{6})\b/.exec(mail!.text)?.[1]
  expect(code).toMatch(/^\d{6}$/)
  expect(mail!.html).toContain(code)
  return code!
}

async function requestCode(email: string): Promise<string> {
  const res = await forgot(email)
  expect(res.status).toBe(200)
  return codeFromMail(email)
}

/** Forgot + verify: the reset token. */
async function verifiedToken(email: string): Promise<string> {
  const res = await verify(email, await requestCode(email))
  expect(res.status).toBe(200)
  return res.body.data.resetToken
}

/** A code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

const resetRow = async (userId: string) => (await t.db.select().from(passwordResets).where(eq(passwordResets.userId, userId)))[0]

function cookies(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.getSetCookie().map((line) => [line.slice(0, line.indexOf('=')), line]))
}

describe('PUT /api/user/forgot-password', () => {
  it('mails a 6-digit code in text and HTML, stores only its hash, valid 10 minutes from the clock', async () => {
    const { email, user } = await newUser()
    const now = new Date('2030-05-01T08:00:00.000Z')
    t.deps.clock = () => now
    const res = await forgot(email)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: OTP_SENT, error: false, success: true, data: null })
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ to: email })
    expect(sent[0].subject).toBeTruthy()
    const code = codeFromMail(email)
    const row = await resetRow(user.id)
    expect(row.otpHash).toMatch(/^[0-9a-f]{64}$/)
    expect(row.otpHash).toBe(hashOtp(code, user.id, t.deps.jwtSecret))
    expect(JSON.stringify(row)).not.toContain(code)
    expect(row.attempts).toBe(0)
    expect(row.expiresAt.toISOString()).toBe('2030-05-01T08:10:00.000Z')
  })

  it('answers an unknown email exactly as a known one, and sends nothing', async () => {
    const { email } = await newUser()
    const known = await forgot(email)
    sent.length = 0
    const unknown = await forgot(newEmail('nobody'))
    expect(unknown.status).toBe(known.status)
    expect(unknown.body).toEqual(known.body)
    expect(cookies(unknown.headers)).toEqual(cookies(known.headers))
    expect(sent).toHaveLength(0)
  })

  it('sends nothing to an account that is not Active, with the same answer', async () => {
    const { email, user } = await newUser({ status: 'Suspended' })
    const res = await forgot(email)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe(OTP_SENT)
    expect(sent).toHaveLength(0)
    expect(await resetRow(user.id)).toBeUndefined()
  })

  it('normalises the email and refuses a query object or a malformed email', async () => {
    const { email } = await newUser()
    expect((await forgot(`  ${email.toUpperCase()} `)).status).toBe(200)
    expect(sent.map((m) => m.to)).toEqual([email])
    expect((await forgot({ $ne: null })).status).toBe(400)
    expect((await forgot('not-an-email')).status).toBe(400)
    expect((await t.call('user/forgot-password', { method: 'PUT', json: {} })).status).toBe(400)
  })

  it('escapes the name in the HTML body', async () => {
    const { email } = await newUser({ name: '<img src=x onerror=alert(1)> & "Co"' })
    await requestCode(email)
    const { html, text } = sent[0]
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;')
    expect(text).toContain('<img src=x onerror=alert(1)> & "Co"')
  })

  it('keeps one live code per account: a new request replaces the old code and resets the tries', async () => {
    const { email, user } = await newUser()
    const first = await requestCode(email)
    expect((await verify(email, otherCode(first))).status).toBe(400)
    expect((await resetRow(user.id)).attempts).toBe(1)
    let second = await requestCode(email)
    // Two draws may coincide (one in a million); draw again so the test says what it means.
    while (second === first) second = await requestCode(email)
    expect((await resetRow(user.id)).attempts).toBe(0)
    expect((await t.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).length).toBe(1)
    const old = await verify(email, first)
    expect(old.status).toBe(400)
    expect(old.body.message).toBe(INVALID_OTP)
    expect((await verify(email, second)).status).toBe(200)
  })

  it('answers 200 even when the mail cannot be sent (the failure is only logged)', async () => {
    const failing = createApp({ ...t.deps, mailer: { send: async () => Promise.reject(new Error('SMTP down')) } }).app
    const { email, user } = await newUser()
    const res = await failing.request('/api/user/forgot-password', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).message).toBe(OTP_SENT)
    expect(await resetRow(user.id)).toBeDefined()
  })
})

describe('PUT /api/user/verify-forgot-password-otp', () => {
  it('exchanges the right code for a reset token, in the body and as an httpOnly cookie on /api/user', async () => {
    const { email, user } = await newUser()
    const res = await verify(email, await requestCode(email))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, error: false })
    const { resetToken } = res.body.data
    expect(resetToken).toMatch(RESET_TOKEN_PATTERN)
    const cookie = cookies(res.headers).resetToken
    expect(cookie).toContain(`resetToken=${resetToken}`)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/Path=\/api\/user/)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Max-Age=900/)
    expect(cookie).not.toMatch(/Secure/i)
    const row = await resetRow(user.id)
    expect(row.resetTokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(resetToken)
  })

  it('sets a Secure cookie when the app is built with secureCookies', async () => {
    const secure = createApp({ ...t.deps, secureCookies: true }).app
    const { email } = await newUser()
    const code = await requestCode(email)
    const res = await secure.request('/api/user/verify-forgot-password-otp', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, otp: code }),
    })
    expect(res.status).toBe(200)
    expect(cookies(res.headers).resetToken).toMatch(/; Secure/i)
  })

  it('answers 400 "Invalid OTP" for a wrong code and counts the try', async () => {
    const { email, user } = await newUser()
    const code = await requestCode(email)
    const res = await verify(email, otherCode(code))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: INVALID_OTP, error: true, success: false })
    expect((await resetRow(user.id)).attempts).toBe(1)
  })

  it('refuses a code used once already', async () => {
    const { email } = await newUser()
    const code = await requestCode(email)
    expect((await verify(email, code)).status).toBe(200)
    const again = await verify(email, code)
    expect(again.status).toBe(400)
    expect(again.body.message).toBe(OTP_EXPIRED)
  })

  it(`kills the code after ${OTP_MAX_ATTEMPTS} wrong tries: even the right code fails then`, async () => {
    const { email, user } = await newUser()
    const code = await requestCode(email)
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      const res = await verify(email, otherCode(code))
      expect(res.status).toBe(400)
      expect(res.body.message).toBe(INVALID_OTP)
    }
    const right = await verify(email, code)
    expect(right.status).toBe(400)
    expect(right.body.message).toBe(OTP_TOO_MANY_TRIES)
    expect(cookies(right.headers).resetToken).toBeUndefined()
    expect((await resetRow(user.id)).resetTokenHash).toBeNull()
    // A new code starts over.
    expect((await verify(email, await requestCode(email))).status).toBe(200)
  })

  it('counts concurrent wrong tries one by one (the row is locked)', async () => {
    const { email, user } = await newUser()
    const code = await requestCode(email)
    const results = await Promise.all(Array.from({ length: 8 }, () => verify(email, otherCode(code))))
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(400))
    expect((await resetRow(user.id)).attempts).toBe(OTP_MAX_ATTEMPTS)
    expect((await verify(email, code)).body.message).toBe(OTP_TOO_MANY_TRIES)
  })

  it('accepts the code within 10 minutes and refuses it after (clock moved 11 minutes)', async () => {
    const { email } = await newUser()
    const code = await requestCode(email)
    t.deps.clock = minutesLater(11)
    const late = await verify(email, code)
    expect(late.status).toBe(400)
    expect(late.body.message).toBe(OTP_EXPIRED)
    t.deps.clock = minutesLater(9)
    expect((await verify(email, code)).status).toBe(200)
  })

  it('answers an unknown email, or an account without a code, as a wrong code', async () => {
    const { email } = await newUser()
    const wrong = await verify(email, '123456')
    const unknown = await verify(newEmail('nobody'), '123456')
    expect(wrong.status).toBe(400)
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual(wrong.body)
    expect(unknown.body.message).toBe(INVALID_OTP)
  })

  it('refuses codes that are not 6 digits in a string, before touching the tries', async () => {
    const { email, user } = await newUser()
    const code = await requestCode(email)
    for (const otp of ['12345', '1234567', '12a456', '', Number(code), { $ne: null }, null]) {
      expect((await verify(email, otp)).status, JSON.stringify(otp)).toBe(400)
    }
    expect((await resetRow(user.id)).attempts).toBe(0)
    expect((await verify(email, code)).status).toBe(200)
  })
})

describe('PUT /api/user/reset-password', () => {
  it('sets the new password, revokes every refresh token, and the old password stops working', async () => {
    const { email, user } = await newUser()
    // Two signed-in devices.
    const phone = (await login(email, PASSWORD)).body.data.refreshToken
    const laptop = (await login(email, PASSWORD)).body.data.refreshToken
    const resetToken = await verifiedToken(email)
    const res = await reset({ email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: PASSWORD_UPDATED, success: true, error: false })
    // The reset cookie is cleared.
    expect(cookies(res.headers).resetToken).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i)

    for (const refreshToken of [phone, laptop]) {
      expect((await t.call('user/refresh-token', { method: 'POST', token: refreshToken })).status).toBe(401)
    }
    const live = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id))
    expect(live.every((row) => row.revokedAt !== null)).toBe(true)

    const old = await login(email, PASSWORD)
    expect(old.status).toBe(400)
    expect(old.body.message).toBe(WRONG_CREDENTIALS)
    expect((await login(email, NEW_PASSWORD)).status).toBe(200)
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id))
    expect(row.passwordHash).toMatch(/^\$argon2id\$/)
    expect(await resetRow(user.id)).toBeUndefined()
  })

  it('refuses a reset token used once already', async () => {
    const { email } = await newUser()
    const resetToken = await verifiedToken(email)
    const body = { email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken }
    expect((await reset(body)).status).toBe(200)
    const again = await reset({ ...body, newPassword: 'Another-Pass-99', confirmPassword: 'Another-Pass-99' })
    expect(again.status).toBe(400)
    expect(again.body.message).toBe(INVALID_RESET_TOKEN)
    expect((await login(email, NEW_PASSWORD)).status).toBe(200)
  })

  it('lets only one of two simultaneous resets with one token win', async () => {
    const { email } = await newUser()
    const resetToken = await verifiedToken(email)
    const [a, b] = await Promise.all([
      reset({ email, newPassword: 'First-Password-1', confirmPassword: 'First-Password-1', resetToken }),
      reset({ email, newPassword: 'Second-Password-2', confirmPassword: 'Second-Password-2', resetToken }),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 400])
  })

  it('refuses a reset without a verified code, with only a code requested, or with a wrong token', async () => {
    const { email } = await newUser()
    const body = { email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }
    const none = await reset(body)
    expect(none.status).toBe(400)
    expect(none.body.message).toBe(INVALID_RESET_TOKEN)
    await requestCode(email) // requested, never verified
    for (const resetToken of ['', 'x', 'A'.repeat(43), 'A'.repeat(300)]) {
      const res = await reset({ ...body, resetToken })
      expect(res.status, resetToken).toBe(400)
    }
    const verified = await verifiedToken(email)
    const wrong = await reset({ ...body, resetToken: `${verified.slice(0, -1)}${verified.endsWith('A') ? 'B' : 'A'}` })
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe(INVALID_RESET_TOKEN)
    expect((await login(email, PASSWORD)).status).toBe(200)
    // The wrong tries did not spend the real token.
    expect((await reset({ ...body, resetToken: verified })).status).toBe(200)
  })

  it("refuses another account's token", async () => {
    const alice = await newUser()
    const bob = await newUser()
    const alicesToken = await verifiedToken(alice.email)
    await requestCode(bob.email)
    const res = await reset({ email: bob.email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken: alicesToken })
    expect(res.status).toBe(400)
    expect((await login(bob.email, PASSWORD)).status).toBe(200)
  })

  it('refuses a reset token older than 15 minutes', async () => {
    const { email } = await newUser()
    const resetToken = await verifiedToken(email)
    t.deps.clock = minutesLater(16)
    const res = await reset({ email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(INVALID_RESET_TOKEN)
    t.deps.clock = minutesLater(14)
    expect((await reset({ email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken })).status).toBe(200)
  })

  it('accepts the token from the resetToken cookie that verify set', async () => {
    const { email } = await newUser()
    const code = await requestCode(email)
    const verified = await verify(email, code)
    const cookie = cookies(verified.headers).resetToken.split(';')[0]
    const res = await reset(
      { email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { Cookie: cookie, Origin: 'http://localhost' },
    )
    expect(res.status).toBe(200)
    expect((await login(email, NEW_PASSWORD)).status).toBe(200)
  })

  it('answers the mismatch message (trailing space included) when the passwords differ, and spends nothing', async () => {
    const { email } = await newUser()
    const resetToken = await verifiedToken(email)
    const res = await reset({ email, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!`, resetToken })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('New password and confirm password must be same. ')
    expect(RESET_PASSWORD_MISMATCH).toBe('New password and confirm password must be same. ')
    expect((await login(email, PASSWORD)).status).toBe(200)
    expect((await reset({ email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken })).status).toBe(200)
  })

  it('applies the register password rules (8 to 128 characters) and requires every field', async () => {
    const { email } = await newUser()
    const resetToken = await verifiedToken(email)
    const short = await reset({ email, newPassword: 'short7!', confirmPassword: 'short7!', resetToken })
    expect(short.status).toBe(400)
    expect(short.body.issues).toEqual([{ path: 'newPassword', message: 'Password must be at least 8 characters' }])
    const long = 'x'.repeat(129)
    expect((await reset({ email, newPassword: long, confirmPassword: long, resetToken })).status).toBe(400)
    expect((await reset({ email, newPassword: NEW_PASSWORD, resetToken })).status).toBe(400)
    expect((await reset({ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken })).status).toBe(400)
    expect((await reset({ email: { $ne: null }, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken })).status).toBe(400)
    expect((await login(email, PASSWORD)).status).toBe(200)
  })

  it('a new code request cancels a reset token not yet used', async () => {
    const { email } = await newUser()
    const resetToken = await verifiedToken(email)
    await requestCode(email)
    const res = await reset({ email, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, resetToken })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(INVALID_RESET_TOKEN)
  })
})

describe('rate limits', () => {
  // A second app on the same database with small limits.
  let limited: ReturnType<typeof createApp>['app']
  beforeAll(() => {
    limited = createApp({
      ...t.deps,
      rateLimits: createRateLimits({
        otpCooldownByEmail: { points: 1, duration: 2 },
        otpByIp: { points: 4, duration: 60 },
        otpVerifyByIp: { points: 3, duration: 60 },
      }),
    }).app
  })
  const put = (path: string, json: unknown, ip: string) =>
    limited.request(`/api/user/${path}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Client-Ip': ip },
      body: JSON.stringify(json),
    })

  async function expect429(res: Response) {
    expect(res.status).toBe(429)
    const retryAfter = Number(res.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await res.json()).toMatchObject({ success: false, error: true })
  }

  it('spaces codes for one email by a cool-down, known or not, then sends again', async () => {
    const { email } = await newUser()
    const before = sent.length
    expect((await put('forgot-password', { email }, '198.51.100.1')).status).toBe(200)
    expect(sent).toHaveLength(before + 1)
    const early = await put('forgot-password', { email }, '198.51.100.2')
    expect(early.status).toBe(429)
    expect(Number(early.headers.get('Retry-After'))).toBeLessThanOrEqual(2)
    expect(sent).toHaveLength(before + 1)
    // An unknown email is spaced the same way, so a 429 does not tell whether an account exists.
    const nobody = newEmail('nobody')
    expect((await put('forgot-password', { email: nobody }, '198.51.100.4')).status).toBe(200)
    expect((await put('forgot-password', { email: nobody }, '198.51.100.5')).status).toBe(429)
    // After the cool-down the owner gets a code at once: no hour-long block.
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expect((await put('forgot-password', { email }, '198.51.100.6')).status).toBe(200)
    expect(sent).toHaveLength(before + 2)
  })

  it('answers 429 after 4 code requests from one IP, whatever the email', async () => {
    const ip = '203.0.113.7'
    for (let i = 0; i < 4; i++) expect((await put('forgot-password', { email: newEmail('spray') }, ip)).status).toBe(200)
    await expect429(await put('forgot-password', { email: newEmail('spray') }, ip))
    expect((await put('forgot-password', { email: newEmail('spray') }, '203.0.113.8')).status).toBe(200)
  })

  it('answers 429 after 3 code checks from one IP, even with the right code', async () => {
    const { email } = await newUser()
    const code = await requestCode(email)
    const ip = '203.0.113.9'
    for (let i = 0; i < 3; i++) expect((await put('verify-forgot-password-otp', { email, otp: otherCode(code) }, ip)).status).toBe(400)
    await expect429(await put('verify-forgot-password-otp', { email, otp: code }, ip))
    expect((await put('verify-forgot-password-otp', { email, otp: code }, '203.0.113.10')).status).toBe(200)
  })
})
