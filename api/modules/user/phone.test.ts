/**
 * Phone sign-in and mobile verification on a fresh database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): the code is read from the SMS an injected sender captured, as a shopper reads it
 * on the phone; the clock is the app's (`deps.clock`), moved by the tests.
 */
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../app.ts'
import { smsCodes, users } from '../../db/schema.ts'
import { OTP_MAX_ATTEMPTS } from '../../lib/otp.ts'
import { createRateLimits } from '../../lib/rate-limit.ts'
import type { SmsMessage } from '../../lib/sms.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createShopper, TEST_PASSWORD } from '../../testing/auth.ts'
import { captureLog } from '../../testing/log-capture.ts'
import { MOBILE_MESSAGE } from '../../../contract/phone.ts'
import {
  INCORRECT_OTP,
  MOBILE_TAKEN,
  MOBILE_VERIFIED,
  OTP_SMS_SENT,
  SMS_NOT_SENT,
  SMS_OTP_EXPIRED,
  SMS_OTP_TOO_MANY_TRIES,
  STAFF_USE_PASSWORD,
} from './phone.ts'
import { SMS_NEEDS_VERIFIED_MOBILE, VERIFY_NEW_MOBILE } from './profile.ts'
import { CONTACT_ADMIN, WRONG_CREDENTIALS } from './service.ts'

const sent: SmsMessage[] = []
const log = captureLog()
let failNext = false
let t: TestApp
let clockMs = Date.parse('2030-05-01T08:00:00.000Z')
const roomy = { points: 10_000, duration: 60 }

beforeAll(async () => {
  t = await createTestApp({
    logger: log.logger,
    sms: {
      send: async (m) => {
        if (failNext) {
          failNext = false
          throw new Error(`provider down for ${m.to}`)
        }
        sent.push(m)
      },
    },
    publicUrl: 'https://shop.example',
    smsStoreName: 'Test Grocer',
    // Roomy: every request here comes from one address; the budgets are tested on a second app.
    rateLimits: createRateLimits({ smsSendByIp: roomy, smsSendByMobile: roomy, smsVerifyByIp: roomy, loginFailByIp: roomy }),
  })
  t.deps.clock = () => new Date(clockMs)
  // A fresh PGlite copy takes long on a loaded 2-core machine (docs/decisions/0035-test-database-template.md).
}, 180_000)
afterAll(() => t?.close())
beforeEach(() => {
  sent.length = 0
})
afterEach(() => {
  // Past every 30 s pace of the test before.
  clockMs += 60_000
})

let seq = 0
/** A fresh valid number: 9 then 9 digits unique to this run. */
const newMobile = () => `9${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(6, '0')}`
const later = (seconds: number) => {
  clockMs += seconds * 1000
}

const send = (mobile: unknown, headers?: Record<string, string>) => t.call('user/otp/send', { json: { mobile }, headers })
const verify = (mobile: unknown, otp: unknown) => t.call('user/otp/verify', { json: { mobile, otp } })
const linkSend = (token: string, mobile: unknown) => t.call('user/mobile/send', { json: { mobile }, token })
const linkVerify = (token: string, mobile: unknown, otp: unknown) => t.call('user/mobile/verify', { json: { mobile, otp }, token })

/** The code of the last SMS to `mobile`, checked against the DLT template and the WebOTP line. */
function codeFromSms(mobile: string): string {
  const sms = sent.filter((m) => m.to === mobile).at(-1)
  expect(sms, `an SMS to ${mobile}`).toBeDefined()
  const code = /^(\d{6}) is your OTP to sign in to Test Grocer\. It is valid for 10 minutes\. Do not share it with anyone\./.exec(
    sms!.text,
  )?.[1]
  expect(code).toMatch(/^\d{6}$/)
  expect(sms!.text.split('\n').at(-1)).toBe(`@shop.example #${code}`)
  return code!
}

async function requestCode(mobile: string): Promise<string> {
  const res = await send(mobile)
  expect(res.status).toBe(200)
  return codeFromSms(mobile)
}

/** A code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
const userByMobile = async (mobile: string) => await t.db.select().from(users).where(eq(users.mobile, mobile))

describe('POST /api/user/otp/send', () => {
  it('sends a code and answers the same whether or not the number has an account', async () => {
    const known = newMobile()
    await requestCode(known)
    expect((await verify(known, codeFromSms(known))).status).toBe(200)
    later(31)
    const a = await send(known)
    const b = await send(newMobile())
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body).toEqual({
      message: OTP_SMS_SENT,
      error: false,
      success: true,
      data: { resendAfterSeconds: 30, expiresInSeconds: 600 },
    })
    expect(b.body).toEqual(a.body)
  })

  it('normalises +91, 91, 0, spaces and dashes to the 10 digits', async () => {
    const mobile = newMobile()
    for (const spelling of [`+91 ${mobile.slice(0, 5)}-${mobile.slice(5)}`, `91${mobile}`, `0${mobile}`, ` ${mobile} `]) {
      const res = await send(spelling)
      expect(res.status, spelling).toBe(200)
      expect(sent.at(-1)!.to).toBe(mobile)
      later(31)
    }
  })

  it('refuses anything but an Indian mobile number with one message', async () => {
    for (const mobile of ['12345', '5876543210', '+1 2025550123', '98765432101', 'abcdefghij', 9876543210, '', null, '9'.repeat(40)]) {
      const res = await send(mobile)
      expect(res.status, JSON.stringify(mobile)).toBe(400)
      expect(res.body.issues[0]).toEqual({ path: 'mobile', message: MOBILE_MESSAGE })
    }
    expect(sent).toHaveLength(0)
  })

  it('waits 30 s between codes to one number (Retry-After the rest), then replaces the code', async () => {
    const mobile = newMobile()
    const first = await requestCode(mobile)
    const early = await send(mobile)
    expect(early.status).toBe(429)
    expect(early.headers.get('Retry-After')).toBe('30')
    expect(early.body.message).toBe('Too many requests, try again in 30 seconds')
    later(29)
    expect((await send(mobile)).headers.get('Retry-After')).toBe('1')
    expect(sent).toHaveLength(1)
    later(1)
    const second = await requestCode(mobile)
    // The first code is dead; only the latest one lives.
    if (second !== first) expect((await verify(mobile, first)).body.message).toBe(INCORRECT_OTP)
    expect((await verify(mobile, second)).status).toBe(200)
  })

  it('withdraws the code when the provider fails, so the shopper may ask again at once', async () => {
    const mobile = newMobile()
    failNext = true
    const res = await send(mobile)
    expect(res.status).toBe(503)
    expect(res.body.message).toBe(SMS_NOT_SENT)
    expect(await t.db.select().from(smsCodes).where(eq(smsCodes.subject, mobile))).toHaveLength(0)
    expect((await send(mobile)).status).toBe(200)
  })
})

describe('POST /api/user/otp/verify', () => {
  it("makes an account for a new number: login's answer and cookies, isNewUser, needsName", async () => {
    const mobile = newMobile()
    const res = await verify(mobile, await requestCode(mobile))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Login successfully', success: true, data: { isNewUser: true, needsName: true } })
    const { accessToken, refreshToken, accesstoken } = res.body.data
    expect(accesstoken).toBe(accessToken)
    expect(typeof refreshToken).toBe('string')
    const cookies = res.headers.getSetCookie().join('\n')
    expect(cookies).toContain('accessToken=')
    expect(cookies).toContain('refreshToken=')
    const [row] = await userByMobile(mobile)
    expect(row).toMatchObject({ email: null, passwordHash: null, name: '', role: 'USER', mobileVerified: true, smsOrderUpdates: false })
    const details = await t.call('user/user-details', { token: accessToken })
    expect(details.body.data).toMatchObject({ _id: row!.id, email: '', mobile, mobile_verified: true, sms_order_updates: false })
    // The code is spent.
    expect((await verify(mobile, codeFromSms(mobile))).status).toBe(400)
  })

  it('signs in the same account the next time, and once named it needs no name', async () => {
    const mobile = newMobile()
    const first = await verify(mobile, await requestCode(mobile))
    const named = await t.call('user/update-user', { method: 'PUT', json: { name: 'Ravi' }, token: first.body.data.accessToken })
    expect(named.status).toBe(200)
    expect(named.body.data).toMatchObject({ name: 'Ravi', email: '', mobile })
    later(31)
    const again = await verify(mobile, await requestCode(mobile))
    expect(again.body.data).toMatchObject({ isNewUser: false, needsName: false })
    expect(await userByMobile(mobile)).toHaveLength(1)
  })

  it('signs in an email account whose verified mobile it is; a password account stays one', async () => {
    const mobile = newMobile()
    const { user } = await createShopper(t)
    await t.db.update(users).set({ mobile, mobileVerified: true }).where(eq(users.id, user.id))
    const res = await verify(mobile, await requestCode(mobile))
    expect(res.body.data).toMatchObject({ isNewUser: false, needsName: false })
    const details = await t.call('user/user-details', { token: res.body.data.accessToken })
    expect(details.body.data._id).toBe(user.id)
    expect((await t.call('user/login', { json: { email: user.email, password: TEST_PASSWORD } })).status).toBe(200)
  })

  it('refuses an email sign-in of an account made by phone (it has no password)', async () => {
    const mobile = newMobile()
    await verify(mobile, await requestCode(mobile))
    const res = await t.call('user/login', { json: { email: 'nobody@example.com', password: '' } })
    expect(res.status).toBe(400)
    const [row] = await userByMobile(mobile)
    await t.db
      .update(users)
      .set({ email: `phone-${mobile}@example.com` })
      .where(eq(users.id, row!.id))
    const login = await t.call('user/login', { json: { email: `phone-${mobile}@example.com`, password: TEST_PASSWORD } })
    expect(login.status).toBe(400)
    expect(login.body.message).toBe(WRONG_CREDENTIALS)
  })

  it('counts wrong codes: 4 say the tries left, the 5th kills the code, even the right one then fails', async () => {
    const mobile = newMobile()
    const code = await requestCode(mobile)
    for (let i = 1; i < OTP_MAX_ATTEMPTS; i++) {
      const res = await verify(mobile, otherCode(code))
      expect(res.status).toBe(400)
      expect(res.body.message).toBe(INCORRECT_OTP)
      expect(res.body.issues).toEqual([
        { path: 'otp', message: `Incorrect OTP: ${OTP_MAX_ATTEMPTS - i} ${OTP_MAX_ATTEMPTS - i === 1 ? 'try' : 'tries'} left` },
      ])
    }
    expect((await verify(mobile, otherCode(code))).body.message).toBe(SMS_OTP_TOO_MANY_TRIES)
    expect((await verify(mobile, code)).body.message).toBe(SMS_OTP_TOO_MANY_TRIES)
    expect(await userByMobile(mobile)).toHaveLength(0)
  })

  it('refuses a code past its 10 minutes; a day later its row is gone with the next send', async () => {
    const mobile = newMobile()
    const code = await requestCode(mobile)
    later(600)
    const res = await verify(mobile, code)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(SMS_OTP_EXPIRED)
    later(24 * 60 * 60 + 1)
    await requestCode(newMobile())
    expect(await t.db.select().from(smsCodes).where(eq(smsCodes.subject, mobile))).toHaveLength(0)
  })

  it("refuses a code sent to another number, and a profile's link code", async () => {
    const mobile = newMobile()
    const code = await requestCode(mobile)
    expect((await verify(newMobile(), code)).body.message).toBe(INCORRECT_OTP)
    const { token } = await createShopper(t)
    const other = newMobile()
    expect((await linkSend(token, other)).status).toBe(200)
    expect((await verify(other, codeFromSms(other))).body.message).toBe(INCORRECT_OTP)
  })

  it('refuses staff numbers (403) and accounts that are not Active, as login does', async () => {
    for (const [role, status, message] of [
      ['ADMIN', 'Active', STAFF_USE_PASSWORD],
      ['STAFF', 'Active', STAFF_USE_PASSWORD],
      ['USER', 'Suspended', CONTACT_ADMIN],
    ] as const) {
      const mobile = newMobile()
      const { user } = await createShopper(t)
      await t.db.update(users).set({ role, status, mobile, mobileVerified: true }).where(eq(users.id, user.id))
      const res = await verify(mobile, await requestCode(mobile))
      expect(res.status, role).toBe(403)
      expect(res.body.message).toBe(message)
      expect(res.headers.getSetCookie()).toHaveLength(0)
    }
  })

  it('logs neither the full number nor the code', async () => {
    const mobile = newMobile()
    const before = log.lines.length
    const code = await requestCode(mobile)
    await verify(mobile, otherCode(code))
    await verify(mobile, code)
    const written = log.lines.slice(before).join('')
    expect(written).toContain(mobile.slice(-4))
    expect(written).not.toContain(mobile)
    expect(written).not.toContain(code)
  })
})

describe('POST /api/user/mobile/send and /verify', () => {
  it('needs a signed-in user', async () => {
    expect((await t.call('user/mobile/send', { json: { mobile: newMobile() } })).status).toBe(401)
    expect((await t.call('user/mobile/verify', { json: { mobile: newMobile(), otp: '123456' } })).status).toBe(401)
  })

  it('verifies a number on the signed-in account; then SMS updates may be switched on', async () => {
    const { user, token } = await createShopper(t)
    const mobile = newMobile()
    const update = (json: Record<string, unknown>) =>
      t.call('user/update-user', { method: 'PUT', json: { name: 'Asha', email: user.email, ...json }, token })
    const early = await update({ mobile, sms_order_updates: true })
    expect(early.status).toBe(400)
    expect(early.body.message).toBe(SMS_NEEDS_VERIFIED_MOBILE)
    expect((await linkSend(token, `+91${mobile}`)).status).toBe(200)
    const res = await linkVerify(token, mobile, codeFromSms(mobile))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: MOBILE_VERIFIED, data: { mobile, mobile_verified: true } })
    const on = await update({ mobile, sms_order_updates: true })
    expect(on.status).toBe(200)
    expect(on.body.data).toMatchObject({ mobile, mobile_verified: true, sms_order_updates: true })
    // A verified number changes only by a code; leaving it out keeps it.
    expect((await update({ mobile: newMobile() })).body.message).toBe(VERIFY_NEW_MOBILE)
    expect((await update({})).body.data).toMatchObject({ mobile, mobile_verified: true })
    // The number now signs in this account.
    later(31)
    const login = await verify(mobile, await requestCode(mobile))
    expect((await t.call('user/user-details', { token: login.body.data.accessToken })).body.data._id).toBe(user.id)
  })

  it('answers 409 for a number verified on another account, at send and at verify', async () => {
    const taken = newMobile()
    await verify(taken, await requestCode(taken))
    const { token } = await createShopper(t)
    const res = await linkSend(token, taken)
    expect(res.status).toBe(409)
    expect(res.body.message).toBe(MOBILE_TAKEN)

    const free = newMobile()
    const { token: other } = await createShopper(t)
    expect((await linkSend(other, free)).status).toBe(200)
    const code = codeFromSms(free)
    later(31)
    await verify(free, await requestCode(free))
    const late = await linkVerify(other, free, code)
    expect(late.status).toBe(409)
    expect(late.body.message).toBe(MOBILE_TAKEN)
  })

  it('lets one of two accounts verifying the same number at once win; the other gets 409', async () => {
    const mobile = newMobile()
    const a = await createShopper(t)
    const b = await createShopper(t)
    expect((await linkSend(a.token, mobile)).status).toBe(200)
    const codeA = codeFromSms(mobile)
    expect((await linkSend(b.token, mobile)).status).toBe(200)
    const codeB = codeFromSms(mobile)
    const results = await Promise.all([linkVerify(a.token, mobile, codeA), linkVerify(b.token, mobile, codeB)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    const verified = (await userByMobile(mobile)).filter((u) => u.mobileVerified)
    expect(verified).toHaveLength(1)
  })

  it('lets one of two first sign-ins of a number at once make the account', async () => {
    const mobile = newMobile()
    const code = await requestCode(mobile)
    // The same code twice at once: the row lock lets one spend it, the other finds it gone.
    const results = await Promise.all([verify(mobile, code), verify(mobile, code)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    expect(await userByMobile(mobile)).toHaveLength(1)
  })
})

describe('budgets', () => {
  // A second app on the same database with small budgets.
  let limited: ReturnType<typeof createApp>['app']
  beforeAll(() => {
    limited = createApp({
      ...t.deps,
      rateLimits: createRateLimits({
        smsSendByMobile: { points: 2, duration: 3600 },
        smsSendByIp: { points: 3, duration: 3600 },
        smsVerifyByIp: { points: 2, duration: 3600 },
      }),
    }).app
  })
  const post = (path: string, json: unknown, ip: string) =>
    limited.request(`/api/user/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Ip': ip },
      body: JSON.stringify(json),
    })

  async function expect429(res: Response) {
    expect(res.status).toBe(429)
    const retryAfter = Number(res.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(30)
    expect(retryAfter).toBeLessThanOrEqual(3600)
    expect((await res.json()).message).toBe(`Too many requests, try again in ${retryAfter} seconds`)
  }

  it('limits codes per number, from any address', async () => {
    const mobile = newMobile()
    expect((await post('otp/send', { mobile }, '203.0.113.1')).status).toBe(200)
    later(31)
    expect((await post('otp/send', { mobile }, '203.0.113.2')).status).toBe(200)
    later(31)
    await expect429(await post('otp/send', { mobile }, '203.0.113.3'))
  })

  it('limits codes and checks per address (an IPv6 /64 as one)', async () => {
    for (const ip of ['2001:db8:1:1::1', '2001:db8:1:1::2', '2001:db8:1:1::3']) {
      expect((await post('otp/send', { mobile: newMobile() }, ip)).status).toBe(200)
    }
    await expect429(await post('otp/send', { mobile: newMobile() }, '2001:db8:1:1::4'))
    expect((await post('otp/send', { mobile: newMobile() }, '2001:db8:1:2::1')).status).toBe(200)
    const mobile = newMobile()
    for (let i = 0; i < 2; i++) expect((await post('otp/verify', { mobile, otp: '000000' }, '198.51.100.9')).status).toBe(400)
    await expect429(await post('otp/verify', { mobile, otp: '000000' }, '198.51.100.9'))
  })
})
